/**
 * The fixtures the device-session tests share across the tiers (__tests__/sessions/, in process, and
 * __tests__/e2e/sessions-bundles.test.ts, the bundles): the inputs a workflow gives each step, the
 * steps themselves, sessions made on the service by another job, the clean-up after a test, and the
 * checks of what a step wrote. A helper that runs a step takes the tier's runners (IN_PROCESS or
 * BUNDLES) and the world as a getter (`() => world`), since the tests create their world in a hook.
 */
import { expect } from '@jest/globals';
import type { ActionRun, StepOptions, StepRunners } from '../runner/step.js';
import { stopLeftSessions, type World } from './world.js';
import type { SharedWorldHooks } from './world-hooks.js';

/** The service's device-session route. */
export const SESSIONS = '/v2/device-run-sessions';

/** The two doors to start-device-session: the sub-action, and the root action (`command:`). */
export const START_DOORS = ['start-device-session', 'root'] as const;
export type StartDoor = (typeof START_DOORS)[number];

/** The secret must appear only after its ::add-mask:: line, in stdout, and nowhere in a file the runner does not mask. */
export function expectMaskedFirst(run: ActionRun, secret: string): void {
  const maskAt = run.stdout.indexOf(`::add-mask::${secret}`);
  expect(maskAt).toBeGreaterThanOrEqual(0);
  expect(run.stdout.indexOf(secret)).toBe(maskAt + '::add-mask::'.length);
  expect(run.stderr).not.toContain(secret);
  expect(run.summary).not.toContain(secret);
  expect(run.files.state).not.toContain(secret);
}

/** What a workflow writes in `with:` for the given door (an iOS session, fast polls). */
export function doorInputs(
  world: () => World,
): (action: StartDoor, inputs: Record<string, string>) => Record<string, string> {
  return (action, inputs) => ({
    ...(action === 'root' ? { command: 'start-device-session' } : {}),
    ...world().api,
    platform: 'ios',
    'poll-interval-seconds': '0.05',
    ...inputs,
  });
}

/** start-device-session through either door, as a `uses:` step runs it, with doorInputs. */
export function doorStarter(
  runners: StepRunners,
  world: () => World,
): (action: StartDoor, inputs?: Record<string, string>, options?: StepOptions) => Promise<ActionRun> {
  const withInputs = doorInputs(world);
  return (action, inputs = {}, options = {}) =>
    runners.runStep(action, { ...options, inputs: withInputs(action, inputs) });
}

/** start-device-session's own entrypoint on an iOS session with fast polls, `inputs` and `env` added. */
export function sessionStarter(
  runners: StepRunners,
  world: () => World,
): (inputs?: Record<string, string>, env?: Record<string, string>) => Promise<ActionRun> {
  return (inputs = {}, env = {}) =>
    runners.runAction({
      entry: 'start-device-session',
      inputs: { ...world().api, platform: 'ios', 'poll-interval-seconds': '0.05', ...inputs },
      env,
    });
}

/**
 * After a test: the faults cleared, whatever it left running (on purpose) stopped, then, with
 * `checkNoneActive`, checked, and the simulator reset.
 */
export async function stopLeftAndReset(world: World, { checkNoneActive = false } = {}): Promise<void> {
  world.sim.clearFaults();
  await stopLeftSessions(world);
  if (checkNoneActive) expect(world.sim.activeSessions()).toEqual([]);
  world.sim.reset();
}

/** sharedWorldHooks' options for tests that leave sessions running on purpose: stopLeftAndReset after each. */
export const STOP_LEFT: SharedWorldHooks = {
  beforeEachTest: null,
  afterEachTest: (world) => stopLeftAndReset(world),
};
/** The same, then checked: no session is active any more. */
export const STOP_LEFT_CHECKED: SharedWorldHooks = {
  beforeEachTest: null,
  afterEachTest: (world) => stopLeftAndReset(world, { checkNoneActive: true }),
};

/** The first step of the early-start pattern: create the device and go on at once (`wait: false`). */
export function earlyStarter(
  runners: StepRunners,
  world: () => World,
): (inputs?: Record<string, string>) => Promise<ActionRun> {
  return (inputs = {}) =>
    runners.runStep('start-device-session', {
      inputs: { ...world().api, platform: 'ios', wait: 'false', ...inputs },
    });
}

/**
 * The later step: `session-id: ${{ steps.device.outputs.session-id }}`; the job's environment carries
 * what earlier steps wrote to GITHUB_ENV (the first step's SVC_DEVICE_SESSION_ID), and the token and
 * service address as a workflow's `env:` would.
 */
export function laterWaiter(
  runners: StepRunners,
  world: () => World,
): (
  start: ActionRun | undefined,
  inputs?: Record<string, string>,
  options?: StepOptions,
) => Promise<ActionRun> {
  return (start, inputs = {}, options = {}) =>
    runners.runStep('wait-for-device-session', {
      ...options,
      env: { ...start?.env, SVC_TOKEN: world().token, SVC_BASE_URL: world().sim.url, ...options.env },
      inputs: {
        'poll-interval-seconds': '0.05',
        ...(start ? { 'session-id': start.outputs['session-id'] } : {}),
        ...inputs,
      },
    });
}

/** A session created on the service (by another job, say), made ready unless `ready` is false. */
export async function serviceSession(
  world: World,
  name: string,
  ready = true,
): Promise<{ id: string; url: string }> {
  const reply = await fetch(`${world.sim.url}${SESSIONS}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appId: world.project.id, platform: 'ios', type: 'agent-device', name }),
  });
  expect(reply.status).toBe(200);
  const { id, url } = ((await reply.json()) as { data: { id: string; url: string } }).data;
  if (ready) world.sim.readySession(id);
  return { id, url };
}

/** stop-device-session on `sessionId`, as a `uses:` step runs it. */
export function sessionStopper(
  runners: StepRunners,
  world: () => World,
): (sessionId: string, inputs?: Record<string, string>, options?: StepOptions) => Promise<ActionRun> {
  return (sessionId, inputs = {}, options = {}) =>
    runners.runStep('stop-device-session', {
      ...options,
      inputs: { ...world().api, 'session-id': sessionId, ...inputs },
    });
}

/** The cells of stop-device-session's summary's one-row table. */
export function stopSummaryRow(summary: string): string[] {
  const line = summary.split('\n').find((l) => l.startsWith('| ') && !/^\| (Session|---)/.test(l));
  return (line ?? '').slice(2, -2).split(' | ');
}

/** The first eight bytes of every PNG file. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The `with:` of the controllers' start-device-session steps: an iOS session, fast polls, `given`. */
export function controllerInputs(
  world: () => World,
): (given: Record<string, string>) => Record<string, string> {
  return (given) => ({ ...world().api, platform: 'ios', 'poll-interval-seconds': '0.05', ...given });
}

/** start-device-session with controllerInputs, checked to have succeeded without a word on stderr. */
export function readyStarter(
  runners: StepRunners,
  world: () => World,
): (given: Record<string, string>) => Promise<ActionRun> {
  const inputs = controllerInputs(world);
  return async (given) => {
    const main = await runners.runStep('start-device-session', { inputs: inputs(given) });
    expect(main.stderr).toBe('');
    expect(main.exitCode).toBe(0);
    return main;
  };
}

/** The end of the job: the post step of that step stops the session (checked). */
export function jobEnder(
  runners: StepRunners,
  world: () => World,
): (main: ActionRun, given: Record<string, string>) => Promise<void> {
  const inputs = controllerInputs(world);
  return async (main, given) => {
    const post = await runners.runStepPost('start-device-session', main, { inputs: inputs(given) });
    expect(post.exitCode).toBe(0);
    expect(world().sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
  };
}

/** A page of the simulator (a preview), checked to be HTML. */
export async function htmlPage(url: string): Promise<{ status: number; html: string }> {
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return { status: response.status, html: await response.text() };
}
