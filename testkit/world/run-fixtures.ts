/**
 * The gate, doors and runs of run-workflow, wait-for-run, summaries and expected-commit, in both tiers
 * (__tests__/runs/ and their cases in __tests__/e2e/runs-bundles.test.ts).
 * A helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import type { ActionRun, StepOptions, StepRunners } from '../runner/step.js';
import { createWorld, until, type World } from './world.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../docs/workflows.js';
import { type WorkflowRun } from '../../simulator/index.js';

type Inputs = Record<string, string>;

// run-workflow, wait-for-run, summaries, expected-commit

export const RUN_GATE = workflow(
  'Gate',
  {
    ...BUILD_IOS,
    ...BUILD_ANDROID,
    test: { name: 'Tests', needs: ['build_ios'], outputs: { result: 'passed' } },
    submit: { type: 'submit', needs: ['test', 'build_android'], params: { platform: 'ios' } },
  },
  { profile: { type: 'choice', options: ['preview', 'production'], default: 'preview', required: true } },
);
/** The two ways to call run-workflow, as a workflow writes them. */
export const RUN_DOORS = ['run-workflow', 'root'] as const;
export type RunDoor = (typeof RUN_DOORS)[number];

/** run-workflow through `action`, gating on gate.yml at main. */
export function runThroughDoor(
  runners: StepRunners,
  world: World,
  action: RunDoor,
  inputs: Inputs = {},
  options: StepOptions = {},
): Promise<ActionRun> {
  return runners.runStep(action, {
    ...options,
    inputs: {
      ...(action === 'root' ? { command: 'run-workflow' } : {}),
      ...world.api,
      workflow: 'gate.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}

/** Both doors at once (in process, one after the other); each result is matched to its run by its `run-id`. */
export async function throughBothDoors(
  runners: StepRunners,
  world: World,
  inputs: Inputs = {},
  options: StepOptions = {},
): Promise<Array<[RunDoor, ActionRun]>> {
  const results = await Promise.all(
    RUN_DOORS.map((action) => runThroughDoor(runners, world, action, inputs, options)),
  );
  return RUN_DOORS.map((action, index) => [action, results[index]]);
}

/** The simulator's run a step output the id of. */
export function simRunOfStep(world: World, result: ActionRun): WorkflowRun {
  const simRun = world.sim.getRun(result.outputs['run-id']);
  if (!simRun) throw new Error(`no run ${result.outputs['run-id']} in the simulator:\n${result.stdout}`);
  return simRun;
}

export interface RunJob {
  key: string;
  status: string;
  buildId: string | null;
}

/** The `jobs` output, read. */
export function jobsOutput(result: ActionRun): RunJob[] {
  return JSON.parse(result.outputs.jobs) as RunJob[];
}

/**
 * A run nobody in this job dispatched (of store.yml at main): the step only knows its id. Its first jobs
 * have started when this returns, so a job behaviour set afterwards (they apply to jobs started later)
 * cannot reach them.
 */
export async function someoneElsesStoreRun(world: World): Promise<WorkflowRun> {
  const run = await world.sim.createRun({ appId: world.project.id, gitRef: 'main', fileName: 'store.yml' });
  return until(() => {
    const current = world.sim.getRun(run.id);
    return current?.jobs.every((job) => job.key === 'submit' || job.status !== 'new') && current;
  });
}

/** run-workflow on gate.yml at main (summaries.test.ts). */
export function gateDispatch(runners: StepRunners, world: World, inputs: Inputs = {}): Promise<ActionRun> {
  return runners.runAction({
    entry: 'run-workflow',
    inputs: {
      ...world.api,
      workflow: 'gate.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}

/** The header of the summary's first table. */
export function runTableHeader(summary: string): string {
  return summary.split('\n').find((line) => line.startsWith('| Run')) ?? '';
}

export const STORE_PIPELINE = `name: Store
on: workflow_dispatch
jobs:
  build:
    type: build
`;

/** expected-commit's world: store.yml on main, and `otherSha`, the commit of branch `next` one after it. */
export async function createNextCommitWorld(
  defaultJobDurationMs: number,
): Promise<{ world: World; otherSha: string }> {
  const world = await createWorld({ 'store.yml': STORE_PIPELINE }, { defaultJobDurationMs });
  const otherSha = world.repo.commit({ 'store.yml': `${STORE_PIPELINE}# next\n` }, 'Next', 'next');
  return { world, otherSha };
}

/** A run of store.yml at `gitRef`, started in the simulator. */
export function storeRunOn(world: World, gitRef: string): Promise<WorkflowRun> {
  return world.sim.createRun({ appId: world.project.id, gitRef, fileName: 'store.yml' });
}
