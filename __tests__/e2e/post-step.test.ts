/**
 * The post step under fire, through the built bundles as the runner runs them: a paid device left
 * running is never silent. A signal during the stop still gets the stop tried and, if it cannot be
 * confirmed, an error naming the session and its URL; a create whose answer was lost leaves a
 * warning that a session may exist; the post step talks only to the service the main step used.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderLog, runAction, runPost, type ActionRun } from '../../testkit/runner/step.js';
import { createWorld, until, stopLeftSessions, type World } from '../../testkit/world/world.js';
import { lastSavedSession, savedSessions } from '../../testkit/world/session-state.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 50 });
});
afterAll(async () => {
  await world.sim.close();
});
afterEach(async () => {
  // Whatever a test left running (on purpose) is stopped here, then checked.
  world.sim.clearFaults();
  await stopLeftSessions(world);
  expect(world.sim.activeSessions()).toEqual([]);
  world.sim.reset();
});

// The post step's grace after a signal is the main step's (a later step cannot change it).
const start = (extra: Record<string, string> = {}, env: Record<string, string> = {}): Promise<ActionRun> =>
  runAction({
    entry: 'start-device-session',
    inputs: { ...world.api, platform: 'ios', 'poll-interval-seconds': '0.05', ...extra },
    env,
  });

test.each(['SIGINT', 'SIGTERM'] as const)(
  'a %s while the post step stops the session: the stop is still tried, then an error names the session and its URL',
  async (signal) => {
    const main = await start({}, { SVC_CANCEL_GRACE_MS: '800' });
    expect(main.exitCode).toBe(0);
    const id = main.outputs['session-id'];
    const url = main.outputs['session-url'];
    // Every stop answer is held back far longer than the grace the post step has.
    world.sim.injectFault({
      method: 'POST',
      path: /\/stop$/,
      kind: 'delay',
      ms: 20_000,
      processed: false,
      times: 20,
    });
    const post = runPost(main, {
      inputs: world.api,
      onSpawn: (child) => {
        void until(() => world.sim.requests.some((request) => request.path.endsWith('/stop'))).then(() =>
          child.kill(signal),
        );
      },
    });
    const result = await post;
    const log = renderLog(result.stdout);
    expect(result.exitCode).toBe(1);
    // The grace ended the stop it was waiting for: one stop was sent, and not repeated (each held
    // 20 s: a step that outlived its grace would repeat it, or outlast the test's limit).
    expect(world.sim.requests.filter((request) => request.path.endsWith('/stop'))).toHaveLength(1);
    const errors = log.split('\n').filter((line) => line.startsWith('Error:'));
    expect(errors).toHaveLength(1);
    // The session once, its page once: each fact once.
    expect(errors[0]).toContain(url);
    expect(errors[0].replace(url, '<url>').split(id)).toHaveLength(2);
    expect(errors[0]).toContain('could not be confirmed stopped');
    expect(log).toContain(`Received ${signal}: still stopping device session ${id}`);
  },
);

test('a signal during a stop that does get confirmed: the session is stopped, and the cancelled post step exits 1', async () => {
  const main = await start({}, { SVC_CANCEL_GRACE_MS: '5000' });
  world.sim.injectFault({ method: 'POST', path: /\/stop$/, kind: 'delay', ms: 300, processed: true });
  const result = await runPost(main, {
    inputs: world.api,
    onSpawn: (child) => {
      void until(() => world.sim.requests.some((request) => request.path.endsWith('/stop'))).then(() =>
        child.kill('SIGINT'),
      );
    },
  });
  expect(result.exitCode).toBe(1);
  expect(renderLog(result.stdout)).toContain('is stopped');
  expect(world.sim.getSession(main.outputs['session-id'] ?? lastSavedSession(main)?.id ?? '')?.status).toBe(
    'stopped',
  );
});

test('the read before the stop never holds the stop up: a read that gets no answer is given up, and the session stopped', async () => {
  const main = await start();
  expect(main.exitCode).toBe(0);
  const id = main.outputs['session-id'];
  // The read is answered only after far longer than the step is given here (and than a request's timeout).
  world.sim.injectFault({
    method: 'GET',
    path: `/v2/device-run-sessions/${id}`,
    kind: 'delay',
    ms: 120_000,
    processed: false,
  });
  const post = await runPost(main, { inputs: world.api, timeoutMs: 20_000 });
  expect(post.signal).toBeNull();
  expect(post.exitCode).toBe(0);
  expect(world.sim.getSession(id)?.status).toBe('stopped');
  expect(renderLog(post.stdout)).toContain(`Device session ${id} is stopped at `);
});

test('a create whose answer is lost: state says a create was in flight, and the post step warns that a session may exist', async () => {
  // The service creates the session, then the connection drops before the answer.
  world.sim.injectFault({ method: 'POST', path: '/v2/device-run-sessions', kind: 'reset', processed: true });
  const main = await start();
  expect(main.exitCode).toBe(1);
  expect(main.state['create-in-flight']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(savedSessions(main)).toEqual([]);
  expect(world.sim.activeSessions()).toHaveLength(1);
  const post = await runPost(main, { inputs: world.api });
  const log = renderLog(post.stdout);
  expect(log).toMatch(/^Warning: A device session may be running/m);
  expect(log).toContain(world.project.id);
});

test('a create answered 429 is not repeated, and the post step warns that a session may exist', async () => {
  // The spec does not say a rate-limited request was not processed: here it was.
  world.sim.injectFault({
    method: 'POST',
    path: '/v2/device-run-sessions',
    kind: 'status',
    status: 429,
    processed: true,
  });
  const main = await start();
  expect(main.exitCode).toBe(1);
  expect(renderLog(main.stdout)).toContain('it was not repeated, so that nothing is created twice');
  expect(world.sim.requests.filter((request) => request.method === 'POST' && !request.control)).toHaveLength(
    1,
  );
  const post = await runPost(main, { inputs: world.api });
  expect(renderLog(post.stdout)).toMatch(/^Warning: A device session may be running/m);
});

test('the post step stops the session on the service the main step used, whatever a later step put in SVC_BASE_URL', async () => {
  const elsewhere: string[] = [];
  const decoy: Server = createServer((request, response) => {
    elsewhere.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.end('{}');
  });
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  try {
    const main = await start();
    const decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
    const post = await runPost(main, { inputs: { token: world.token }, env: { SVC_BASE_URL: decoyUrl } });
    expect(post.exitCode).toBe(0);
    expect(elsewhere).toEqual([]);
    expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
  } finally {
    await new Promise((resolve) => decoy.close(resolve));
  }
});

test('a step that started no session has a silent post step', async () => {
  const post = await runAction({ entry: 'post', inputs: world.api });
  expect(post.exitCode).toBe(0);
  expect(renderLog(post.stdout)).toBe('');
});
