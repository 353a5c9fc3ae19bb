/**
 * The simulator's own refusals reach a user of the action as the simulator's (issue 33, item 5): a
 * base URL whose host name the simulator does not answer to fails the step with the simulator's words
 * and how to allow the name, not with the action's reading of a 403 (a token lacking a permission).
 */
import { renderLog, runStep } from '../../testkit/runner/step.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': ONE_BUILD });
});
afterAll(() => world.sim.close());

it('a host name the simulator does not answer to: the log names the simulator and --allowed-hosts, not a permission', async () => {
  const port = new URL(world.sim.url).port;
  // The loopback address written as IPv4-mapped IPv6: it reaches the simulator under a name it refuses.
  const result = await runStep('wait-for-run', {
    inputs: {
      token: world.token,
      'base-url': `http://[::ffff:127.0.0.1]:${port}`,
      'run-id': '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      'poll-interval-seconds': '0.05',
    },
  });
  expect(result.exitCode).toBe(1);
  const log = renderLog(result.stdout);
  expect(log).toContain(
    '(421) [SIMULATOR_HOST_NOT_ALLOWED]: The svc simulator (not the service) refused this request',
  );
  expect(log).toContain('--allowed-hosts ::ffff:7f00:1');
  expect(log).not.toMatch(/Permission denied|403|role that allows/);
  // Refused before any route: nothing was read.
  expect(world.sim.requests.map((request) => [request.status, request.processed])).toEqual([[421, false]]);
});
