/**
 * A cancellation that reaches a step while its bundle is still loading (a few tens of milliseconds
 * after Node starts it, before the step's own code exists). To aim at that moment without guessing
 * at a delay, a test-only preload (harness/hold-bundle.mjs, `node --import`) holds the bundle's load
 * until the test has sent the signal; the main step runs with the same NODE_OPTIONS, so the post
 * step's start-up settings match it. The post step treats the signal as received: it still stops the
 * session within what is left of the grace, says so, and exits 1 (cancelled). Through the bundles.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, renderLog, runAction, runPost } from '../../testkit/runner/step.js';
import { createWorld, until, type World } from '../../testkit/world/world.js';

const NODE_OPTIONS = `--import=${join(ROOT, 'testkit', 'runner', 'hold-bundle.mjs')}`;

let world: World;
let dir: string;
beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 20 });
});
afterAll(async () => {
  await world.sim.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'signal-at-start-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test.each(['post', 'start-device-session'])(
  'the %s entrypoint listens for SIGINT and SIGTERM before it loads the bundle',
  (entry) => {
    const source = readFileSync(join(ROOT, 'dist', entry, 'index.js'), 'utf8');
    const listens = source.indexOf("process.on('SIGINT', caught).on('SIGTERM', caught)");
    expect(listens).toBeGreaterThan(0);
    // No static import: it would load the bundle before any line of the entrypoint runs.
    expect(source).not.toMatch(/^import /m);
    expect(source.indexOf("await import('../action/index.js')")).toBeGreaterThan(listens);
  },
);

test.each(['SIGINT', 'SIGTERM'] as const)(
  'a %s while the post step loads: the session is still stopped, and the log says so',
  async (signal) => {
    const main = await runAction({
      entry: 'start-device-session',
      inputs: { ...world.api, platform: 'ios', 'poll-interval-seconds': '0.05' },
      // A grace of 30 s: loading the bundle and one stop after the signal fit it ten times over on a
      // busy machine; the step ends as soon as the stop is confirmed.
      env: { SVC_CANCEL_GRACE_MS: '30000', NODE_OPTIONS },
    });
    expect(main.exitCode).toBe(0);
    const id = main.outputs['session-id'];
    const post = await runPost(main, {
      inputs: world.api,
      env: { NODE_OPTIONS, HOLD_BUNDLE_DIR: dir },
      onSpawn: (child) => {
        void until(() => existsSync(join(dir, 'loading'))).then(() => {
          child.kill(signal);
          writeFileSync(join(dir, 'go'), '');
        });
      },
    });
    expect(post.signal).toBeNull();
    expect(post.exitCode).toBe(1);
    const log = renderLog(post.stdout);
    expect(log).toContain(
      `Received ${signal}: still stopping device session ${id} before the runner ends the step.`,
    );
    expect(log).toContain(`Device session ${id} is stopped`);
    expect(log).toContain(
      `Error: The post step was cancelled; device session ${id} was stopped all the same.`,
    );
    expect(world.sim.getSession(id)?.status).toBe('stopped');
  },
);
