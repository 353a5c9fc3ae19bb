/**
 * Web pages are kept out: a page in the browser of someone running the simulator must not create
 * sessions, webhooks or runs through it, neither by posting to 127.0.0.1 from its own origin (CSRF) nor
 * through a name of its own that resolves to 127.0.0.1 (DNS rebinding). The action, curl and tests
 * still get through.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { call, errorCodes, errorMessages, type CallOptions } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let w: World;
let port: string;
beforeEach(async () => {
  w = await createWorld({ 'e2e.yml': ONE_BUILD });
  port = new URL(w.sim.url).port;
});
afterEach(() => w.sim.close());

const WEBHOOK = () => ({
  projectId: w.project.id,
  event: 'BUILD',
  url: 'http://127.0.0.1:9/hook',
  secret: 'at-least-16-characters',
});
const createSession = (opts: CallOptions = {}) =>
  call(w.sim, 'POST', '/v2/device-run-sessions', {
    token: w.token,
    body: { appId: w.project.id, platform: 'ios' },
    ...opts,
  });
const nothingCreated = () => {
  expect(w.sim.webhooks.list()).toEqual([]);
  expect(w.sim.sessions()).toEqual([]);
  expect(w.sim.runs()).toEqual([]);
};

describe('requests from web pages', () => {
  it.each([
    ['another site', 'https://evil.example'],
    ['a sandboxed page', 'null'],
    ['the right host on another port', 'http://127.0.0.1:1'],
    ['https', () => `https://127.0.0.1:${port}`],
  ])('an Origin of %s is refused with 421 on control and service routes', async (_what, origin) => {
    const headers = { origin: typeof origin === 'function' ? origin() : origin };
    const replies = [
      await call(w.sim, 'POST', '/_sim/webhooks', { body: WEBHOOK(), headers }),
      await call(w.sim, 'POST', '/_sim/runs', { body: {}, headers }),
      await createSession({ headers }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(421);
      expect(errorCodes(reply)).toEqual(['SIMULATOR_ORIGIN_NOT_ALLOWED']);
      expect(errorMessages(reply)).toMatch(
        /^The svc simulator \(not the service\) refused this request: Origin ".*" is not the simulator's own/,
      );
    }
    nothingCreated();
    expect(w.sim.requests.map((r) => [r.status, r.processed])).toEqual([
      [421, false],
      [421, false],
      [421, false],
    ]);
  });

  it.each([
    ['a name that resolves to 127.0.0.1 (DNS rebinding)', () => `rebind.evil.example:${port}`],
    ['a loopback address with another port', () => '127.0.0.1:1'],
    ['no port', () => 'localhost'],
    ['user info', () => `127.0.0.1:${port}@evil.example`],
  ])('a Host of %s is refused with 421', async (_what, host) => {
    const headers = { host: host() };
    const replies = [
      await call(w.sim, 'GET', '/_sim/state', { headers }),
      await call(w.sim, 'POST', '/_sim/webhooks', { body: WEBHOOK(), headers }),
      await createSession({ headers }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(421);
      expect(errorMessages(reply)).toMatch(/refused this request: Host ".*" is not a name it answers to/);
      expect(reply.text).not.toContain(w.project.id);
    }
    nothingCreated();
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], ['']])(
    'a control request with a body of type %j is refused with 415',
    async (type) => {
      const reply = await call(w.sim, 'POST', '/_sim/webhooks', {
        raw: JSON.stringify(WEBHOOK()),
        headers: { 'content-type': type },
      });
      expect(reply.status).toBe(415);
      expect(errorCodes(reply)).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
      expect(errorMessages(reply)).toMatch(/Content-Type: application\/json/);
      nothingCreated();
    },
  );
});

describe("the simulator's own clients", () => {
  it.each([
    ['127.0.0.1 (what node:http and fetch send)', () => undefined],
    ['localhost', () => `localhost:${port}`],
    ['another 127.x address', () => `127.0.0.2:${port}`],
    ['upper case', () => `LOCALHOST:${port}`],
  ])('are answered with Host %s', async (_what, host) => {
    const headers: Record<string, string> = {};
    const value = host();
    if (value) headers.host = value;
    expect((await call(w.sim, 'POST', '/_sim/webhooks', { body: WEBHOOK(), headers })).status).toBe(200);
    expect((await createSession({ headers })).status).toBe(200);
    expect((await call(w.sim, 'GET', '/_sim/state', { headers })).status).toBe(200);
  });

  it("are answered with the simulator's own Origin, a JSON content type with parameters, or no body", async () => {
    const own = { origin: `http://localhost:${port}`, host: `localhost:${port}` };
    expect((await createSession({ headers: own })).status).toBe(200);
    const json = { 'content-type': 'application/json; charset=utf-8' };
    expect((await call(w.sim, 'POST', '/_sim/webhooks', { body: WEBHOOK(), headers: json })).status).toBe(
      200,
    );
    // curl -X POST .../_sim/reset: no body, no content type.
    expect((await call(w.sim, 'POST', '/_sim/reset')).status).toBe(200);
    const fetched = await fetch(`${w.sim.url}/_sim/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(fetched.status).toBe(200);
    expect(w.sim.runs()).toHaveLength(1);
  });

  it('are answered through a name the simulator was told about (allowedHosts), with any port', async () => {
    await w.sim.close();
    w = await createWorld({}, { allowedHosts: ['Sim.Internal'] });
    port = new URL(w.sim.url).port;
    for (const host of ['sim.internal', `sim.internal:${port}`, 'SIM.INTERNAL:8080']) {
      expect((await createSession({ headers: { host } })).status).toBe(200);
    }
    const other = await createSession({ headers: { host: `other.internal:${port}` } });
    expect(other.status).toBe(421);
  });
});
