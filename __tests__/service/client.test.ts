/**
 * The service client against the simulator over loopback, and against small servers that misbehave
 * in ways the simulator does not: envelope, errors by status with the service's message, retries
 * (and the lack of them for create/dispatch), Retry-After, deadlines, the per-attempt time limit
 * (slow headers or a slow body), the 16 MiB answer cap, abort on cancellation, one keep-alive
 * connection, a byte-order mark, JSON nested too deep, IPv6 literals and the /v2 base-URL hint.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ActionFailure } from '../../src/errors.js';
import { ServiceClient } from '../../src/service/client.js';
import {
  NetworkError,
  ResponseFormatError,
  RetriesExhaustedError,
  ServiceError,
} from '../../src/service/errors.js';
import { createWorld, until, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

describe('ServiceClient against the simulator', () => {
  let world: World;
  let client: ServiceClient;
  const retries: string[] = [];
  const delays: number[] = [];
  beforeAll(async () => {
    world = await createWorld({ 'ci.yml': ONE_BUILD });
  });
  afterAll(async () => {
    await world.sim.close();
  });
  beforeEach(() => {
    world.sim.reset();
    retries.length = 0;
    delays.length = 0;
    client = new ServiceClient({
      baseUrl: world.sim.url,
      token: world.token,
      retry: FAST_RETRY,
      // Long enough for any answer of an unfaulted simulator on a busy machine; the stall case below
      // makes its own client with a short one.
      requestTimeoutMs: 10_000,
      onRetry: ({ reason, delayMs }) => (retries.push(reason), delays.push(delayMs)),
    });
  });
  afterEach(() => client.dispose());

  it('dispatches, reads the run with its jobs, and keeps one connection for every request', async () => {
    const dispatched = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    expect(dispatched.url).toContain(dispatched.id);
    const run = await client.getWorkflowRun(dispatched.id);
    expect(run).toMatchObject({
      id: dispatched.id,
      gitCommitHash: world.repo.headSha,
      requestedGitRef: 'refs/heads/main',
    });
    expect(run.jobs.map((job) => job.key)).toEqual(['build']);
    const session = await client.createDeviceSession({ appId: world.project.id, platform: 'ios' });
    await client.getDeviceSession(session.id);
    await client.stopDeviceSession(session.id);
    await client.getWorkflowRun(dispatched.id);
    expect(world.sim.requests).toHaveLength(6);
    expect(new Set(world.sim.requests.map((request) => request.connectionId)).size).toBe(1);
  });

  it('maps statuses to errors with the service message', async () => {
    const noToken = new ServiceClient({ baseUrl: world.sim.url, token: '' });
    const badToken = new ServiceClient({ baseUrl: world.sim.url, token: 'nope' });
    try {
      await expect(noToken.getWorkflowRun(world.project.id)).rejects.toMatchObject({
        status: 400,
        code: 'UNAUTHORIZED_ERROR',
      });
      await expect(badToken.getWorkflowRun(world.project.id)).rejects.toMatchObject({
        status: 401,
        message: expect.stringContaining('The access token was rejected (401 Unauthorized)'),
      });
    } finally {
      noToken.dispose();
      badToken.dispose();
    }
    // An id that is not a UUID never reaches a path.
    const requestsBefore = world.sim.requests.length;
    const refused = await client.getWorkflowRun('../sessions').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ActionFailure);
    expect((refused as Error).message).toContain('was refused before any request');
    expect(world.sim.requests).toHaveLength(requestsBefore);
    await expect(client.getWorkflowRun('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(
        /^Reading workflow run 0{8}-0{4}-4000-8000-0{12} failed: Not found \(404\): there is no workflow run with that id \[NOT_FOUND\]: ./,
      ),
    });
    const error = await client
      .dispatchWorkflow({ appId: world.project.id, gitRef: 'main', fileName: 'ci.yml', inputs: { nope: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).serviceMessage).toContain('nope');
    expect(retries).toEqual([]);
  });

  it('retries reads on 5xx and honours Retry-After on 429', async () => {
    const { id } = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    world.sim.injectFault({
      method: 'GET',
      kind: 'status',
      status: 502,
      body: '<html>Bad gateway</html>',
      headers: { 'content-type': 'text/html' },
      times: 1,
    });
    world.sim.injectFault({
      method: 'GET',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '0.2' },
      times: 1,
    });
    await expect(client.getWorkflowRun(id)).resolves.toMatchObject({ id });
    expect(delays[1]).toBe(200);
    expect(retries).toEqual([
      expect.stringContaining('The service failed (502): non-JSON answer (text/html'),
      expect.stringContaining('Rate limited by the service (429 Too Many Requests)'),
    ]);
  });

  it('gives up after the bounded number of attempts with a clear message', async () => {
    const { id } = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    world.sim.injectFault({ method: 'GET', kind: 'status', status: 503, times: 10 });
    const error = await client.getWorkflowRun(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as Error).message).toMatch(
      /^Reading workflow run .* failed 4 times in a row; .*last error: .*503/i,
    );
  });

  it('does not wait for a retry past the deadline', async () => {
    const { id } = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    world.sim.injectFault({
      method: 'GET',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '30' },
      times: 1,
    });
    // The message is the decision: the 30 s wait was weighed against the deadline and not begun
    // (had it been, the test would outlast Jest's time limit). No wall-clock bound: load slows a step.
    await expect(client.getWorkflowRun(id, { deadline: Date.now() + 1000 })).rejects.toThrow(
      /the time allowed (for it )?ran out/,
    );
    expect(world.sim.requests.filter((request) => request.method === 'GET')).toHaveLength(1);
  });

  it('never repeats a dispatch whose answer was lost, and says so', async () => {
    world.sim.injectFault({ method: 'POST', kind: 'partial', processed: true, times: 1 });
    const error = await client
      .dispatchWorkflow({ appId: world.project.id, gitRef: 'main', fileName: 'ci.yml' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('it was not repeated');
    expect(world.sim.runs()).toHaveLength(1);
    expect(world.sim.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('times out a stalled answer and retries the read', async () => {
    const { id } = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    world.sim.injectFault({ method: 'GET', kind: 'delay', ms: 2000, processed: true, times: 1 });
    const impatient = new ServiceClient({
      baseUrl: world.sim.url,
      token: world.token,
      retry: FAST_RETRY,
      requestTimeoutMs: 500,
      onRetry: ({ reason, delayMs }) => (retries.push(reason), delays.push(delayMs)),
    });
    await expect(impatient.getWorkflowRun(id))
      .resolves.toMatchObject({ id })
      .finally(() => impatient.dispose());
    expect(retries).toEqual([expect.stringContaining('no complete answer within 0.5 s')]);
  });

  it('rejects a 2xx answer that is not the spec shape', async () => {
    const { id } = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    world.sim.injectFault({
      method: 'GET',
      kind: 'mutate',
      mutate: () => ({ data: { id, jobs: [] } }),
      times: 10,
    });
    const error = await client.getWorkflowRun(id).catch((e: unknown) => e);
    expect((error as RetriesExhaustedError).lastError).toBeInstanceOf(ResponseFormatError);
    expect((error as Error).message).toContain('unexpected answer from the service (status:');
  });

  it('creates, reads and stops a device session; stop is idempotent', async () => {
    const created = await client.createDeviceSession({
      appId: world.project.id,
      platform: 'android',
      type: 'appium',
    });
    expect(created).toMatchObject({ status: 'new', remoteConfig: null, platform: 'android' });
    const stopped = await client.stopDeviceSession(created.id);
    expect(stopped).toMatchObject({ status: 'stopped', remoteConfig: null, finishedAt: expect.any(String) });
    await expect(client.stopDeviceSession(created.id)).resolves.toMatchObject({
      status: 'stopped',
      finishedAt: stopped.finishedAt,
    });
  });
});

describe('answers the service might send', () => {
  let world: World;
  let client: ServiceClient;
  beforeEach(async () => {
    world = await createWorld({}, { readinessDelayMs: 10 });
    client = new ServiceClient({ baseUrl: world.sim.url, token: world.token, retry: ONE_ATTEMPT });
  });
  afterEach(async () => {
    client.dispose();
    await world.sim.close();
  });

  it('reads JSON that starts with a UTF-8 byte-order mark', async () => {
    const created = await client.createDeviceSession({ appId: world.project.id, platform: 'ios' });
    world.sim.injectFault({
      method: 'GET',
      kind: 'mutate',
      mutate: (json) => `\uFEFF${JSON.stringify(json)}`,
    });
    await expect(client.getDeviceSession(created.id)).resolves.toMatchObject({ id: created.id });
    expect(world.sim.requests.at(-1)?.fault).toBe('mutate');
  });

  it('refuses JSON nested 10,000 deep with a clear error that keeps the session id', async () => {
    // Built as text: JSON.stringify itself cannot write nesting this deep.
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    world.sim.injectFault({
      method: 'POST',
      kind: 'mutate',
      mutate: (json) => `${JSON.stringify(json).slice(0, -2)},"extra":${deep}}}`,
    });
    const error = await client
      .createDeviceSession({ appId: world.project.id, platform: 'ios' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseFormatError);
    const [session] = world.sim.sessions();
    expect((error as ResponseFormatError).resourceId).toBe(session.id);
    expect((error as Error).message).toMatch(
      /^Creating the device session failed: the service's answer is nested more than 64 levels deep\. The service may have processed the request anyway; it was not repeated/,
    );
    expect((error as Error).message).not.toContain('call stack');
  });
});

/** A bare HTTP server whose answers a test chooses, with its sockets tracked. */
async function bareServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<{ url: string; sockets: Set<Socket>; closed: Socket[]; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const closed: Socket[] = [];
  const server: Server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => (sockets.delete(socket), closed.push(socket)));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    sockets,
    closed,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const IPV6 = await hasIPv6Loopback();
const RUN_ID = '6a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const ONE_ATTEMPT = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 };

describe('limits of one attempt', () => {
  const timers = new Set<NodeJS.Timeout>();
  afterEach(() => {
    for (const timer of timers) clearInterval(timer);
    timers.clear();
  });

  it('refuses an answer larger than 16 MiB (the default cap)', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const server = await bareServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":');
      let sent = 0;
      const send = (): void => {
        while (sent < 17) {
          sent += 1;
          if (!response.write(chunk)) return void response.once('drain', send);
        }
        response.end('null}');
      };
      response.on('error', () => undefined);
      send();
    });
    const client = new ServiceClient({ baseUrl: server.url, token: 't', retry: ONE_ATTEMPT });
    try {
      await expect(client.getWorkflowRun(RUN_ID)).rejects.toThrow(
        `Reading workflow run ${RUN_ID} failed: the service's answer is larger than 16777216 bytes`,
      );
    } finally {
      client.dispose();
      await server.close();
    }
  });

  it('the per-attempt time limit covers a body that trickles after the headers', async () => {
    const server = await bareServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // A byte every 20 ms: the socket is never idle, so only a limit on the whole attempt ends it.
      const timer = setInterval(() => response.write(' '), 20);
      timers.add(timer);
      response.on('close', () => clearInterval(timer));
    });
    const client = new ServiceClient({
      baseUrl: server.url,
      token: 't',
      retry: ONE_ATTEMPT,
      requestTimeoutMs: 300,
    });
    try {
      // The server trickles for ever: only the per-attempt limit ends this, and the message names it.
      await expect(client.getWorkflowRun(RUN_ID)).rejects.toThrow(
        `Reading workflow run ${RUN_ID} failed: no complete answer within 0.3 s`,
      );
    } finally {
      client.dispose();
      await server.close();
    }
  });

  it('an abort destroys the request in flight (the server sees its socket close)', async () => {
    let received = false;
    const server = await bareServer(() => {
      received = true; // and never answers
    });
    const client = new ServiceClient({ baseUrl: server.url, token: 't', retry: ONE_ATTEMPT });
    const controller = new AbortController();
    try {
      const reading = client.getWorkflowRun(RUN_ID, { signal: controller.signal }).catch((e: unknown) => e);
      await until(() => received);
      expect(server.closed).toHaveLength(0);
      controller.abort();
      const error = await reading;
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toBe(
        `Reading workflow run ${RUN_ID} was interrupted: the step was cancelled`,
      );
      await until(() => server.closed.length === 1);
    } finally {
      client.dispose();
      await server.close();
    }
  });

  it('reports a refused connection as not processed', async () => {
    const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:1', token: 't', retry: ONE_ATTEMPT });
    try {
      const error = await client.getWorkflowRun(RUN_ID).catch((e: unknown) => e);
      expect(error).toMatchObject({
        certainlyNotProcessed: true,
        message: expect.stringContaining('could not reach 127.0.0.1:1'),
      });
    } finally {
      client.dispose();
    }
  });
});

describe('base URLs', () => {
  it('a 404 under a base URL that ends in /v2 says to drop it', async () => {
    const world = await createWorld({}, { readinessDelayMs: 10 });
    const client = new ServiceClient({
      baseUrl: `${world.sim.url}/v2`,
      token: world.token,
      retry: ONE_ATTEMPT,
    });
    try {
      const error = await client.getWorkflowRun(RUN_ID).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 404 });
      expect((error as Error).message).toMatch(
        /The base URL \/v2 ends in an API version: give the service's base URL without it \(the action adds \/v2 itself\)\.$/,
      );
      expect(world.sim.requests.map((request) => request.path)).toEqual([`/v2/v2/workflows/runs/${RUN_ID}`]);
    } finally {
      client.dispose();
      await world.sim.close();
    }
  });

  if (!IPV6) console.warn('No IPv6 loopback (::1) on this machine: the IPv6 base URL test is skipped.');
  (IPV6 ? it : it.skip)('an IPv6 literal base URL (http://[::1]:PORT) works', async () => {
    const { sim, project, token } = await createWorld({}, { host: '::1', readinessDelayMs: 10 });
    const client = new ServiceClient({ baseUrl: sim.url, token });
    try {
      expect(sim.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const created = await client.createDeviceSession({ appId: project.id, platform: 'android' });
      await expect(client.stopDeviceSession(created.id)).resolves.toMatchObject({ status: 'stopped' });
      expect(sim.requests.map((request) => request.headers.host)).toEqual([
        sim.url.slice('http://'.length),
        sim.url.slice('http://'.length),
      ]);
    } finally {
      client.dispose();
      await sim.close();
    }
  });
});

async function hasIPv6Loopback(): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
}
