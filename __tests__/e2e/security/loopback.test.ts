/**
 * A token sent over plain http to another host deserves a warning; loopback (the simulator, a
 * tunnel on the runner) does not. Loopback is told by the address, not by how a name starts:
 * `127.attacker.example` is a name anyone can register, and resolves wherever its owner wants.
 * Through the run-workflow bundle (`wait: false`); the warning comes before any request.
 */
import { renderLog, runAction, type ActionRun } from '../../../testkit/runner/step.js';
import { createWorld, type World } from '../../../testkit/world/world.js';
import { ONE_BUILD } from '../../../testkit/docs/workflows.js';

const WARNING = /Warning: `base-url` uses plain http to .*: the access token travels unencrypted\./;

describe('plain-http warning', () => {
  let world: World;
  let port: string;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
    port = new URL(world.sim.url).port;
  });
  afterAll(() => world.sim.close());

  const dispatch = (baseUrl: string): Promise<ActionRun> =>
    runAction({
      entry: 'run-workflow',
      runtime: 'node24',
      inputs: {
        ...world.api,
        'base-url': baseUrl,
        workflow: 'e2e.yml',
        'git-ref': 'main',
        wait: 'false',
        // Fast retries for the hosts that do not answer (nothing listens there, or no such name).
        'poll-interval-seconds': '0.05',
      },
      env: { SVC_REQUEST_TIMEOUT_MS: '2000' },
      timeoutMs: 30_000,
    });

  it('warns for a remote host whose name starts with 127., not for loopback addresses', async () => {
    const remote = [
      'http://127.attacker.example',
      'http://127.0.0.1.attacker.example',
      'http://svc.example.com',
    ];
    const loopback = [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      `http://127.0.0.2:${port}`,
      `http://[::1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
    ];
    const runs = await Promise.all([...remote, ...loopback].map((url) => dispatch(url)));
    const warned = Object.fromEntries(
      [...remote, ...loopback].map((url, i) => [url, WARNING.test(renderLog(runs[i].stdout))]),
    );
    expect(warned).toEqual(
      Object.fromEntries([...remote.map((url) => [url, true]), ...loopback.map((url) => [url, false])]),
    );
    // The simulator itself, through loopback: dispatched, as before.
    expect(runs[remote.length].exitCode).toBe(0);
  });
});
