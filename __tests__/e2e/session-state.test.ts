/**
 * What a start-device-session step keeps for its post step, and what the post step says, through the
 * built bundles as the runner runs them: state that always lets the post step start (the runner
 * hands it over as environment variables, and Linux refuses one over 128 KiB), credentials masked
 * whenever a session carries them, and a post step that says only what it knows.
 */
import { renderLog, runAction, runPost, type ActionRun } from '../../testkit/runner/step.js';
import { createWorld, mutateSessionReads, stopLeftSessions, type World } from '../../testkit/world/world.js';
import { savedSessions } from '../../testkit/world/session-state.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 50 });
});
afterAll(() => world.sim.close());
afterEach(async () => {
  world.sim.clearFaults();
  await stopLeftSessions(world);
  world.sim.reset();
});

const start = (inputs: Record<string, string> = {}): Promise<ActionRun> =>
  runAction({
    entry: 'start-device-session',
    inputs: { ...world.api, platform: 'ios', 'poll-interval-seconds': '0.05', ...inputs },
  });

/** Every create answer names the session with a page URL of `length` characters. */
function longUrls(length: number, times: number): void {
  world.sim.injectFault({
    method: 'POST',
    path: /^\/v2\/device-run-sessions$/,
    kind: 'mutate',
    times,
    mutate: (json) => {
      const answer = json as { data: { url: string } };
      answer.data.url = `https://svc.example/device-sessions/${'x'.repeat(length)}`.slice(0, length);
      return answer;
    },
  });
}

/** The bytes the post step's environment gets from the main step's state (`STATE_<name>=<value>`). */
const stateBytes = (run: ActionRun): number[] =>
  Object.entries(run.state).map(([name, value]) => Buffer.byteLength(`STATE_${name}=${value}`));

describe('state that always lets the post step start', () => {
  it('five attempts whose sessions have 30,000-character urls: the post step starts and stops the last', async () => {
    longUrls(30_000, 5);
    // The first four sessions read as errored (another attempt follows); the fifth becomes ready.
    mutateSessionReads(world, (session) => {
      if (world.sim.sessions().length < 5) Object.assign(session, { status: 'errored', remoteConfig: null });
    });
    const main = await start({ 'start-attempts': '5' });
    expect(main.exitCode).toBe(0);
    world.sim.clearFaults();
    // Before the fix the runner could not start it at all (E2BIG): the state held every url.
    const post = await runPost(main, { inputs: world.api });
    expect(post.exitCode).toBe(0);
    const sessions = world.sim.sessions();
    expect(sessions).toHaveLength(5);
    // The id is all a stop needs: a url that long is not kept.
    expect(savedSessions(main).map((saved) => [saved.id, saved.url])).toEqual(
      sessions.map((s) => [s.id, '']),
    );
    // The whole state, not only each variable, is well under Linux's 128 KiB per string.
    expect(stateBytes(main).reduce((sum, bytes) => sum + bytes, 0)).toBeLessThan(16 * 1024);
    for (const session of sessions) expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    expect(renderLog(post.stdout)).toContain(`Device session ${sessions[4].id} is stopped at `);
  });

  it('one session whose url is 140,000 characters: the post step starts and stops it', async () => {
    longUrls(140_000, 1);
    const main = await start();
    expect(main.exitCode).toBe(0);
    const [session] = world.sim.sessions();
    const post = await runPost(main, { inputs: world.api });
    expect(post.exitCode).toBe(0);
    expect(Math.max(...stateBytes(main))).toBeLessThan(8 * 1024);
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
  });
});

it('a session that carries its connection before it is ready, then times out: its credentials are masked, never in the summary', async () => {
  const previewToken = 'PreviewTok3n0001xyzAB';
  const daemonToken = 'adr_NotReadyYet_0123456789';
  world.sim.setSessionBehaviour({ readinessDelayMs: 600_000, extraStatusBeforeReady: 'queued' });
  mutateSessionReads(world, (session) => {
    session.remoteConfig = {
      agentDeviceRemoteSessionUrl: 'https://device.example/daemon',
      agentDeviceRemoteSessionToken: daemonToken,
      webPreviewUrl: `https://preview.example/s?token=${previewToken}`,
    };
  });
  const main = await start({ 'timeout-minutes': '0.05' });
  expect(main.exitCode).toBe(1);
  expect(renderLog(main.stdout)).toContain('was not ready within timeout-minutes');
  // Registered as secrets as soon as they were read, so the runner hides them everywhere.
  expect(main.stdout).toContain(`::add-mask::${previewToken}`);
  expect(main.stdout).toContain(`::add-mask::${daemonToken}`);
  expect(main.summary).toContain('not ready in time');
  expect(main.summary).not.toContain(previewToken);
  expect(main.summary).not.toContain(daemonToken);
  world.sim.setSessionBehaviour({ readinessDelayMs: null, extraStatusBeforeReady: null });
});

it('auto-stop: false and the session stopped later in the job: the post step says it ended, not that it keeps running', async () => {
  const main = await start({ 'auto-stop': 'false' });
  expect(main.exitCode).toBe(0);
  const id = main.outputs['session-id'];
  const stop = await runAction({ entry: 'stop-device-session', inputs: { ...world.api, 'session-id': id } });
  expect(stop.exitCode).toBe(0);
  const post = await runPost(main, { inputs: world.api });
  expect(post.exitCode).toBe(0);
  const log = renderLog(post.stdout);
  expect(log).not.toContain('keeps running');
  expect(log).toContain(
    `auto-stop is false, and device session ${id} had already been stopped during the job`,
  );
  // Status with its icon and the device time, never empty cells.
  expect(post.summary).toMatch(
    /\| ⏹️ stopped \| \d+s of its \d+ min maximum \| nothing to leave running, it had already ended \\\(auto-stop\\: false\\\) \|/,
  );
});

it('start-attempts whose last session errors too: the Attempts heading stands apart from the reason quoted above it', async () => {
  world.sim.setSessionBehaviour({ readinessDelayMs: 600_000, errorAfterMs: 30 });
  const main = await start({ 'start-attempts': '2' });
  world.sim.setSessionBehaviour({ readinessDelayMs: null, errorAfterMs: null });
  expect(main.exitCode).toBe(1);
  // A line right after a blockquote would be read as part of the quote: a blank line ends it.
  expect(main.summary).toMatch(
    // The reason's sentences, one a quoted line each, then the fence and a blank line.
    /^> The device session became errored before it was ready\.(?:.*\n> (?!```).*)*\n> ```\n\n\*\*Attempts\*\* \(2 of at most 2\)$/m,
  );
  expect(main.summary).not.toMatch(/^> .*\n\*\*Attempts\*\*/m);
});
