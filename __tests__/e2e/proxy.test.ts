/**
 * The built bundle behind a forward proxy, as on a self-hosted runner behind a corporate proxy:
 * `http_proxy` / `https_proxy` in the environment, and a base URL whose host name only the proxy can
 * resolve (`svc.test`; @actions/http-client never proxies loopback hosts, so the simulator's
 * 127.0.0.1 would not do). The proxy here is a small node:http server on loopback: it answers
 * `CONNECT host:port` (what @actions/http-client's `tunnel` agent sends, for http targets too) and
 * plain absolute-URI requests, mapping svc.test to the simulator on 127.0.0.1.
 */
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { STACK_TRACE, renderLog, runAction, runPost } from '../../testkit/runner/step.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';
import { errorLines } from './security/audit.js';

const HOST = 'svc.test';

let world: World;
let proxy: Server;
let proxyUrl: string;
let simPort: number;
const connects: string[] = [];
const forwarded: string[] = [];
const sockets = new Set<Socket>();

function track(socket: Socket): Socket {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => socket.destroy());
  return socket;
}

beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': ONE_BUILD }, { allowedHosts: [HOST] });
  simPort = Number(new URL(world.sim.url).port);
  proxy = createServer((req, res) => {
    // An absolute-URI request: `GET http://svc.test:PORT/v2/... HTTP/1.1`.
    forwarded.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    if (target.hostname !== HOST) return void res.writeHead(502).end();
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('connection', track);
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    if (host !== HOST) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const upstream = track(
      connect(Number(port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      }),
    );
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
beforeEach(() => {
  world.sim.reset();
  connects.length = 0;
  forwarded.length = 0;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => proxy.close(resolve));
  await world.sim.close();
});

const runWorkflowStep = (env: Record<string, string>) =>
  runAction({
    entry: 'run-workflow',
    runtime: 'node24',
    inputs: {
      ...world.api,
      'base-url': `http://${HOST}:${simPort}`,
      workflow: 'e2e.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
    },
    env: { http_proxy: proxyUrl, https_proxy: proxyUrl, ...env },
    timeoutMs: 30_000,
  });

describe('through a forward proxy', () => {
  it('every request goes through the proxy, and the run is followed to its end', async () => {
    const run = await runWorkflowStep({});
    expect(run.exitCode).toBe(0);
    expect(run.outputs.status).toBe('success');
    const seen = world.sim.requests.filter((request) => !request.control);
    expect(apiRequests(world.sim)[0]).toBe('POST /v2/workflows/dispatch');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    // svc.test resolves nowhere but in the proxy: every request the simulator saw came through it.
    for (const request of seen) expect(request.headers.host).toBe(`${HOST}:${simPort}`);
    // The library's `tunnel` agent opens a tunnel per request (no keep-alive through a proxy).
    expect(connects.length).toBeGreaterThanOrEqual(1);
    expect(connects.length).toBeLessThanOrEqual(seen.length);
    expect(new Set(connects)).toEqual(new Set([`${HOST}:${simPort}`]));
    // Each tunnel is one connection to the simulator, and the simulator saw no other.
    expect(new Set(seen.map((request) => request.connectionId)).size).toBe(connects.length);
    expect(forwarded).toEqual([]);
    expect(renderLog(run.stdout)).toContain(
      `Warning: \`base-url\` uses plain http to ${HOST}:${simPort}: the access token travels unencrypted.`,
    );
  });

  it('no_proxy bypasses it: the host does not resolve, one clear error naming it, exit 1', async () => {
    const run = await runWorkflowStep({ no_proxy: HOST });
    expect(run.exitCode).toBe(1);
    expect(connects).toEqual([]);
    expect(apiRequests(world.sim)).toEqual([]);
    const errors = errorLines(run);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Dispatching workflow e2e\.yml failed/);
    expect(errors[0]).toContain(`could not reach ${HOST}:${simPort}`);
    expect(errors[0]).toContain(`ENOTFOUND ${HOST}`);
    expect(STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)).toBe(false);
  });
});

describe('the post step behind the proxy', () => {
  it("uses the main step's proxy, never one a later step put into the environment", async () => {
    const decoyConnects: string[] = [];
    const decoy = createServer((req, res) => {
      decoyConnects.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    decoy.on('connect', (req, client: Socket) => {
      decoyConnects.push(`CONNECT ${req.url}`);
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    const decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;
    try {
      const inputs = {
        ...world.api,
        'base-url': `http://${HOST}:${simPort}`,
        platform: 'ios',
        'poll-interval-seconds': '0.05',
      };
      const main = await runAction({
        entry: 'start-device-session',
        inputs,
        env: { http_proxy: proxyUrl, https_proxy: proxyUrl },
      });
      expect(main.exitCode).toBe(0);
      connects.length = 0;
      // A later step appended other proxy settings to $GITHUB_ENV: the job's env now carries them.
      const post = await runPost(main, {
        inputs,
        env: { http_proxy: decoyUrl, https_proxy: decoyUrl, HTTP_PROXY: decoyUrl, HTTPS_PROXY: decoyUrl },
      });
      expect(post.exitCode).toBe(0);
      expect(decoyConnects).toEqual([]);
      expect(connects).toContain(`${HOST}:${simPort}`);
      expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
    } finally {
      await new Promise((resolve) => decoy.close(resolve));
    }
  });
});
