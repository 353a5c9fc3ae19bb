/**
 * wait-for-device-session, run from the sources in this process: the later step of the early-start
 * pattern (start-device-session with `wait: false`, other work, then this step, which knows the
 * session from the first step's `session-id` output, as `${{ steps.<id>.outputs.session-id }}`
 * passes it). The wait gives the connection start-device-session would have given; a session that
 * will not be ready is stopped. SVC_DEVICE_SESSION_ID, which any later step can rewrite, is never read.
 * The pattern through the built bundles, and a signal while waiting, are the end-to-end tier's
 * (__tests__/e2e/sessions-bundles.test.ts), and so is the required `session-id`
 * (__tests__/e2e/session-id-bundles.test.ts).
 */
import {
  IN_PROCESS,
  readActionYaml,
  renderLog,
  runStep,
  runStepPost,
} from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';
import { earlyStarter, laterWaiter, SESSIONS } from '../../testkit/world/session-fixtures.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': ONE_BUILD }, { readinessDelayMs: 20 });
});
// After each test: whatever happened, no device is left running.
sharedWorldHooks(() => world);

/** The first step: create the device and go on at once. */
const startEarly = earlyStarter(IN_PROCESS, () => world);

/** The later step, with the job's environment (see laterWaiter). */
const waitLater = laterWaiter(IN_PROCESS, () => world);

describe('wait-for-device-session', () => {
  it('masks the connection credentials before writing them anywhere', async () => {
    const start = await startEarly({ type: 'agent-device' });
    const wait = await waitLater(start);
    expect(wait.exitCode).toBe(0);
    const secret = wait.outputs['agent-device-remote-session-token'];
    expect(secret).toMatch(/.{16,}/);
    expect(wait.env.AGENT_DEVICE_DAEMON_AUTH_TOKEN).toBe(secret);
    const maskAt = wait.stdout.indexOf(`::add-mask::${secret}`);
    expect(maskAt).toBeGreaterThanOrEqual(0);
    expect(wait.stdout.indexOf(secret)).toBe(maskAt + '::add-mask::'.length);
    expect(wait.summary).not.toContain(secret);
    expect(wait.stdout).toContain(`::add-mask::${world.token}`);
    await runStep('stop-device-session', {
      inputs: { ...world.api, 'session-id': start.outputs['session-id'] },
    });
  });

  it('SVC_DEVICE_SESSION_ID rewritten by a later step does not choose the session: the session-id input does; export-env: false exports nothing', async () => {
    const [first, second] = await Promise.all([
      startEarly({ name: 'first' }),
      startEarly({ name: 'second' }),
    ]);
    const wait = await waitLater(first, {
      'session-id': second.outputs['session-id'],
      'export-env': 'false',
    });
    expect(wait.exitCode).toBe(0);
    expect(wait.outputs['session-id']).toBe(second.outputs['session-id']);
    expect(wait.env).toEqual({});
    expect(
      world.sim.requests.some((request) => request.path === `${SESSIONS}/${first.outputs['session-id']}`),
    ).toBe(false);
    await Promise.all(
      [first, second].map((start) =>
        runStepPost('start-device-session', start, { inputs: { ...world.api, platform: 'ios' } }),
      ),
    );
  });

  it('stops the session and fails when it is not ready within timeout-minutes', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
    const start = await startEarly();
    const id = start.outputs['session-id'];
    // A minute of the step clock in 5 s polls: the same dozen reads however busy the machine is.
    const wait = await waitLater(
      start,
      { 'timeout-minutes': '1', 'poll-interval-seconds': '5' },
      { clock: new VirtualClock() },
    );
    expect(wait.exitCode).toBe(1);
    expect(world.sim.getSession(id)?.status).toBe('stopped');
    expect(apiRequests(world.sim).at(-1)).toBe(`POST ${SESSIONS}/${id}/stop`);
    expect(wait.errors).toContain(
      `The device session was not ready within timeout-minutes (1); last status: new. The session was stopped. ${world.sim.getSession(id)?.url}`,
    );
    expect(wait.outputs.status).toBe('stopped');
    expect(wait.summary).toContain('The session was stopped.');
  });

  it('fails with the session URL when the session errors before it is ready', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 5000, errorAfterMs: 150 });
    const start = await startEarly();
    const id = start.outputs['session-id'];
    const wait = await waitLater(start);
    expect(wait.exitCode).toBe(1);
    expect(wait.outputs.status).toBe('errored');
    expect(wait.errors).toContain(
      `The device session became errored before it was ready. ${world.sim.getSession(id)?.url}`,
    );
    expect(apiRequests(world.sim).filter((line) => line.endsWith('/stop'))).toEqual([]);
  });

  it('a session the service does not know: one error, and no stop sent for it', async () => {
    const unknown = '0b9c8d7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e';
    const wait = await waitLater(undefined, { 'session-id': unknown });
    expect(wait.exitCode).toBe(1);
    expect(wait.errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Waiting for the device session failed: Reading device session ${unknown} failed: Not found \\(404\\): there is no device session with that id`,
        ),
      ),
    ]);
    expect(apiRequests(world.sim)).toEqual([`GET ${SESSIONS}/${unknown}`]);
  });

  it('a session that had been ready and was stopped since: said so, and to start a new one, not "before it was ready"; nothing to stop', async () => {
    const start = await runStep('start-device-session', {
      inputs: { ...world.api, platform: 'ios', 'poll-interval-seconds': '0.05' },
    });
    expect(start.exitCode).toBe(0);
    const id = start.outputs['session-id'];
    const stopped = await runStep('stop-device-session', { inputs: { ...world.api, 'session-id': id } });
    expect(stopped.exitCode).toBe(0);
    world.sim.clearRequests();
    const wait = await waitLater(start);
    const session = world.sim.getSession(id)!;
    expect(wait.exitCode).toBe(1);
    expect(wait.outputs.status).toBe('stopped');
    expect(wait.errors).toContain(
      `The device session had been ready (it started at ${session.startedAt}) and was stopped since ${session.finishedAt}: a stopped session cannot be used again. Start a new one with start-device-session. ${session.url}`,
    );
    expect(wait.stdout).not.toContain('before it was ready');
    expect(wait.summary).toContain('had been ready, and has ended');
    expect(apiRequests(world.sim)).toEqual([`GET ${SESSIONS}/${id}`]);
  });

  it('a session stopped before it was ready: said it was stopped, and to start a new one', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
    const start = await startEarly();
    const id = start.outputs['session-id'];
    const stopped = await runStep('stop-device-session', { inputs: { ...world.api, 'session-id': id } });
    expect(stopped.exitCode).toBe(0);
    const wait = await waitLater(start);
    const session = world.sim.getSession(id)!;
    expect(wait.exitCode).toBe(1);
    expect(wait.outputs.status).toBe('stopped');
    expect(wait.errors).toContain(
      `The device session was stopped since ${session.finishedAt} before it was ready: a stopped session cannot be used again. Start a new one with start-device-session. ${session.url}`,
    );
    expect(wait.stdout).not.toContain('became stopped');
  });

  it('no session-id input is an input error that shows the line to write, even with SVC_DEVICE_SESSION_ID set; nothing is read or stopped', async () => {
    const start = await startEarly();
    const id = start.outputs['session-id'];
    world.sim.clearRequests();
    // Another job's session, as a later step of this job could write it to $GITHUB_ENV.
    const [none, planted] = await Promise.all([
      waitLater(undefined),
      waitLater(undefined, {}, { env: { SVC_DEVICE_SESSION_ID: id } }),
    ]);
    for (const run of [none, planted]) {
      expect(run.exitCode).toBe(1);
      expect(renderLog(run.stdout)).toContain(
        'Error: Invalid input: `session-id` is required: the `session-id` output of the start-device-session step, empty here. In its job: `session-id: ${{ steps.<id>.outputs.session-id }}` (give that step an `id:`).',
      );
      expect(run.env).toEqual({});
    }
    expect(world.sim.requests).toEqual([]);
    await runStep('stop-device-session', { inputs: { ...world.api, 'session-id': id } });
  });

  it('a malformed session id is an input error before any request', async () => {
    const malformed = await waitLater(undefined, { 'session-id': 'abc' });
    expect(malformed.exitCode).toBe(1);
    expect(malformed.errors).toContainEqual(expect.stringMatching(/^Invalid input: `session-id` .*UUID/));
    expect(world.sim.requests).toEqual([]);
  });

  it('has no post step: its action.yml declares none', () => {
    const { runs } = readActionYaml('wait-for-device-session');
    expect(runs).toEqual({ using: 'node24', main: '../dist/wait-for-device-session/index.js' });
  });
});
