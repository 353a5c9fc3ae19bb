/**
 * A wait-for-run step of a test world following `runId` in this process, from the sources: the
 * in-process twin of testkit/world/world.ts's followRunStep (which runs the bundle), with the same
 * inputs (the world's token and simulator, fast polls).
 */
import { runStep, type ActionRun, type StepOptions } from '../../testkit/runner/in-process.js';
import type { World } from '../../testkit/world/world.js';

export function followRunInProcess(
  world: World,
  runId: string,
  inputs: Record<string, string> = {},
  options: StepOptions = {},
): Promise<ActionRun> {
  return runStep('wait-for-run', {
    ...options,
    inputs: {
      token: world.token,
      'base-url': world.sim.url,
      'run-id': runId,
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}
