/**
 * The post step acts only on state its own main step wrote. The runner builds a post step's
 * environment from the job's env context first (whatever later steps appended to $GITHUB_ENV) and
 * then sets STATE_<name> for the names the main step saved, so a later step can plant
 * `STATE_session-id`, `STATE_base-url`, `STATE_stopped` or `STATE_auto-stop`, and test hooks or
 * proxy settings, in the post step's environment. Through the built bundles, as the runner runs them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderLog, runAction, runPost, runStep, runStepPost } from '../../../testkit/runner/step.js';
import { createWorld, stopLeftSessions, type World } from '../../../testkit/world/world.js';

let world: World;
let decoy: Server;
let decoyUrl: string;
const atDecoy: string[] = [];

beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 20 });
  decoy = createServer((request, response) => {
    atDecoy.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
  });
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => decoy.close(resolve));
  await world.sim.close();
});
afterEach(async () => {
  await stopLeftSessions(world);
  world.sim.reset();
  atDecoy.length = 0;
});

/** A session someone else owns, running on the service: the one a forged state would name. */
async function otherSession(): Promise<string> {
  const answer = await fetch(`${world.sim.url}/v2/device-run-sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appId: world.project.id, platform: 'android' }),
  });
  return ((await answer.json()) as { data: { id: string } }).data.id;
}

const start = (env: Record<string, string> = {}, inputs: Record<string, string> = {}) =>
  runAction({
    entry: 'start-device-session',
    inputs: { ...world.api, platform: 'ios', 'poll-interval-seconds': '0.05', ...inputs },
    env,
  });

describe.each(['start-device-session', 'root'] as const)(
  '%s: state planted in the job environment',
  (action) => {
    const main = (inputs: Record<string, string>) =>
      runStep(action, {
        inputs: { ...(action === 'root' ? { command: 'start-device-session' } : {}), ...inputs },
      });

    it('after a main step that failed on its inputs, the post step sends nothing, wherever STATE_ points', async () => {
      const victim = await otherSession();
      const failed = await main({ ...world.api, platform: 'windows' });
      expect(failed.exitCode).toBe(1);
      const post = await runStepPost(action, failed, {
        inputs: world.api,
        env: { 'STATE_session-id': victim, 'STATE_base-url': decoyUrl, 'STATE_auto-stop': 'true' },
      });
      expect(post.exitCode).toBe(0);
      expect(atDecoy).toEqual([]);
      expect(world.sim.getSession(victim)?.status).not.toBe('stopped');
      expect(renderLog(post.stdout)).toBe('');
    });
  },
);

it('STATE_stopped or STATE_auto-stop planted by a later step does not skip the stop', async () => {
  for (const planted of [{ STATE_stopped: 'true' }, { 'STATE_auto-stop': 'false' }] as Record<
    string,
    string
  >[]) {
    const main = await start();
    expect(main.exitCode).toBe(0);
    const post = await runPost(main, { inputs: world.api, env: planted });
    expect(post.exitCode).toBe(0);
    expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
    expect(renderLog(post.stdout)).toContain(`Device session ${main.outputs['session-id']} is stopped`);
  }
});

it('STATE_base-url planted by a later step does not send the token elsewhere', async () => {
  const main = await start();
  const post = await runPost(main, { inputs: world.api, env: { 'STATE_base-url': decoyUrl } });
  expect(post.exitCode).toBe(0);
  expect(atDecoy).toEqual([]);
  expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
});

it('a test hook a later step sets (SVC_REQUEST_TIMEOUT_MS, SVC_CANCEL_GRACE_MS) does not weaken the stop', async () => {
  const main = await start();
  // Every stop answer is a little slow: a 1 ms request limit would make every attempt fail.
  world.sim.injectFault({ method: 'POST', path: /\/stop$/, kind: 'delay', ms: 150, processed: false });
  const post = await runPost(main, {
    inputs: world.api,
    env: { SVC_REQUEST_TIMEOUT_MS: '1', SVC_CANCEL_GRACE_MS: '1' },
  });
  expect(post.exitCode).toBe(0);
  expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
});

it('NODE_EXTRA_CA_CERTS set by a later step: a fresh Node process without it stops the session', async () => {
  const main = await start();
  const id = main.outputs['session-id'];
  const post = await runPost(main, { inputs: world.api, env: { NODE_EXTRA_CA_CERTS: '/dev/null' } });
  expect(post.exitCode).toBe(0);
  const log = renderLog(post.stdout);
  expect(log).toMatch(
    /^`NODE_EXTRA_CA_CERTS` changed after the main step, .* a new Node process started with the main step's settings\.$/m,
  );
  expect(log).toContain(`Device session ${id} is stopped`);
  expect(world.sim.getSession(id)?.status).toBe('stopped');
  expect(world.sim.requests.filter((request) => request.path.endsWith('/stop'))).toHaveLength(1);
});
