/**
 * Variables Node reads once at start-up (src/runner/startup-env.ts), planted by a later step
 * through `$GITHUB_ENV` before the post step starts: a proxy of its own (`NODE_USE_ENV_PROXY` with
 * `HTTP(S)_PROXY`), its own certificate authorities, its own OpenSSL configuration. The post step
 * sends neither the service's token nor the github-token with settings its main step did not use: it
 * does its work again in a fresh Node process started with the main step's settings, which stops the
 * session and updates the comment; the decoy proxy sees nothing. Only where no fresh process can be
 * made (here: a later step that sets the fresh process's marker as well) does it refuse, naming the
 * variable and the session. And every GitHub request has an agent of its own: Node's global
 * dispatcher, bound at start-up to a proxy a later step chose, carries none of them. Through the
 * built bundles on Node 24.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderLog, runAction, runPost } from '../../../testkit/runner/step.js';
import { createWorld, stopLeftSessions, type World } from '../../../testkit/world/world.js';
import { GitHubStandIn } from '../../../simulator/index.js';

const GITHUB_TOKEN = 'ghs_FakeGitHubToken0123456789abcdef';

let world: World;
let github: GitHubStandIn;
let decoy: Server;
let decoyUrl: string;
let dir: string;
const atDecoy: string[] = [];

beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 20 });
  github = new GitHubStandIn();
  await github.start();
  // A later step's proxy: it records whatever reaches it and forwards nothing.
  decoy = createServer((request, response) => {
    atDecoy.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(502).end();
  });
  decoy.on('connect', (request, socket: Socket) => {
    atDecoy.push(`CONNECT ${request.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'post-startup-env-'));
  writeFileSync(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: 42 } }));
  writeFileSync(join(dir, 'openssl.cnf'), "# a later step's OpenSSL configuration\n");
  writeFileSync(join(dir, 'ca.pem'), '');
});
afterAll(async () => {
  await new Promise((resolve) => decoy.close(resolve));
  await github.close();
  await world.sim.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await stopLeftSessions(world);
  world.sim.reset();
  atDecoy.length = 0;
  github.requests.length = 0;
  github.comments.length = 0;
});

const inputs = () => ({
  ...world.api,
  platform: 'ios',
  'poll-interval-seconds': '0.05',
  comment: 'true',
  'github-token': GITHUB_TOKEN,
});
const pullRequest = () => ({
  GITHUB_API_URL: github.url,
  GITHUB_REPOSITORY: 'acme/app',
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_EVENT_PATH: join(dir, 'event.json'),
});
const proxies = () => ({
  HTTP_PROXY: decoyUrl,
  HTTPS_PROXY: decoyUrl,
  http_proxy: decoyUrl,
  https_proxy: decoyUrl,
});

const PLANTED: Array<[string, () => Record<string, string>]> = [
  ['NODE_USE_ENV_PROXY', () => ({ NODE_USE_ENV_PROXY: '1', ...proxies() })],
  ['NODE_USE_SYSTEM_CA', () => ({ NODE_USE_SYSTEM_CA: '1' })],
  ['NODE_EXTRA_CA_CERTS', () => ({ NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') })],
  ['SSL_CERT_FILE', () => ({ SSL_CERT_FILE: join(dir, 'ca.pem') })],
  ['SSL_CERT_DIR', () => ({ SSL_CERT_DIR: dir })],
  ['OPENSSL_CONF', () => ({ OPENSSL_CONF: join(dir, 'openssl.cnf') })],
  ['NODE_OPTIONS', () => ({ NODE_OPTIONS: '--use-env-proxy', ...proxies() })],
];

describe.each(PLANTED)('%s set by a later step', (name, planted) => {
  it("the session is stopped and the comment updated by a fresh Node process with the main step's settings; nothing reaches the decoy", async () => {
    const main = await runAction({ entry: 'start-device-session', inputs: inputs(), env: pullRequest() });
    expect(main.exitCode).toBe(0);
    expect(github.comments).toHaveLength(1);
    const id = main.outputs['session-id'];

    const post = await runPost(main, { inputs: inputs(), env: { ...pullRequest(), ...planted() } });
    const log = renderLog(post.stdout);
    expect(log).toContain(
      `\`${name}\` changed after the main step, and nothing is sent with settings the main step did not use: the post step goes on in a new Node process started with the main step's settings.`,
    );
    expect(post.exitCode).toBe(0);
    expect(log).toContain(`Device session ${id} is stopped`);
    expect(world.sim.getSession(id)?.status).toBe('stopped');
    expect(github.requests.at(-1)).toMatchObject({ method: 'PATCH', authorization: `token ${GITHUB_TOKEN}` });
    expect(github.comments[0].body).toContain('the post step stopped it');
    expect(atDecoy).toEqual([]);
  });

  it("with the fresh process's marker planted as well, no process is started again: no token is sent, to the service or to GitHub, and the error names the variable and the session", async () => {
    const main = await runAction({ entry: 'start-device-session', inputs: inputs(), env: pullRequest() });
    expect(main.exitCode).toBe(0);
    const seenByGitHub = github.requests.length;
    const id = main.outputs['session-id'];

    const post = await runPost(main, {
      inputs: inputs(),
      env: { ...pullRequest(), ...planted(), SVC_POST_STEP_FRESH_PROCESS: '1' },
    });
    expect(post.exitCode).toBe(1);
    const log = renderLog(post.stdout);
    expect(log).not.toContain('new Node process');
    expect(log).toMatch(new RegExp(`^Error: \`${name}\` changed after the main step.*${id}`, 'm'));
    expect(log).toContain(
      `Warning: \`${name}\` changed after the main step, and the github-token is never sent with settings the main step did not use: the pull request comment was not updated.`,
    );
    expect(github.requests.slice(seenByGitHub)).toEqual([]);
    expect(world.sim.requests.filter((request) => request.path.endsWith('/stop'))).toEqual([]);
    expect(atDecoy).toEqual([]);
  });
});

it("NODE_USE_ENV_PROXY in the whole job and a later step's proxy: the comment is updated without it", async () => {
  // Node binds its global dispatcher to the later step's proxy at start-up; the post step puts the
  // main step's proxy settings (none) back, and GitHub's requests use an agent of their own.
  const job = { ...pullRequest(), NODE_USE_ENV_PROXY: '1' };
  const main = await runAction({ entry: 'start-device-session', inputs: inputs(), env: job });
  expect(main.exitCode).toBe(0);
  const post = await runPost(main, { inputs: inputs(), env: { ...job, ...proxies() } });
  expect(post.exitCode).toBe(0);
  expect(atDecoy).toEqual([]);
  expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
  expect(github.requests.at(-1)).toMatchObject({
    method: 'PATCH',
    authorization: `token ${GITHUB_TOKEN}`,
  });
  expect(github.comments[0].body).toContain('the post step stopped it');
});

it('a cancellation while the fresh Node process starts is passed on to it once it listens: the session is stopped all the same', async () => {
  const main = await runAction({ entry: 'start-device-session', inputs: inputs(), env: pullRequest() });
  expect(main.exitCode).toBe(0);
  const id = main.outputs['session-id'];
  // The stop is answered 3 s late, so the fresh process is still stopping when the signal comes,
  // however loaded the machine (the stop itself is made at once).
  world.sim.injectFault({ method: 'POST', path: /\/stop$/, kind: 'delay', ms: 3_000, processed: true });
  const post = await runPost(main, {
    inputs: inputs(),
    env: { ...pullRequest(), OPENSSL_CONF: join(dir, 'openssl.cnf') },
    // The runner's SIGINT, as soon as the post step says it starts the fresh process.
    onSpawn: (child) =>
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('a new Node process')) child.kill('SIGINT');
      }),
  });
  const log = renderLog(post.stdout);
  expect(log).toContain(
    `Received SIGINT: still stopping device session ${id} before the runner ends the step.`,
  );
  expect(log).toContain(`Error: The post step was cancelled; device session ${id} was stopped all the same.`);
  expect(post.exitCode).toBe(1);
  expect(world.sim.getSession(id)?.status).toBe('stopped');
  expect(atDecoy).toEqual([]);
});

describe('the fresh Node process ended before its code ran (issue 41 item 6)', () => {
  it.each([
    ['a --require of the main step that now exits with 101', 'process.exit(101);\n', 'exit code 101'],
    ['a start-up setting Node refuses (a --require of a file since removed)', undefined, 'exit code 1'],
  ])(
    '%s: an error says the session is still running, with its id, its page and how to stop it',
    async (_what, hookNow, how) => {
      const hook = join(dir, `hook-${how.replace(/\W/g, '')}.cjs`);
      writeFileSync(hook, '// harmless while the main step runs\n');
      const startup = { NODE_OPTIONS: `--require ${hook}` };
      const main = await runAction({
        entry: 'start-device-session',
        inputs: { ...inputs(), comment: 'false' },
        env: startup,
      });
      expect(main.exitCode).toBe(0);
      const id = main.outputs['session-id'];
      const page = main.outputs['session-url'];
      if (hookNow === undefined) rmSync(hook);
      else writeFileSync(hook, hookNow);

      // A later step's environment without the main step's NODE_OPTIONS: the fresh process gets them back.
      const post = await runPost(main, { inputs: { ...inputs(), comment: 'false' }, env: {} });
      expect(post.exitCode).toBe(1);
      expect(post.errors).toEqual([
        `The post step's new Node process ended before its code ran (${how}): Node may refuse a start-up setting of the main step's (\`NODE_OPTIONS\` changed after it). Device session ${id} is still running (${page}). Stop it with the stop-device-session command and \`session-id: ${id}\`, or from its page.`,
      ]);
      expect(world.sim.getSession(id)?.status).not.toBe('stopped');
    },
  );
});
