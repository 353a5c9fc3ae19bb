/**
 * A huge answer from the service costs the step work in proportion to its size: a device session
 * whose connection details are about 600 kB (testkit/world/huge-answer.ts) is handled at once, within
 * `timeout-minutes`, and the step answers SIGINT while it handles it. Run through the built bundle.
 *
 * Nothing here asserts a duration: the harness's time limit is only a safety net (a step it has to
 * kill ends with SIGKILL and no exit code, which fails the test). The figures are in `npm run bench`.
 */
import { hugeRemoteConfigFields, LONG_SESSION_NAME } from '../../../testkit/world/huge-answer.js';
import { runAction, runPost, type ActionRun } from '../../../testkit/runner/step.js';
import { createWorld, type World } from '../../../testkit/world/world.js';
import { ONE_BUILD } from '../../../testkit/docs/workflows.js';

const RUNTIME = 'node24';
/** Far above what the step needs (well under a second), far below what the quadratic work took (minutes). */
const SAFETY_NET_MS = 45_000;

describe('a huge answer from the service', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());
  beforeEach(() => {
    world.sim.reset();
    world.sim.setSessionBehaviour({
      readinessDelayMs: 100,
      extraRemoteConfigFields: hugeRemoteConfigFields(),
    });
  });
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  const start = (onSpawn?: Parameters<typeof runAction>[0]['onSpawn']): Promise<ActionRun> =>
    runAction({
      runtime: RUNTIME,
      inputs: {
        command: 'start-device-session',
        ...world.api,
        platform: 'ios',
        type: 'appium',
        name: LONG_SESSION_NAME,
        'poll-interval-seconds': '0.05',
        // 3 s: the session is ready after 0.1 s, and handling its answer must not outlast this.
        'timeout-minutes': '0.05',
      },
      timeoutMs: SAFETY_NET_MS,
      onSpawn,
    });
  const stop = async (main: ActionRun): Promise<void> => {
    const post = await runPost(main, { runtime: RUNTIME, inputs: world.api, timeoutMs: SAFETY_NET_MS });
    expect(post.exitCode).toBe(0);
  };

  it('600 kB of connection details: the session is ready, its outputs set, within timeout-minutes', async () => {
    const main = await start();
    expect(main.signal).toBeNull();
    expect(main.exitCode).toBe(0);
    expect(main.stdout).toContain('Device session ready after');
    expect(main.outputs['remote-config'].length).toBeGreaterThan(600_000);
    // The long credential is registered, and shows nowhere but on its own add-mask line.
    const token = (JSON.parse(main.outputs['remote-config']) as { webPreviewToken: string }).webPreviewToken;
    expect(main.stdout).toContain(`::add-mask::${token}`);
    expect(main.stdout.split(`::add-mask::${token}`).join('')).not.toContain(token.slice(0, 40));
    expect(main.summary).not.toContain(token.slice(0, 40));
    await stop(main);
  });

  it('SIGINT while the step handles it: the step answers it, and is not left deaf until killed', async () => {
    let output = '';
    let sentAt = 0;
    const main = await start((child) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // The read that found the session ready: the step is handling the 600 kB answer now.
        if (!sentAt && output.includes('session: in-progress')) {
          sentAt = Date.now();
          child.kill('SIGINT');
        }
      });
    });
    expect(sentAt).toBeGreaterThan(0);
    // Never killed by the safety net. The signal lands while the step still works (it then fails,
    // saying so), or just as it ends (its own outcome stands, or the signal's default ends it).
    expect(main.signal).not.toBe('SIGKILL');
    if (main.exitCode === 1) {
      expect(main.stdout).toContain('Received SIGINT: cancelling.');
      expect(main.stdout).toMatch(/::error::The step was cancelled/);
    } else if (main.exitCode === 0) expect(main.stdout).toContain('Device session ready after');
    else expect(main.signal).toBe('SIGINT');
    // Whichever it was, the post step stops the session.
    await stop(main);
  });
});
