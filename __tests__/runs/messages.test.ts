/**
 * Messages that say exactly what happened, each step run in process from the sources: an id with a
 * typo is shown with what is wrong with it (it is no credential), and a token that was sent but did
 * not arrive is not reported as a token that was never given. The typo in wait-for-run's `run-id`
 * runs through the bundle in __tests__/e2e/runs-bundles.test.ts.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderLog, runAction } from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': ONE_BUILD });
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

const ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('an id with a typo is shown, with what is wrong', () => {
  // wait-for-run's `run-id` 35 characters long: __tests__/e2e/runs-bundles.test.ts.
  it.each([
    [
      'stop-device-session',
      'session-id',
      `${ID.slice(0, 9)}x${ID.slice(10)}`,
      '`x` at position 10 is not a hexadecimal digit',
    ],
    ['run-workflow', 'app-id', `${ID}0`, '37 characters instead of 36 (groups of 8-4-4-4-13 digits)'],
    ['start-device-session', 'build-id', ID.replace('-4e5f', '4e5f-'), 'groups of 8-8-0-4-12 digits'],
  ])('%s: `%s` one character off', async (entry, input, value, problem) => {
    const inputs: Record<string, string> = {
      ...world.api,
      workflow: 'e2e.yml',
      'git-ref': 'main',
      platform: 'ios',
      'run-id': ID,
      'session-id': ID,
      [input]: value,
    };
    const result = await runAction({ entry, inputs });
    expect(result.exitCode).toBe(1);
    const log = renderLog(result.stdout);
    expect(log).toContain(
      `\`${input}\` must be a UUID (8-4-4-4-12 hexadecimal digits); got \`${value}\` (${problem}).`,
    );
    expect(log).not.toContain('looks like a credential');
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

test('a token that was sent but stripped on the way: the error says the header did not reach the service', async () => {
  const simPort = Number(new URL(world.sim.url).port);
  // A gateway in front of the service that drops the Authorization header.
  const gateway: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: `127.0.0.1:${simPort}` };
    delete headers.authorization;
    const upstream = request(
      { host: '127.0.0.1', port: simPort, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  try {
    const result = await runAction({
      entry: 'wait-for-run',
      inputs: {
        ...world.api,
        'base-url': `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
        'run-id': ID,
      },
    });
    expect(result.exitCode).toBe(1);
    const log = renderLog(result.stdout);
    expect(log).toContain('400 UNAUTHORIZED_ERROR');
    expect(log).toContain('The `Authorization` header was sent but did not reach the service');
    expect(log).not.toContain('Set the `token` input');
  } finally {
    await new Promise((resolve) => gateway.close(resolve));
  }
});

test('an unused github-token never fails a step: the unevaluated `${{ github.token }}` of a local run', async () => {
  const result = await runAction({
    entry: 'run-workflow',
    inputs: {
      ...world.api,
      workflow: 'e2e.yml',
      'git-ref': 'main',
      wait: 'false',
      comment: 'false',
      'github-token': '${{ github.token }}',
    },
  });
  expect(result.exitCode).toBe(0);
  expect(renderLog(result.stdout)).not.toMatch(/github-token/);
});
