import { connect } from 'node:net';
import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { RecordedRequest } from '../../simulator/index.js';
import { call, sleep, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';

let w: World;
let agent: Agent | undefined;

afterEach(async () => {
  agent?.destroy();
  agent = undefined;
  await w?.sim.close();
});

const createSession = () =>
  call(w.sim, 'POST', '/v2/device-run-sessions', {
    token: w.token,
    body: { appId: w.project.id, platform: 'ios' },
  });
const last = (): RecordedRequest => w.sim.requests[w.sim.requests.length - 1];

/** Raw HTTP exchange on a socket, returning every byte received until the server closes it. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('fault injection', () => {
  it('status fault (not processed): 503 with an error body, nothing created, recorded', async () => {
    w = await createWorld();
    w.sim.injectFault({ method: 'POST', path: '/v2/device-run-sessions', kind: 'status', status: 503 });
    const reply = await createSession();
    expect(reply.status).toBe(503);
    expect(reply.json.errors[0].code).toBe('SIMULATED_FAULT');
    expect(w.sim.sessions()).toHaveLength(0);
    expect(last()).toMatchObject({ method: 'POST', status: 503, fault: 'status', processed: false });
    expect((await createSession()).status).toBe(200); // times defaults to 1
    expect(last().fault).toBeUndefined();
  });

  it('status fault (processed): 429 with Retry-After although the session was created', async () => {
    w = await createWorld();
    w.sim.injectFault({
      path: '/v2/device-run-sessions',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '2' },
      processed: true,
    });
    const reply = await createSession();
    expect(reply.status).toBe(429);
    expect(reply.headers['retry-after']).toBe('2');
    expect(w.sim.sessions()).toHaveLength(1);
    expect(last().processed).toBe(true);
  });

  it('status fault with an HTML page body, applied `times` times', async () => {
    w = await createWorld();
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    w.sim.injectFault({ path: '/v2/', kind: 'status', status: 502, body: html, times: 2 });
    const replies = [await createSession(), await createSession(), await createSession()];
    expect(replies.map((r) => r.status)).toEqual([502, 502, 200]);
    expect(replies[0].text).toBe(html);
    expect(replies[0].headers['content-type']).toMatch(/text\/html/);
  });

  it('matchers: method, path prefix and RegExp', async () => {
    w = await createWorld();
    const { id } = (await createSession()).json.data;
    w.sim.injectFault({ method: 'GET', path: /\/stop$/, kind: 'status', status: 500 });
    w.sim.injectFault({ method: 'GET', path: '/v2/device-run-sessions/', kind: 'status', status: 504 });
    expect((await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token })).status).toBe(
      200,
    );
    expect((await call(w.sim, 'GET', `/v2/device-run-sessions/${id}`, { token: w.token })).status).toBe(504);
    expect((await call(w.sim, 'GET', `/v2/device-run-sessions/${id}`, { token: w.token })).status).toBe(200);
    w.sim.clearFaults();
    expect((await call(w.sim, 'GET', `/v2/device-run-sessions/${id}/stop`, { token: w.token })).status).toBe(
      404,
    );
  });

  it('reset before processing: no response, nothing created', async () => {
    w = await createWorld();
    w.sim.injectFault({ path: '/v2/device-run-sessions', kind: 'reset', processed: false });
    await expect(createSession()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(w.sim.sessions()).toHaveLength(0);
    expect(last()).toMatchObject({ fault: 'reset', status: null, processed: false });
  });

  it('reset after processing: no response, but the session exists', async () => {
    w = await createWorld();
    w.sim.injectFault({ path: '/v2/device-run-sessions', kind: 'reset', processed: true });
    await expect(createSession()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(w.sim.sessions()).toHaveLength(1);
    expect(last()).toMatchObject({ fault: 'reset', status: null, processed: true });
  });

  it('partial: headers and half the body, then the connection is destroyed', async () => {
    w = await createWorld();
    w.sim.injectFault({ path: '/v2/device-run-sessions', kind: 'partial' });
    const body = JSON.stringify({ appId: w.project.id, platform: 'ios' });
    const port = Number(new URL(w.sim.url).port);
    const raw = await rawExchange(
      port,
      `POST /v2/device-run-sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${w.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const [head, received] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    const length = Number(/content-length: (\d+)/i.exec(head)![1]);
    expect(received.length).toBe(Math.floor(length / 2));
    expect(() => JSON.parse(received)).toThrow();
    expect(w.sim.sessions()).toHaveLength(1);
    await expect(createSessionWithPartial()).rejects.toThrow();
  });

  async function createSessionWithPartial() {
    w.sim.injectFault({ path: '/v2/device-run-sessions', kind: 'partial' });
    return createSession();
  }

  it('delay (processed): the operation happens even if the client gives up', async () => {
    // Manual time: the answer's delay never ends by itself, so the client gives up first on any machine.
    w = await createWorld({}, { manualTime: true });
    w.sim.injectFault({ path: '/v2/device-run-sessions', kind: 'delay', ms: 2000, processed: true });
    const controller = new AbortController();
    const aborted = fetch(`${w.sim.url}/v2/device-run-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: w.project.id, platform: 'ios' }),
      signal: controller.signal,
    });
    await waitFor(() => w.sim.requests[0]?.processed, 'request processed');
    controller.abort();
    await expect(aborted).rejects.toThrow();
    expect(w.sim.requests[0].status).toBeNull();
    expect(w.sim.sessions()).toHaveLength(1);
  });

  it('delay (not processed): nothing happens when the client gives up; a patient client gets a late answer', async () => {
    // Manual time: the delay ends when the test says, after the client has given up, however slow
    // the machine (a real 150 ms could end before a loaded machine's abort arrived).
    w = await createWorld({}, { manualTime: true });
    w.sim.injectFault({
      path: '/v2/device-run-sessions',
      kind: 'delay',
      ms: 150,
      processed: false,
      times: 2,
    });
    const controller = new AbortController();
    const aborted = fetch(`${w.sim.url}/v2/device-run-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: w.project.id, platform: 'ios' }),
      signal: controller.signal,
    });
    await waitFor(() => w.sim.requests[0], 'request received');
    controller.abort();
    await expect(aborted).rejects.toThrow();
    // 200 ms for the server to see the closed connection: a loopback close, seen within a turn of its event loop.
    await sleep(200);
    w.sim.advanceTime(150);
    await sleep(20);
    expect(w.sim.sessions()).toHaveLength(0);
    expect(w.sim.requests[0]).toMatchObject({ fault: 'delay', processed: false, status: null });

    let answered = false;
    const late = createSession().finally(() => (answered = true));
    await waitFor(() => w.sim.requests[1], 'the second request received');
    w.sim.advanceTime(149);
    await sleep(20);
    expect(answered).toBe(false);
    w.sim.advanceTime(1);
    const reply = await late;
    expect(reply.status).toBe(200);
    expect(w.sim.sessions()).toHaveLength(1);
  });

  it('body: replaces the body after processing (truncated JSON, HTML)', async () => {
    w = await createWorld();
    w.sim.injectFault({ path: '/v2/device-run-sessions', kind: 'body', body: '{"data": {"id": "abc' });
    const truncated = await createSession();
    expect(truncated.status).toBe(200);
    expect(truncated.text).toBe('{"data": {"id": "abc');
    expect(truncated.json).toBeUndefined();
    expect(w.sim.sessions()).toHaveLength(1);
    w.sim.injectFault({
      path: '/v2/device-run-sessions',
      kind: 'body',
      body: '<html>oops</html>',
      status: 500,
    });
    const html = await createSession();
    expect(html.status).toBe(500);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.headers['cache-control']).toBe('private, no-store');
  });

  it('mutate: rewrites the JSON response (unknown status, missing fields)', async () => {
    w = await createWorld();
    const { id } = (await createSession()).json.data;
    w.sim.injectFault({
      method: 'GET',
      kind: 'mutate',
      mutate: (json) => {
        const body = json as { data: Record<string, unknown> };
        delete body.data['remoteConfig'];
        return { data: { ...body.data, status: 'starting' } };
      },
    });
    const reply = await call(w.sim, 'GET', `/v2/device-run-sessions/${id}`, { token: w.token });
    expect(reply.json.data.status).toBe('starting');
    expect(reply.json.data).not.toHaveProperty('remoteConfig');
    expect(w.sim.getSession(id)!.status).not.toBe('starting');
    expect(last().fault).toBe('mutate');
  });

  it('control routes: add JSON faults, list them, clear them; faults never hit /_sim/', async () => {
    w = await createWorld();
    const add = await call(w.sim, 'POST', '/_sim/faults', {
      body: { kind: 'status', status: 503, pathPattern: '^/v2/', times: 3 },
    });
    expect(add.status).toBe(200);
    expect((await call(w.sim, 'GET', '/_sim/state')).json.data.faults).toEqual([
      { kind: 'status', status: 503, path: '/^\\/v2\\//', times: 3, remaining: 3 },
    ]);
    expect((await createSession()).status).toBe(503);
    expect((await call(w.sim, 'DELETE', '/_sim/faults')).status).toBe(200);
    expect((await createSession()).status).toBe(200);
    const bad = await call(w.sim, 'POST', '/_sim/faults', { body: { kind: 'mutate' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].message).toMatch(/fault\.kind/);
    expect((await call(w.sim, 'POST', '/_sim/faults', { body: { kind: 'reset' } })).status).toBe(400);
    expect(w.sim.requests.filter((r) => r.control).map((r) => r.status)).toEqual([200, 200, 200, 400, 400]);
  });
});

describe('recording and connections', () => {
  it('records method, path, headers, parsed or raw body, status and time of every request', async () => {
    w = await createWorld();
    await createSession();
    await call(w.sim, 'POST', '/v2/workflows/dispatch?x=1', { token: w.token, raw: 'not json' });
    await call(w.sim, 'GET', '/v2/nowhere');
    const [a, b, c] = w.sim.requests;
    expect(a).toMatchObject({
      method: 'POST',
      path: '/v2/device-run-sessions',
      body: { appId: w.project.id, platform: 'ios' },
      status: 200,
      processed: true,
    });
    expect(a.headers['authorization']).toBe(`Bearer ${w.token}`);
    expect(a.receivedAt).toMatch(/\.\d{3}Z$/);
    expect(b).toMatchObject({ path: '/v2/workflows/dispatch?x=1', body: 'not json', status: 400 });
    expect(c).toMatchObject({ method: 'GET', body: undefined, status: 404 });
    expect(new Set([a.connectionId, b.connectionId, c.connectionId]).size).toBe(3);
    w.sim.clearRequests();
    expect(w.sim.requests).toHaveLength(0);
  });

  it('sequential requests over a keep-alive agent share one connection', async () => {
    w = await createWorld();
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      agent,
      body: { appId: w.project.id, platform: 'ios' },
    });
    expect(first.headers['keep-alive']).toBe('timeout=65');
    await sleep(20);
    await call(w.sim, 'GET', `/v2/device-run-sessions/${first.json.data.id}`, { token: w.token, agent });
    await call(w.sim, 'GET', `/v2/device-run-sessions/${first.json.data.id}`, { token: w.token });
    const ids = w.sim.requests.map((r) => r.connectionId);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('close() destroys idle keep-alive sockets, clears timers and resolves promptly', async () => {
    w = await createWorld({}, { readinessDelayMs: 50 });
    agent = new Agent({ keepAlive: true });
    const events: unknown[] = [];
    w.sim.events.on('session-status', (s) => events.push(s));
    await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      agent,
      body: { appId: w.project.id, platform: 'ios' },
    });
    // Promptly: an idle keep-alive socket would otherwise hold close() for the server's 65 s
    // keep-alive, far past Jest's limit. No wall-clock bound of its own: load slows a step.
    await w.sim.close();
    await sleep(80);
    expect(events).toEqual([]);
    await expect(call(w.sim, 'GET', '/v2/nowhere')).rejects.toThrow(/ECONNREFUSED/);
    await w.sim.close(); // idempotent
  });

  it('waitFor helper sanity: in-flight requests are recorded before they are answered', async () => {
    w = await createWorld();
    w.sim.injectFault({ kind: 'delay', ms: 100, processed: true });
    const pending = createSession();
    const record = await waitFor(() => w.sim.requests[0], 'recorded');
    expect(record.status).toBeNull();
    await pending;
    expect(record.status).toBe(200);
  });
});
