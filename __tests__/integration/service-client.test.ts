/**
 * The service client against the simulator over loopback: envelope, errors by status with the
 * service's message, retries (and the lack of them for create/dispatch), Retry-After, deadlines,
 * the per-request timeout, the response size limit and connection reuse.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/service/client.js';
import {
  NetworkError,
  ResponseFormatError,
  RetriesExhaustedError,
  ServiceError,
} from '../../src/service/errors.js';
import { createWorld, type World } from '../helpers/world.js';

const WORKFLOW = 'on: workflow_dispatch\njobs:\n  build:\n    type: build\n';
const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

describe('ServiceClient against the simulator', () => {
  let world: World;
  let client: ServiceClient;
  const retries: string[] = [];
  beforeEach(async () => {
    world = await createWorld({ 'ci.yml': WORKFLOW });
    retries.length = 0;
    client = new ServiceClient({
      baseUrl: world.sim.url,
      token: world.token,
      retry: FAST_RETRY,
      requestTimeoutMs: 500,
      onRetry: ({ error }) => retries.push(error.message),
    });
  });
  afterEach(async () => {
    client.dispose();
    await world.sim.close();
  });

  it('dispatches, reads the run with its jobs, and reuses one connection', async () => {
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
    await client.getWorkflowRun(dispatched.id);
    expect(new Set(world.sim.requests.map((request) => request.connectionId))).toEqual(new Set([1]));
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
    await expect(client.getWorkflowRun('not-a-uuid')).rejects.toMatchObject({ status: 400 });
    await expect(client.getWorkflowRun('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(
        /^Reading workflow run 0{8}-0{4}-4000-8000-0{12} failed: Not found \(404\) \[NOT_FOUND\]: ./,
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
    const started = Date.now();
    await expect(client.getWorkflowRun(id)).resolves.toMatchObject({ id });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
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
      /^Reading workflow run .* failed 4 times in a row; giving up\. Last error: .*503/,
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
    const started = Date.now();
    await expect(client.getWorkflowRun(id, { deadline: Date.now() + 1000 })).rejects.toThrow(
      /the time allowed for it ran out/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
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
    await expect(client.getWorkflowRun(id)).resolves.toMatchObject({ id });
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

describe('ServiceClient limits', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      // 2 MiB of JSON: larger than the limit the test sets.
      response.end(
        JSON.stringify({ data: { id: 'x', status: 'new', jobs: [], padding: 'x'.repeat(2 * 1024 * 1024) } }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('refuses an answer larger than the size limit', async () => {
    const client = new ServiceClient({
      baseUrl: url,
      token: 't',
      maxResponseBytes: 1024 * 1024,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    try {
      await expect(client.getWorkflowRun('x')).rejects.toThrow(/larger than 1048576 bytes/);
    } finally {
      client.dispose();
    }
  });

  it('reports a refused connection as not processed', async () => {
    const client = new ServiceClient({
      baseUrl: 'http://127.0.0.1:1',
      token: 't',
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    try {
      const error = await client.getWorkflowRun('x').catch((e: unknown) => e);
      expect(error).toMatchObject({
        certainlyNotProcessed: true,
        message: expect.stringContaining('could not reach 127.0.0.1:1'),
      });
    } finally {
      client.dispose();
    }
  });
});
