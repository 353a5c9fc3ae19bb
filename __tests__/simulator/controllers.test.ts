/**
 * The controllers a session's remoteConfig leads to (simulator/controllers/), over plain HTTP: who may
 * call them (token checks), when they answer (only while the session is in-progress), and the error
 * shapes of each protocol. The real clients drive them in __tests__/sessions/controllers.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { DeviceSession, SimulatorOptions } from '../../simulator/index.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { call, UNKNOWN_UUID, waitFor, type CallOptions, type Reply } from './helpers.js';

let w: World;

afterEach(() => w?.sim.close());

async function setup(options: SimulatorOptions = {}): Promise<void> {
  w = await createWorld({}, { readinessDelayMs: 20, ...options });
}

/** Creates a session and waits until it is in-progress with its remoteConfig. */
async function ready(body: Record<string, unknown>): Promise<DeviceSession> {
  const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
    token: w.token,
    body: { appId: w.project.id, platform: 'ios', ...body },
  });
  expect(created.status).toBe(200);
  const id = (created.json as { data: DeviceSession }).data.id;
  return waitFor(() => {
    const session = w.sim.getSession(id);
    return session?.remoteConfig ? session : undefined;
  }, 'session ready');
}

/** A request to an absolute URL the simulator handed out. */
function at(url: string, method: string, opts: CallOptions = {}): Promise<Reply> {
  return call(w.sim, method, url.slice(w.sim.url.length), opts);
}

function stop(id: string): Promise<Reply> {
  return call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
}

const rpc = (command: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 'r1',
  method: 'agent_device.command',
  params: { session: 'default', command, positionals: [], flags: {}, meta: {}, ...params },
});

describe('agent-device daemon', () => {
  let url: string;
  let token: string;
  beforeEach(async () => {
    await setup();
    const session = await ready({ type: 'agent-device' });
    url = session.remoteConfig!.agentDeviceRemoteSessionUrl as string;
    token = session.remoteConfig!.agentDeviceRemoteSessionToken as string;
  });

  it('takes the token as Bearer, as x-agent-device-token or in params; refuses a missing or wrong one', async () => {
    const body = rpc('devices');
    const ok = [
      { token },
      { headers: { 'x-agent-device-token': token } },
      { body: { ...body, params: { ...body.params, token } } },
    ];
    for (const opts of ok) {
      const reply = await at(`${url}/rpc`, 'POST', { body, ...opts });
      expect(reply.status).toBe(200);
      expect(reply.json.result.data.devices).toEqual([
        expect.objectContaining({ platform: 'ios', booted: true }),
      ]);
    }
    for (const opts of [{}, { token: 'wrong' }, { token, headers: { 'x-agent-device-token': 'wrong' } }]) {
      const reply = await at(`${url}/rpc`, 'POST', { body, ...opts });
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: 'r1',
        error: {
          code: -32001,
          message: expect.any(String),
          data: expect.objectContaining({ code: 'UNAUTHORIZED' }),
        },
      });
    }
    expect((await at(`${url}/health`, 'GET')).status).toBe(401);
    expect((await at(`${url}/health`, 'GET', { token: 'wrong' })).json).toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect((await at(`${url}/health`, 'GET', { token })).json).toEqual({
      ok: true,
      service: 'agent-device-daemon',
      version: expect.any(String),
      rpcProtocolVersion: 2,
    });
  });

  it('answers JSON-RPC errors: parse error, invalid request, unknown method, unsupported command, bad target', async () => {
    const cases: Array<[CallOptions, number, number, string]> = [
      [{ raw: '{not json' }, 400, -32700, 'Parse error'],
      [{ body: { id: 1, method: 'agent_device.command', params: {} } }, 400, -32600, 'Invalid Request'],
      [{ body: { ...rpc('devices'), method: 'agent_device.nope' } }, 404, -32601, 'Method not found'],
      [{ body: rpc('snapshot') }, 501, -32000, 'does not implement "snapshot"'],
      [{ body: rpc('press') }, 400, -32602, 'needs a target'],
      [{ body: rpc('close') }, 404, -32000, 'No open agent-device session'],
    ];
    for (const [opts, status, code, message] of cases) {
      const reply = await at(`${url}/rpc`, 'POST', { token, ...opts });
      expect([reply.status, reply.json.error.code]).toEqual([status, code]);
      expect(reply.json.error.message).toContain(message);
    }
  });

  it('serves a screenshot once as a PNG artifact', async () => {
    const reply = await at(`${url}/rpc`, 'POST', { token, body: rpc('screenshot') });
    const [artifact] = reply.json.result.data.artifacts;
    expect(artifact).toMatchObject({ field: 'path', artifactType: 'screenshot' });
    const path = `${url}/artifacts/${artifact.artifactId}`;
    expect((await at(path, 'GET')).status).toBe(401);
    const download = await at(path, 'GET', { token });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect((await at(path, 'GET', { token })).status).toBe(404);
  });
});

describe('Appium (W3C WebDriver) endpoint', () => {
  let url: string;
  let capabilities: Record<string, unknown>;
  beforeEach(async () => {
    await setup();
    const session = await ready({ type: 'appium', platform: 'android' });
    url = session.remoteConfig!.appiumUrl as string;
    capabilities = session.remoteConfig!.capabilities as Record<string, unknown>;
  });

  const w3c = (reply: Reply) => [reply.status, reply.json?.value?.error];

  it('refuses capabilities for another platform, unprefixed ones, a second session; errors for unknown sessions', async () => {
    const create = (caps: unknown) => at(`${url}/session`, 'POST', { body: { capabilities: caps } });
    expect(w3c(await create({ alwaysMatch: { ...capabilities, platformName: 'iOS' } }))).toEqual([
      500,
      'session not created',
    ]);
    expect(w3c(await create({ alwaysMatch: { ...capabilities, deviceName: 'x' } }))).toEqual([
      400,
      'invalid argument',
    ]);
    expect(w3c(await at(`${url}/session`, 'POST', { raw: 'nope' }))).toEqual([400, 'invalid argument']);
    // firstMatch: the first alternative this device satisfies wins.
    const first = await create({ alwaysMatch: {}, firstMatch: [{ platformName: 'iOS' }, capabilities] });
    expect(first.status).toBe(200);
    const { sessionId } = first.json.value;
    expect(first.json.value.capabilities).toMatchObject({
      platformName: 'Android',
      'appium:udid': 'emulator-5554',
    });
    expect(w3c(await create({ alwaysMatch: capabilities }))).toEqual([500, 'session not created']);
    expect((await at(`${url}/status`, 'GET')).json.value.ready).toBe(false);
    expect(w3c(await at(`${url}/session/${sessionId}/element`, 'POST', { body: {} }))).toEqual([
      404,
      'unknown command',
    ]);
    expect(w3c(await at(`${url}/session/${sessionId}/actions`, 'POST', { body: {} }))).toEqual([
      400,
      'invalid argument',
    ]);
    expect((await at(`${url}/session/${sessionId}`, 'DELETE')).json).toEqual({ value: null });
    const late = await at(`${url}/session/${sessionId}/screenshot`, 'GET');
    expect(w3c(late)).toEqual([404, 'invalid session id']);
    expect(late.json.value.message).toContain('was deleted');
    expect(w3c(await at(`${url}/session/${UNKNOWN_UUID}/screenshot`, 'GET'))).toEqual([
      404,
      'invalid session id',
    ]);
    expect((await at(`${url}/status`, 'GET')).json.value).toMatchObject({
      ready: true,
      build: expect.any(Object),
    });
  });
});

describe('argent tool server', () => {
  it('wants the session token as Bearer when there is one, and is open when there is none', async () => {
    await setup();
    const session = await ready({ type: 'argent' });
    const url = session.remoteConfig!.toolsUrl as string;
    const token = session.remoteConfig!.toolsAuthToken as string;
    expect((await at(`${url}/tools`, 'GET')).status).toBe(401);
    expect((await at(`${url}/tools`, 'GET', { token: `${token}x` })).json.error).toContain('Authorization');
    expect((await at(`${url}/tools`, 'GET', { headers: { 'x-agent-device-token': token } })).status).toBe(
      401,
    );
    const tools = await at(`${url}/tools`, 'GET', { token });
    expect(tools.json.tools.map((t: { name: string }) => t.name)).toEqual([
      'list-devices',
      'screenshot',
      'gesture-tap',
    ]);
    const tap = (body: unknown) => at(`${url}/tools/gesture-tap`, 'POST', { token, body });
    const udid = (await at(`${url}/tools/list-devices`, 'POST', { token, body: {} })).json.data.devices[0]
      .udid;
    expect((await tap({ udid, x: 0.5, y: 0.5 })).json.data).toEqual({
      tapped: true,
      timestampMs: expect.any(Number),
    });
    expect((await tap({ udid, x: 5, y: 0.5 })).status).toBe(400);
    expect((await tap({ udid: 'other', x: 0.5, y: 0.5 })).json.error).toContain('Unknown device');
    expect((await at(`${url}/tools/nope`, 'POST', { token, body: {} })).json).toEqual({
      error: 'Tool "nope" not found',
    });

    w.sim.setSessionBehaviour({ omitArgentToken: true });
    const open = await ready({ type: 'argent' });
    expect(open.remoteConfig).not.toHaveProperty('toolsAuthToken');
    expect((await at(`${open.remoteConfig!.toolsUrl as string}/tools`, 'GET')).status).toBe(200);
  });
});

describe('browser preview', () => {
  it('shows the session with everything escaped, 410 once it is stopped; Android sessions have none', async () => {
    await setup();
    const name = '<img src=x onerror=alert(1)> & "q"';
    const session = await ready({ type: 'serve-sim', name });
    const page = await at(session.remoteConfig!.previewUrl as string, 'GET');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;');
    expect(page.text).not.toContain('<img');
    for (const text of [session.id, 'ios', 'serve-sim', 'in-progress']) expect(page.text).toContain(text);

    await stop(session.id);
    const gone = await at(session.remoteConfig!.previewUrl as string, 'GET');
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('stopped');
    expect(gone.text).not.toContain('<img');

    const android = await ready({ type: 'appium', platform: 'android' });
    const none = await call(w.sim, 'GET', `/_devices/${android.id}/preview`);
    expect(none.status).toBe(404);
    expect(none.text).toContain('has no browser preview');
  });
});

describe('only while the session is in-progress', () => {
  it('404 for an unknown session or another type, 503 before ready, 410 after stop or error', async () => {
    await setup({ readinessDelayMs: 60_000 });
    const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: { appId: w.project.id, platform: 'ios', type: 'agent-device' },
    });
    const id = created.json.data.id as string;
    const early = await call(w.sim, 'GET', `/_devices/${id}/agent-device/health`);
    expect([early.status, early.headers['retry-after']]).toEqual([503, '1']);
    expect(early.json.error).toContain('not ready yet (status new)');
    expect((await call(w.sim, 'GET', `/_devices/${UNKNOWN_UUID}/agent-device/health`)).status).toBe(404);
    expect((await call(w.sim, 'GET', `/_devices/not-a-uuid/argent/tools`)).status).toBe(404);

    w.sim.readySession(id);
    const token = w.sim.getSession(id)!.remoteConfig!.agentDeviceRemoteSessionToken as string;
    expect((await call(w.sim, 'GET', `/_devices/${id}/agent-device/health`, { token })).status).toBe(200);
    const wrongType = await call(w.sim, 'GET', `/_devices/${id}/appium/status`);
    expect([wrongType.status, wrongType.json.value.message]).toEqual([
      404,
      expect.stringContaining('no appium controller'),
    ]);

    await stop(id);
    const after = await call(w.sim, 'POST', `/_devices/${id}/agent-device/rpc`, {
      token,
      body: rpc('devices'),
    });
    expect(after.status).toBe(410);
    expect(after.json.error).toMatchObject({
      message: expect.stringContaining('is stopped'),
      data: { code: 'SESSION_NOT_FOUND' },
    });

    w.sim.setSessionBehaviour({ readinessDelayMs: 0 });
    const failed = await ready({ type: 'argent' });
    w.sim.failSession(failed.id);
    const errored = await at(`${failed.remoteConfig!.toolsUrl as string}/tools`, 'GET');
    expect([errored.status, errored.json.error]).toEqual([410, expect.stringContaining('is errored')]);
  });

  it('controller traffic is device activity: it restarts the idle timer', async () => {
    // Manual time: the 400 ms idle time passes only when the test says, however slow each call is.
    await setup({ sessionMinuteMs: 400, manualTime: true });
    const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: {
        appId: w.project.id,
        platform: 'ios',
        type: 'argent',
        maxIdleTimeMinutes: 1,
        maxDurationMinutes: 30,
      },
    });
    w.sim.advanceTime(20);
    const session = w.sim.getSession((created.json as { data: DeviceSession }).data.id)!;
    const url = session.remoteConfig!.toolsUrl as string;
    const token = session.remoteConfig!.toolsAuthToken as string;
    // 600 ms of traffic, more than the idle time, each call within it of the last.
    for (let i = 0; i < 6; i++) {
      w.sim.advanceTime(100);
      expect((await at(`${url}/tools`, 'GET', { token })).status).toBe(200);
    }
    w.sim.advanceTime(399);
    expect(w.sim.getSession(session.id)!.status).toBe('in-progress');
    w.sim.advanceTime(1);
    expect(w.sim.getSession(session.id)!.status).toBe('stopped');
    expect(w.sim.sessionEndedBy(session.id)).toBe('idle-timeout');
  });
});
