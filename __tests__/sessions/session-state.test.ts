/**
 * What a start-device-session step keeps for its post step, and what the post step says, run from
 * the sources in this process: credentials masked whenever a session carries them, and a post step
 * that says only what it knows. State that always lets the post step start (the runner hands it to
 * the post step's process as environment variables, and Linux refuses one over 128 KiB) needs that
 * process: the end-to-end tier's (__tests__/e2e/sessions-bundles.test.ts).
 */
import { IN_PROCESS, renderLog, runAction, runPost } from '../../testkit/runner/in-process.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { createWorld, mutateSessionReads, type World } from '../../testkit/world/world.js';
import { sessionStarter, STOP_LEFT } from '../../testkit/world/session-fixtures.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 50 });
});
sharedWorldHooks(() => world, STOP_LEFT);

const start = sessionStarter(IN_PROCESS, () => world);

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
  // A minute of the step clock in 5 s polls: reads that carry the connection, then the timeout,
  // however long the machine takes to answer.
  const main = await IN_PROCESS.runAction({
    entry: 'start-device-session',
    inputs: { ...world.api, platform: 'ios', 'timeout-minutes': '1', 'poll-interval-seconds': '5' },
    clock: new VirtualClock(),
  });
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
