/**
 * The early-start pattern (README cookbook "start the device first, build, then wait"), timed
 * against the sequential one, through the built sub-action bundles and the simulator. Shared by
 * `npm run demo` (which shows each step's log) and `npm run bench` (which prints the figure).
 *
 * With a device that takes P to provision and an app build that takes B, the tests can start after
 * about P + B when the job waits for the device and then builds, and after about max(P, B) when it
 * starts the device with `wait: false`, builds, then waits with wait-for-device-session.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Simulator } from '../../simulator/index.js';
import { runAction, runPost, type ActionRun } from '../../testkit/runner/step.js';

export interface EarlyStartOptions {
  sim: Simulator;
  /** token and base-url */
  api: Record<string, string>;
  appId: string;
  provisioningMs: number;
  buildMs: number;
  pollIntervalSeconds: string;
  runtime?: string;
}

export interface EarlyStartResult {
  /** Job start → device ready and app built, waiting for the device first, then building. */
  sequentialMs: number;
  /** The same with start-device-session `wait: false`, the build, then wait-for-device-session. */
  earlyMs: number;
  /** Every step, in the order the two jobs ran them, for showing their logs. */
  steps: Array<{ title: string; run: ActionRun }>;
}

export async function measureEarlyStart(options: EarlyStartOptions): Promise<EarlyStartResult> {
  const { sim, api, runtime } = options;
  const steps: EarlyStartResult['steps'] = [];
  const step = async (title: string, running: Promise<ActionRun>): Promise<ActionRun> => {
    const run = await running;
    steps.push({ title, run });
    return run;
  };
  const buildApp = (): Promise<void> => sleep(options.buildMs); // stands for the app build
  const device = {
    ...api,
    'app-id': options.appId,
    platform: 'ios',
    'poll-interval-seconds': options.pollIntervalSeconds,
  };
  sim.setSessionBehaviour({ readinessDelayMs: options.provisioningMs });
  try {
    // Sequential: start the device and wait for it, then build.
    let jobStart = performance.now();
    const sequential = await step(
      'sequential: uses: svc-action/start-device-session (waits), then the build',
      runAction({ entry: 'start-device-session', runtime, inputs: { ...device, name: 'sequential' } }),
    );
    await buildApp();
    const sequentialMs = performance.now() - jobStart;
    await step(
      'sequential: post step of start-device-session (end of job)',
      runPost(sequential, { runtime, inputs: api }),
    );

    // Early start: start without waiting, build, then wait for the session the first step exported.
    jobStart = performance.now();
    const started = await step(
      'early start: uses: svc-action/start-device-session (wait: false)',
      runAction({
        entry: 'start-device-session',
        runtime,
        inputs: { ...device, name: 'early start', wait: 'false' },
      }),
    );
    await buildApp();
    await step(
      'early start: the build, then uses: svc-action/wait-for-device-session',
      runAction({
        entry: 'wait-for-device-session',
        runtime,
        inputs: {
          ...api,
          'session-id': started.outputs['session-id'] ?? '',
          'poll-interval-seconds': options.pollIntervalSeconds,
        },
      }),
    );
    const earlyMs = performance.now() - jobStart;
    await step(
      'early start: uses: svc-action/stop-device-session (after the tests)',
      runAction({
        entry: 'stop-device-session',
        runtime,
        inputs: { ...api, 'session-id': started.outputs['session-id'] ?? '' },
      }),
    );
    await step(
      'early start: post step of start-device-session (end of job)',
      runPost(started, { runtime, inputs: api }),
    );
    return { sequentialMs, earlyMs, steps };
  } finally {
    sim.resetSessionBehaviour();
  }
}

/** What is wrong with a measurement (empty when every step did what it should). */
export function earlyStartProblems(
  result: EarlyStartResult,
  options: Pick<EarlyStartOptions, 'provisioningMs' | 'buildMs'>,
  overheadAllowedMs: number,
): string[] {
  const problems: string[] = [];
  const [sequential, sequentialPost, started, waited, stopped, earlyPost] = result.steps.map(
    (step) => step.run,
  );
  if (sequential?.exitCode !== 0 || sequential.outputs.status !== 'in-progress')
    problems.push('start-device-session (waiting) should end with the device ready');
  if (sequentialPost?.exitCode !== 0) problems.push('the post step should stop the sequential session');
  if (started?.exitCode !== 0 || started.env.SVC_DEVICE_SESSION_ID !== started.outputs['session-id'])
    problems.push('start-device-session with wait: false should export SVC_DEVICE_SESSION_ID');
  if (waited?.exitCode !== 0 || waited.outputs.status !== 'in-progress')
    problems.push('wait-for-device-session should end with the device ready');
  if (stopped?.exitCode !== 0 || stopped.outputs.status !== 'stopped')
    problems.push('stop-device-session should stop the session');
  if (earlyPost?.exitCode !== 0) problems.push('the post step after an explicit stop should succeed');
  const sum = options.provisioningMs + options.buildMs;
  const overlap = Math.max(options.provisioningMs, options.buildMs);
  if (result.sequentialMs < sum)
    problems.push(`the sequential pattern took ${Math.round(result.sequentialMs)} ms, less than P + B`);
  if (result.earlyMs < overlap || result.earlyMs > overlap + overheadAllowedMs)
    problems.push(
      `the early start took ${Math.round(result.earlyMs)} ms, not within ${overheadAllowedMs} ms above max(P, B) = ${overlap} ms`,
    );
  return problems;
}
