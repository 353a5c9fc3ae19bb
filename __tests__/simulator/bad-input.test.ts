/**
 * Bad input to the simulator (issue 33, item 5) gets what a service would answer, and the simulator
 * keeps serving: a malformed path is a 400, headers or a body too large are refused without being
 * kept (a body is not even read on), a request that is not HTTP is a 400. The request guard's
 * refusals say they are the simulator's and how to allow a name, with a status the action does not
 * report as a missing permission.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { connect } from 'node:net';
import { call, errorCodes, errorMessages } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let w: World;
let port: number;
beforeEach(async () => {
  w = await createWorld({ 'e2e.yml': ONE_BUILD });
  port = Number(new URL(w.sim.url).port);
});
afterEach(() => w.sim.close());

/** Bytes as they are on one connection; resolves with everything the simulator sent back. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** The simulator still answers (a state read through the control route). */
async function stillServing(): Promise<void> {
  expect((await call(w.sim, 'GET', '/_sim/state')).status).toBe(200);
}

const messages = () => w.sim.log.lines.map((line) => line.replace(/^\S+ /, ''));

describe('a malformed request', () => {
  it.each([
    [
      'an escape that does not decode',
      `GET /v2/workflows/runs/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n`,
    ],
    ['an escape in a path of no route', `GET /v2/%zz HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n`],
    ['an absolute URI', `GET http://127.0.0.1:PORT/_sim/state HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n`],
    ['an asterisk', `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n`],
  ])('with %s is a 400 MALFORMED_PATH', async (_what, text) => {
    const answer = await raw(
      text.replace(/PORT/g, String(port)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"MALFORMED_PATH"');
    await stillServing();
  });

  it('asked for by a browser is a 400 page', async () => {
    const reply = await call(w.sim, 'GET', '/accounts/acme/projects/app/workflows/%E0%A4%A', {
      headers: { accept: 'text/html' },
    });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.text).toContain('The request path is malformed');
  });

  it('that is not HTTP is a 400, and logged', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(messages()).toContain('(unreadable request) 400: The request is not valid HTTP');
    await stillServing();
  });
});

describe('a request too large', () => {
  it('headers over 16 KiB: 431, nothing recorded, logged, and the simulator goes on', async () => {
    const answer = await raw(
      `GET /_sim/state HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Huge: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large/);
    expect(answer).toContain('"code":"HEADERS_TOO_LARGE"');
    expect(w.sim.requests).toEqual([]);
    expect(messages()).toContain(
      "(unreadable request) 431: The request's headers are larger than the simulator takes (16384 bytes)",
    );
    await stillServing();
  });

  it('a body declared over 1 MiB: 413 before any of it is sent', async () => {
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${w.sim.url}/v2/device-run-sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(1024 ** 3) },
        agent: false,
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders(); // headers only: not a byte of the body
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text).errors[0]).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is larger than the simulator takes (1048576 bytes)',
    });
    expect(w.sim.sessions()).toEqual([]);
    await stillServing();
  });

  it('a body that turns out over 1 MiB: 413 while the client still sends, none of it kept, the connection closed', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const total = 256 * 1024 * 1024;
    let sent = 0;
    const outcome = await new Promise<{ status: number | null; sent: number; error?: string }>((resolve) => {
      const req = request(`${w.sim.url}/v2/device-run-sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        agent: false,
      });
      let status: number | null = null;
      req.on('response', (res) => {
        status = res.statusCode ?? null;
        res.resume();
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ status, sent, error: error.code }));
      req.on('close', () => resolve({ status, sent }));
      const pump = (): void => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    // The client reads the 413 unless the close reaches it first (a loaded machine): what the
    // simulator answered is in its own record below, whatever the client managed to read.
    expect([413, null]).toContain(outcome.status);
    // The simulator stopped taking the body long before its end.
    expect(outcome.sent).toBeLessThan(total / 4);
    expect(w.sim.requests).toHaveLength(1);
    expect(w.sim.requests[0]).toMatchObject({ status: 413, body: undefined, processed: false });
    expect(w.sim.sessions()).toEqual([]);
    await stillServing();
  });
});

describe("the request guard's refusals", () => {
  it('say they are the simulator’s and how to allow the name, as a 421 (not the 403 of a missing permission)', async () => {
    const host = await call(w.sim, 'GET', '/_sim/state', { headers: { host: `sim.lan:${port}` } });
    expect(host.status).toBe(421);
    expect(errorCodes(host)).toEqual(['SIMULATOR_HOST_NOT_ALLOWED']);
    expect(errorMessages(host)).toBe(
      `The svc simulator (not the service) refused this request: Host "sim.lan:${port}" is not a name it answers to (it refuses other names so that a web page cannot reach it through a name of its own). Use localhost, 127.0.0.1 or [::1] with port ${port}, or start it with --allowed-hosts sim.lan (startSimulator({ allowedHosts: ["sim.lan"] }) in process).`,
    );
    const origin = await call(w.sim, 'GET', '/_sim/state', { headers: { origin: 'https://evil.example' } });
    expect(origin.status).toBe(421);
    expect(errorCodes(origin)).toEqual(['SIMULATOR_ORIGIN_NOT_ALLOWED']);
    expect(errorMessages(origin)).toMatch(
      /^The svc simulator \(not the service\) refused this request: Origin "https:\/\/evil\.example" is not the simulator's own: .* --allowed-hosts NAME/,
    );
  });
});
