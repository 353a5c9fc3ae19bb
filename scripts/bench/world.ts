/** The world every figure is measured in: a simulator with one account, project and token. */
import { startSimulator, type RecordedRequest, type Simulator } from '../../simulator/index.js';
import type { ActionRun } from '../../testkit/runner/step.js';

const WORKFLOW = `name: Bench
on: workflow_dispatch
jobs:
  only:
    name: Only job
    steps:
      - run: echo bench
`;

export interface World {
  sim: Simulator;
  api: Record<string, string>;
}

/** A simulator with one account, a project (its repository, with bench.yml, held in memory) and a token. */
export async function createWorld(options: Parameters<typeof startSimulator>[0] = {}): Promise<World> {
  const sim = await startSimulator(options);
  const account = sim.addAccount({ name: 'bench' });
  const project = sim.addProject({ account, workflows: { 'bench.yml': WORKFLOW }, name: 'app' });
  const token = sim.addToken({ account, role: 'developer', robot: true });
  return { sim, api: { token, 'base-url': sim.url, 'app-id': project.id } };
}

/** Service requests (control routes left out) received at or after `since` (epoch ms). */
export function serviceRequests(sim: Simulator, since = 0): RecordedRequest[] {
  return sim.requests.filter((request) => !request.control && Date.parse(request.receivedAt) >= since);
}

/** Throws, with the step's output, when it failed: a figure of a failed step means nothing. */
export function check(run: ActionRun, what: string): void {
  if (run.exitCode !== 0)
    throw new Error(`${what}: the step failed (exit ${run.exitCode}):\n${run.stdout}\n${run.stderr}`);
}
