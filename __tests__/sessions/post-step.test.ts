/**
 * The post step under fire, run from the sources in this process: a paid device left running is
 * never silent. A create whose answer was lost leaves a warning that a session may exist; the post
 * step talks only to the service the main step used. A signal during the stop (the runner's signal,
 * the post step's grace) and a read before the stop that gets no answer (the post step gives it up
 * after 5 s, a constant of src/) are the end-to-end tier's (__tests__/e2e/sessions-bundles.test.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IN_PROCESS, renderLog, runAction, runPost } from '../../testkit/runner/in-process.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { sessionStarter, STOP_LEFT_CHECKED } from '../../testkit/world/session-fixtures.js';
import { savedSessions } from '../../testkit/world/session-state.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 50 });
});
// Whatever a test left running (on purpose) is stopped here, then checked.
sharedWorldHooks(() => world, STOP_LEFT_CHECKED);

const start = sessionStarter(IN_PROCESS, () => world);

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
