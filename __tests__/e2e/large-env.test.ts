/**
 * A value too large for the environment stays out of $GITHUB_ENV: Linux refuses an environment
 * string over 128 KiB (E2BIG), so one such variable would keep every later step of the job from
 * starting, the post step that stops the session included. Through the start-device-session bundle,
 * then its post step with the environment the runner would give it (the job's exported variables).
 */
import { renderLog, runAction, runPost } from '../../testkit/runner/step.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

const RUNTIME = 'node24';

describe('exported variables', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  it('140 KiB of capabilities: not exported, a warning points at the output, later steps still start', async () => {
    // A certificate for the device farm, base64: one long value.
    const certificate = Buffer.alloc(105_000, 'svc-capability-certificate').toString('base64');
    const capabilities = { platformName: 'iOS', 'vendor:certificate': certificate };
    world.sim.setSessionBehaviour({ readinessDelayMs: 50, extraRemoteConfigFields: { capabilities } });
    const main = await runAction({
      entry: 'start-device-session',
      runtime: RUNTIME,
      inputs: { ...world.api, platform: 'ios', type: 'appium', 'poll-interval-seconds': '0.05' },
    });
    expect(main.exitCode).toBe(0);
    expect(main.outputs.capabilities.length).toBeGreaterThan(140_000);
    expect(JSON.parse(main.outputs.capabilities)).toEqual(capabilities);
    // The small variables are exported; the large one is not, and the step says where it is instead.
    expect(Object.keys(main.env).sort()).toEqual(['APPIUM_URL', 'SVC_DEVICE_SESSION_ID']);
    const log = renderLog(main.stdout);
    expect(log).toMatch(
      /Warning: APPIUM_CAPS was not exported for later steps: its value is 137 KiB, more than the 32 KiB .*step output `capabilities`/,
    );
    expect(log).toContain('Exported for later steps: SVC_DEVICE_SESSION_ID, APPIUM_URL');
    for (const value of Object.values(main.env))
      expect(Buffer.byteLength(value)).toBeLessThanOrEqual(32 * 1024);

    // The post step starts with the job's exported variables in its environment, and stops the session.
    const post = await runPost(main, { runtime: RUNTIME, inputs: world.api, env: main.env });
    expect(post.exitCode).toBe(0);
    expect(world.sim.sessions()[0].status).toBe('stopped');
  });
});
