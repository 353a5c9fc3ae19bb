/**
 * The fixtures the security tests of the run commands share across the two tiers: the unit files
 * __tests__/security/huge-runs.test.ts and huge-workflow-file.test.ts, which run each step in process
 * from the sources, and __tests__/e2e/security/runs-bundles.test.ts, which runs their bundle cases. A
 * helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionRun, StepOptions, StepRunners } from '../runner/step.js';
import { until, type World } from './world.js';
import { HUGE_RUN_ID, serveHugeRun } from './huge-run.js';
import {
  closeWorkspaceWorld,
  createWorkspaceWorld,
  workspaceDispatch,
  type WorkspaceWorld,
} from './workspace-world.js';

// ---------------------------------------------------------------------------------------------------
// A run of 50,000 jobs (huge-runs)

/**
 * wait-for-run on the huge run, every read answered with it (run `status`, every job `jobStatus`): the
 * world's token and simulator, no expected commit, polls every 0.2 s.
 */
export function followHugeRun(
  runners: StepRunners,
  world: World,
  status: string,
  jobStatus: string,
  inputs: Record<string, string> = {},
  options: StepOptions = {},
): Promise<ActionRun> {
  serveHugeRun(world.sim, status, jobStatus);
  return runners.runStep('wait-for-run', {
    ...options,
    inputs: {
      token: world.token,
      'base-url': world.sim.url,
      'run-id': HUGE_RUN_ID,
      'expected-commit': '',
      'poll-interval-seconds': '0.2',
      ...inputs,
    },
  });
}

/** The outputs of jobs, bounded together (GitHub keeps 1 MB of outputs per job). */
export const JOB_OUTPUTS = ['jobs', 'job-outputs', 'build-ids', 'submission-ids', 'failed-jobs'];

/** The bytes of the job outputs together. */
export function jobOutputsBytes(run: ActionRun): number {
  return JOB_OUTPUTS.reduce((sum, name) => sum + Buffer.byteLength(run.outputs[name] ?? ''), 0);
}

/** The job numbers of the `jobs` output, each element a job of the run (no marker element). */
export function keptJobNumbers(run: ActionRun): number[] {
  const jobs = JSON.parse(run.outputs.jobs) as Array<Record<string, unknown>>;
  for (const job of jobs)
    expect(job).toEqual(expect.objectContaining({ id: expect.any(String), status: expect.any(String) }));
  return jobs.map((job) => Number(String(job.key).replace('job_', '')));
}

// ---------------------------------------------------------------------------------------------------
// A huge workflow file in the workspace (huge-workflow-file)

/** A mapping of `count` keys on one line (`{k0: 1,k1: 1,…}`): 105,000 of them make about 0.9 MB. */
export function manyKeys(count: number): string {
  return `{${Array.from({ length: count }, (_, i) => `k${i.toString(36)}: 1`).join(',')}}`;
}

export const SMALL_WORKFLOW = 'name: Small\non: workflow_dispatch\njobs:\n  build:\n    type: build\n';

/**
 * A folder holding a `git` to put first on PATH: on its first call it waits until the test lets it go
 * (a slow check); see slowGitCheck.
 */
export function createSlowGit(): string {
  const slowGit = mkdtempSync(join(tmpdir(), 'svc-slow-git-'));
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(slowGit, 'git'),
    `#!/bin/sh\n[ -e "$SLOW_GIT/started" ] || touch "$SLOW_GIT/started"\nwhile [ ! -e "$SLOW_GIT/go" ]; do sleep 0.05; done\nexec ${realGit} "$@"\n`,
  );
  chmodSync(join(slowGit, 'git'), 0o755);
  return slowGit;
}

/** A project `huge` whose repository is the workspace of `file` and small.yml, and a slow git (createSlowGit). */
export interface SlowGitWorld extends WorkspaceWorld {
  slowGit: string;
}

export async function createSlowGitWorld(
  file: Record<string, string>,
  defaultJobDurationMs: number,
): Promise<SlowGitWorld> {
  const fixture = await createWorkspaceWorld(
    { ...file, 'small.yml': SMALL_WORKFLOW },
    { defaultJobDurationMs },
    undefined,
    'huge',
  );
  return { ...fixture, slowGit: createSlowGit() };
}

export async function closeSlowGitWorld(fixture: SlowGitWorld): Promise<void> {
  rmSync(fixture.slowGit, { recursive: true, force: true });
  await closeWorkspaceWorld(fixture);
}

/** run-workflow at the workspace's commit (fast polls), in a job whose workspace is the project's repository. */
export function workspaceHeadDispatch(
  runners: StepRunners,
  fixture: WorkspaceWorld,
  inputs: Record<string, string>,
  options: StepOptions = {},
): Promise<ActionRun> {
  return workspaceDispatch(runners, fixture, inputs, options, {
    'git-ref': fixture.workspace.headSha,
    'poll-interval-seconds': '0.05',
  });
}

/**
 * The step `start` starts with the environment that puts `slowGit` first on PATH: its check waits in git
 * until `whileWaiting` has ended; then git goes on, and this returns the step's result.
 */
export async function slowGitCheck(
  slowGit: string,
  start: (env: Record<string, string>) => Promise<ActionRun>,
  whileWaiting: () => Promise<void>,
): Promise<ActionRun> {
  const gate = mkdtempSync(join(tmpdir(), 'svc-slow-git-gate-'));
  const pending = start({ PATH: `${slowGit}:${process.env.PATH ?? ''}`, SLOW_GIT: gate });
  await until(() => existsSync(join(gate, 'started')), 20_000);
  await whileWaiting();
  writeFileSync(join(gate, 'go'), '');
  const result = await pending;
  rmSync(gate, { recursive: true, force: true });
  return result;
}
