import { afterEach, describe, expect, it } from '@jest/globals';
import { type DeviceSession, type SimulatorOptions } from '../../simulator/index.js';
import { call, errorMessages, sleep, UNKNOWN_UUID, waitFor, type Reply } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';

const SESSION_FIELDS = [
  'id',
  'appId',
  'url',
  'jobRunId',
  'name',
  'type',
  'packageVersion',
  'buildId',
  'applicationArchiveUrl',
  'platform',
  'status',
  'remoteConfig',
  'maxDurationMinutes',
  'maxIdleTimeMinutes',
  'startedAt',
  'finishedAt',
  'createdAt',
  'updatedAt',
].sort();

let w: World;

afterEach(async () => {
  await w?.sim.close();
});

async function setup(options: SimulatorOptions = {}): Promise<void> {
  w = await createWorld({}, { readinessDelayMs: 20, ...options });
}

function create(body: Record<string, unknown>, token = w.token): Promise<Reply> {
  return call(w.sim, 'POST', '/v2/device-run-sessions', { token, body: { appId: w.project.id, ...body } });
}

async function get(id: string): Promise<DeviceSession> {
  const reply = await call(w.sim, 'GET', `/v2/device-run-sessions/${id}`, { token: w.token });
  expect(reply.status).toBe(200);
  return reply.json.data;
}

const ready = (id: string) =>
  waitFor(() => {
    const s = w.sim.getSession(id)!;
    return s.status === 'in-progress' && s.remoteConfig !== null && s;
  }, 'session ready');

const UUID = '11111111-2222-4333-8444-555555555555';

describe('POST /v2/device-run-sessions validation', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['appId missing', { appId: undefined }, /appId is required/],
    ['platform missing', { platform: undefined }, /platform is required/],
    ['platform unknown', { platform: 'windows' }, /platform must be one of: android, ios/],
    ['name empty', { name: '' }, /name must not be blank/],
    ['name blank', { name: '   ' }, /name must not be blank/],
    ['name too long', { name: 'x'.repeat(256) }, /name must be at most 255 characters/],
    ['name not a string', { name: 5 }, /name must be a string/],
    ['name null', { name: null }, /name must be a string/],
    ['type unknown', { type: 'selenium' }, /type must be one of: agent-device, appium, argent, serve-sim/],
    ['packageVersion not a string', { packageVersion: 1 }, /packageVersion must be a string/],
    ['deviceIdentifier blank', { deviceIdentifier: '' }, /deviceIdentifier must not be blank/],
    [
      'maxDurationMinutes above 115',
      { maxDurationMinutes: 116 },
      /maxDurationMinutes must be between 0 and 115/,
    ],
    [
      'maxDurationMinutes negative',
      { maxDurationMinutes: -1 },
      /maxDurationMinutes must be between 0 and 115/,
    ],
    ['maxDurationMinutes fractional', { maxDurationMinutes: 1.5 }, /maxDurationMinutes must be an integer/],
    ['maxDurationMinutes string', { maxDurationMinutes: '30' }, /maxDurationMinutes must be an integer/],
    [
      'maxIdleTimeMinutes zero',
      { maxIdleTimeMinutes: 0 },
      /maxIdleTimeMinutes must be positive and less than 115/,
    ],
    [
      'maxIdleTimeMinutes 115',
      { maxIdleTimeMinutes: 115 },
      /maxIdleTimeMinutes must be positive and less than 115/,
    ],
    ['maxIdleTimeMinutes fractional', { maxIdleTimeMinutes: 2.5 }, /maxIdleTimeMinutes must be an integer/],
    [
      'idle not below duration',
      { maxDurationMinutes: 30, maxIdleTimeMinutes: 30 },
      /maxIdleTimeMinutes must be smaller than maxDurationMinutes/,
    ],
    [
      'idle with serve-sim',
      { platform: 'ios', type: 'serve-sim', maxIdleTimeMinutes: 5 },
      /maxIdleTimeMinutes is not supported for session type serve-sim/,
    ],
    ['serve-sim on android', { type: 'serve-sim' }, /serve-sim is only available for platform ios/],
    ['buildId not a UUID', { buildId: 'b-1' }, /buildId must be a valid UUID/],
    [
      'archive URL not http',
      { applicationArchiveUrl: 'ftp://host/app.apk' },
      /applicationArchiveUrl must be an http or https URL/,
    ],
    [
      'archive URL not a URL',
      { applicationArchiveUrl: 'app.apk' },
      /applicationArchiveUrl must be an http or https URL/,
    ],
    [
      'archive URL too long',
      { applicationArchiveUrl: `https://h/${'a'.repeat(2040)}` },
      /applicationArchiveUrl must be at most 2048 characters/,
    ],
    ['svcGo not boolean', { svcGo: 'yes' }, /svcGo must be a boolean/],
    [
      'buildId + archive URL',
      { buildId: UUID, applicationArchiveUrl: 'https://h/a.apk' },
      /At most one application source.*buildId, applicationArchiveUrl/,
    ],
    ['buildId + svcGo', { buildId: UUID, svcGo: true }, /At most one application source.*buildId, svcGo/],
    [
      'archive URL + svcGo',
      { applicationArchiveUrl: 'https://h/a.apk', svcGo: true },
      /At most one application source/,
    ],
    ['sdkVersion without svcGo', { sdkVersion: '54' }, /sdkVersion is only valid with svcGo: true/],
    [
      'sdkVersion with svcGo false',
      { sdkVersion: '54', svcGo: false },
      /sdkVersion is only valid with svcGo: true/,
    ],
    ['launchArgs without a source', { launchArgs: ['-a'] }, /launchArgs requires an application source/],
    [
      'launchArgs not strings',
      { buildId: UUID, launchArgs: ['-a', 1] },
      /launchArgs must be an array of strings/,
    ],
    [
      'launchArgs not an array',
      { buildId: UUID, launchArgs: '-a' },
      /launchArgs must be an array of strings/,
    ],
    ['openUrl without a source', { openUrl: 'myapp://home' }, /openUrl requires an application source/],
    [
      'openUrl with svcGo false only',
      { svcGo: false, openUrl: 'myapp://home' },
      /openUrl requires an application source/,
    ],
  ])('%s → 400 naming the field', async (_name, body, message) => {
    await setup();
    const reply = await create({ platform: 'android', ...body });
    expect(reply.status).toBe(400);
    expect(reply.json.errors[0].code).toBe('VALIDATION_ERROR');
    expect(errorMessages(reply)).toMatch(message);
    expect(w.sim.sessions()).toHaveLength(0);
  });

  it.each<[string, Record<string, unknown>]>([
    ['boundaries', { name: 'x'.repeat(255), maxDurationMinutes: 115, maxIdleTimeMinutes: 114 }],
    ['zero duration', { maxDurationMinutes: 0 }],
    ['buildId with launchArgs and openUrl', { buildId: UUID, launchArgs: ['--flag'], openUrl: 'myapp://x' }],
    ['archive URL of 2048 characters', { applicationArchiveUrl: `https://h/${'a'.repeat(2038)}` }],
    ['svcGo with sdkVersion', { svcGo: true, sdkVersion: '54' }],
    ['buildId with svcGo false', { buildId: UUID, svcGo: false }],
    ['serve-sim on ios', { platform: 'ios', type: 'serve-sim' }],
    [
      'every type with a device identifier',
      { type: 'appium', deviceIdentifier: 'Pixel 9', packageVersion: '2.1.0' },
    ],
  ])('accepts %s', async (_name, body) => {
    await setup();
    const reply = await create({ platform: 'android', ...body });
    expect(reply.status).toBe(200);
    expect(reply.json.data.status).toBe('new');
  });

  it('feature not enabled for the account → 400', async () => {
    await setup();
    w.account.deviceSessions = false;
    const reply = await create({ platform: 'ios' });
    expect(reply.status).toBe(400);
    expect(errorMessages(reply)).toMatch(/not enabled for account "acme"/);
    const other = w.sim.addAccount({ name: 'closed', deviceSessions: false });
    const project = w.sim.addProject({ account: other });
    const token = w.sim.addToken({ account: other, role: 'owner' });
    const reply2 = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token,
      body: { appId: project.id, platform: 'ios' },
    });
    expect(reply2.status).toBe(400);
    expect(w.sim.sessions()).toHaveLength(0);
  });

  it("enforces the account's duration limit and uses the account default when omitted", async () => {
    await setup();
    const limited = w.sim.addAccount({ name: 'small', maxDurationLimitMinutes: 30 });
    const project = w.sim.addProject({ account: limited });
    const token = w.sim.addToken({ account: limited });
    const over = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token,
      body: { appId: project.id, platform: 'ios', maxDurationMinutes: 31 },
    });
    expect(over.status).toBe(400);
    expect(errorMessages(over)).toMatch(
      /maxDurationMinutes 31 exceeds the account's duration limit of 30 minutes/,
    );
    const at = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token,
      body: { appId: project.id, platform: 'ios', maxDurationMinutes: 30 },
    });
    expect(at.json.data.maxDurationMinutes).toBe(30);
    const omitted = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token,
      body: { appId: project.id, platform: 'ios' },
    });
    expect(omitted.json.data.maxDurationMinutes).toBe(30); // default 60 capped by the limit
    expect((await create({ platform: 'ios' })).json.data.maxDurationMinutes).toBe(60);
    expect((await create({ platform: 'ios', maxDurationMinutes: 30 })).json.data.maxDurationMinutes).toBe(30);
  });
});

describe('device session object and state machine', () => {
  it('create returns exactly the spec fields, status new, remoteConfig null, no request-only fields', async () => {
    await setup();
    const reply = await create({
      platform: 'ios',
      name: 'smoke',
      buildId: UUID,
      deviceIdentifier: 'iPhone 15',
      launchArgs: ['-x'],
      openUrl: 'myapp://x',
      maxIdleTimeMinutes: 10,
      packageVersion: '1.2.3',
    });
    expect(reply.status).toBe(200);
    const s = reply.json.data as DeviceSession;
    expect(Object.keys(s).sort()).toEqual(SESSION_FIELDS);
    expect(s).toMatchObject({
      appId: w.project.id,
      name: 'smoke',
      type: 'agent-device',
      packageVersion: '1.2.3',
      buildId: UUID,
      applicationArchiveUrl: null,
      platform: 'ios',
      status: 'new',
      remoteConfig: null,
      maxDurationMinutes: 60,
      maxIdleTimeMinutes: 10,
      startedAt: null,
      finishedAt: null,
    });
    expect(s.url).toBe(`${w.sim.url}/accounts/acme/projects/app/device-sessions/${s.id}`);
    expect(s.jobRunId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.createdAt).toMatch(/\.\d{3}Z$/);
  });

  it('applicationArchiveUrl: the supplied URL, a resolved hosted URL with svcGo, null otherwise', async () => {
    await setup();
    const archive = await create({
      platform: 'android',
      applicationArchiveUrl: 'https://cdn.example/app.apk',
    });
    expect(archive.json.data.applicationArchiveUrl).toBe('https://cdn.example/app.apk');
    const go = await create({ platform: 'ios', svcGo: true, sdkVersion: '54' });
    expect(go.json.data.applicationArchiveUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*ios\/54\//);
    const blank = await create({ platform: 'ios', name: 'blank' });
    expect(blank.json.data).toMatchObject({
      applicationArchiveUrl: null,
      buildId: null,
      packageVersion: null,
    });
  });

  it('new → in-progress (startedAt, remoteConfig) → stopped (finishedAt, remoteConfig null); stop is idempotent', async () => {
    // Manual time: the session is new until the test says its 100 ms have passed, however slow the machine.
    await setup({ readinessDelayMs: 100, manualTime: true });
    const statuses: string[] = [];
    w.sim.events.on('session-status', (s: DeviceSession) => statuses.push(s.status));
    const { id } = (await create({ platform: 'android' })).json.data;
    w.sim.advanceTime(99);
    expect((await get(id)).status).toBe('new');
    w.sim.advanceTime(1);
    const live = await get(id);
    expect(live.status).toBe('in-progress');
    expect(live.startedAt).not.toBeNull();
    expect(live.remoteConfig).not.toBeNull();
    expect(w.sim.activeSessions().map((s) => s.id)).toEqual([id]);

    const stop = await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
    expect(stop.status).toBe(200);
    expect(stop.json.data.status).toBe('stopped');
    expect(stop.json.data.finishedAt).not.toBeNull();
    expect(stop.json.data.remoteConfig).toBeNull();
    expect(w.sim.sessionEndedBy(id)).toBe('stop-operation');

    w.sim.advanceTime(5);
    const again = await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(stop.json.data);
    expect((await get(id)).remoteConfig).toBeNull();
    expect(w.sim.activeSessions()).toEqual([]);
    expect(statuses).toEqual(['in-progress', 'stopped']);
  });

  it('stopping a new session stops it for good (it never becomes ready)', async () => {
    await setup({ readinessDelayMs: 100, manualTime: true });
    const { id } = (await create({ platform: 'ios' })).json.data;
    const stop = await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
    expect(stop.json.data).toMatchObject({ status: 'stopped', startedAt: null, remoteConfig: null });
    w.sim.advanceTime(150);
    expect((await get(id)).status).toBe('stopped');
  });

  it('the three session operations carry Cache-Control: private, no-store and Pragma: no-cache', async () => {
    await setup();
    const created = await create({ platform: 'ios' });
    const read = await call(w.sim, 'GET', `/v2/device-run-sessions/${created.json.data.id}`, {
      token: w.token,
    });
    const stopped = await call(w.sim, 'POST', `/v2/device-run-sessions/${created.json.data.id}/stop`, {
      token: w.token,
    });
    const failed = await create({ platform: 'nope' });
    for (const reply of [created, read, stopped, failed]) {
      expect(reply.headers['cache-control']).toBe('private, no-store');
      expect(reply.headers['pragma']).toBe('no-cache');
    }
    const run = await call(w.sim, 'GET', `/v2/workflows/runs/${UNKNOWN_UUID}`, { token: w.token });
    expect(run.headers['cache-control']).toBeUndefined();
  });

  it.each<[string, string, string[]]>([
    ['agent-device', 'android', ['agentDeviceRemoteSessionToken', 'agentDeviceRemoteSessionUrl']],
    [
      'agent-device',
      'ios',
      ['agentDeviceRemoteSessionToken', 'agentDeviceRemoteSessionUrl', 'webPreviewUrl'],
    ],
    ['argent', 'android', ['toolsAuthToken', 'toolsUrl']],
    ['argent', 'ios', ['toolsAuthToken', 'toolsUrl', 'webPreviewUrl']],
    ['appium', 'android', ['appiumUrl', 'capabilities']],
    ['appium', 'ios', ['appiumUrl', 'capabilities', 'webPreviewUrl']],
    ['serve-sim', 'ios', ['previewUrl']],
  ])('remoteConfig of %s on %s', async (type, platform, keys) => {
    await setup();
    const { id } = (await create({ platform, type })).json.data;
    const config = (await ready(id)).remoteConfig!;
    expect(Object.keys(config).sort()).toEqual(keys);
    for (const key of keys.filter((k) => k.endsWith('Url'))) expect(config[key]).toMatch(/^http:\/\//);
    if (type === 'appium') {
      expect(config['capabilities']).toMatchObject({
        platformName: platform === 'ios' ? 'iOS' : 'Android',
        'appium:automationName': platform === 'ios' ? 'XCUITest' : 'UiAutomator2',
        'appium:deviceName': expect.any(String),
      });
    }
  });

  it('secrets are random per session, and appium uses the device identifier', async () => {
    await setup();
    const a = (await create({ platform: 'android' })).json.data.id;
    const b = (await create({ platform: 'android' })).json.data.id;
    const c = (await create({ platform: 'android', type: 'appium', deviceIdentifier: 'pixel_9' })).json.data
      .id;
    const [ra, rb, rc] = [await ready(a), await ready(b), await ready(c)];
    const token = ra.remoteConfig!['agentDeviceRemoteSessionToken'] as string;
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect(token).not.toBe(rb.remoteConfig!['agentDeviceRemoteSessionToken']);
    expect((rc.remoteConfig!['capabilities'] as Record<string, unknown>)['appium:deviceName']).toBe(
      'pixel_9',
    );
  });

  it('auto-stops at the maximum duration with status stopped', async () => {
    await setup({ sessionMinuteMs: 10, readinessDelayMs: 5, manualTime: true });
    const { id } = (await create({ platform: 'ios', maxDurationMinutes: 4 })).json.data;
    w.sim.advanceTime(5);
    const live = w.sim.getSession(id)!;
    expect(live.status).toBe('in-progress');
    w.sim.advanceTime(39);
    expect(w.sim.getSession(id)!.status).toBe('in-progress');
    w.sim.advanceTime(1);
    const stopped = w.sim.getSession(id)!;
    expect(stopped.status).toBe('stopped');
    expect(stopped.remoteConfig).toBeNull();
    expect(stopped.finishedAt).not.toBeNull();
    expect(Date.parse(stopped.finishedAt!) - Date.parse(live.startedAt!)).toBeGreaterThanOrEqual(39);
    expect(w.sim.sessionEndedBy(id)).toBe('max-duration');
  });

  it('auto-stops after the idle time; device activity (touchSession) restarts the idle timer', async () => {
    await setup({ sessionMinuteMs: 50, readinessDelayMs: 5, manualTime: true });
    const { id } = (await create({ platform: 'android', maxIdleTimeMinutes: 3, maxDurationMinutes: 100 }))
      .json.data;
    w.sim.advanceTime(5);
    // 200 ms of activity, more than the 150 ms idle time, each touch within it.
    for (let i = 0; i < 8; i++) {
      w.sim.advanceTime(25);
      w.sim.touchSession(id);
    }
    w.sim.advanceTime(149);
    expect(w.sim.getSession(id)!.status).toBe('in-progress');
    w.sim.advanceTime(1);
    expect(w.sim.getSession(id)!.status).toBe('stopped');
    expect(w.sim.sessionEndedBy(id)).toBe('idle-timeout');
  });
});

describe('session test controls', () => {
  it('errorAfterMs errors a new session; stop on it returns it unchanged', async () => {
    await setup({ readinessDelayMs: 1000 });
    w.sim.setSessionBehaviour({ errorAfterMs: 20 });
    const { id } = (await create({ platform: 'ios' })).json.data;
    const errored = await waitFor(
      () => w.sim.getSession(id)!.status === 'errored' && w.sim.getSession(id)!,
      'errored',
    );
    expect(errored).toMatchObject({ remoteConfig: null, startedAt: null, finishedAt: null });
    const stop = await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
    expect(stop.status).toBe(200);
    expect(stop.json.data).toEqual(errored);
  });

  it('errorAfterMs errors an in-progress session and clears remoteConfig', async () => {
    await setup({ readinessDelayMs: 5, manualTime: true });
    w.sim.setSessionBehaviour({ errorAfterMs: 200 });
    const { id } = (await create({ platform: 'ios' })).json.data;
    w.sim.advanceTime(5);
    expect(w.sim.getSession(id)!.remoteConfig).not.toBeNull();
    w.sim.advanceTime(195);
    expect(w.sim.getSession(id)!.status).toBe('errored');
    expect(w.sim.getSession(id)!.remoteConfig).toBeNull();
    w.sim.setSessionBehaviour({ errorAfterMs: undefined });
    const next = (await create({ platform: 'ios' })).json.data.id;
    w.sim.advanceTime(5);
    expect(w.sim.getSession(next)!.status).toBe('in-progress');
    w.sim.advanceTime(250);
    expect(w.sim.getSession(next)!.status).toBe('in-progress');
  });

  it('failSession and the control route move a session to errored now', async () => {
    await setup({ readinessDelayMs: 5 });
    const a = (await create({ platform: 'ios' })).json.data.id;
    const b = (await create({ platform: 'ios' })).json.data.id;
    await ready(a);
    w.sim.failSession(a);
    expect(w.sim.getSession(a)).toMatchObject({ status: 'errored', remoteConfig: null });
    const reply = await call(w.sim, 'POST', `/_sim/sessions/${b}/error`);
    expect(reply.status).toBe(200);
    expect(reply.json.data.status).toBe('errored');
    expect(w.sim.activeSessions()).toEqual([]);
  });

  it('remoteConfigLagMs: in-progress with remoteConfig null for a while', async () => {
    // Manual time: the read sees the lag because its 250 ms have not been moved past, on any machine.
    await setup({ readinessDelayMs: 5, manualTime: true });
    w.sim.setSessionBehaviour({ remoteConfigLagMs: 250 });
    const { id } = (await create({ platform: 'ios' })).json.data;
    w.sim.advanceTime(5);
    const lagging = w.sim.getSession(id)!;
    expect(lagging.status).toBe('in-progress');
    expect(lagging.remoteConfig).toBeNull();
    expect(lagging.startedAt).not.toBeNull();
    w.sim.advanceTime(249);
    expect((await get(id)).remoteConfig).toBeNull();
    w.sim.advanceTime(1);
    expect((await get(id)).remoteConfig).toHaveProperty('agentDeviceRemoteSessionUrl');
  });

  it('extra status before ready and extra remoteConfig fields (newer service)', async () => {
    await setup({ readinessDelayMs: 250, manualTime: true });
    w.sim.setSessionBehaviour({
      extraStatusBeforeReady: 'queued',
      extraRemoteConfigFields: { previewApiUrl: 'http://preview.invalid', webPreviewToken: 'tkn' },
    });
    const created = (await create({ platform: 'ios', type: 'argent' })).json.data;
    expect(created.status).toBe('new');
    w.sim.advanceTime(0);
    expect((await get(created.id)).status).toBe('queued');
    expect(w.sim.activeSessions().map((s) => s.status)).toEqual(['queued']);
    w.sim.advanceTime(250);
    const live = w.sim.getSession(created.id)!;
    expect(live.remoteConfig).toMatchObject({
      previewApiUrl: 'http://preview.invalid',
      webPreviewToken: 'tkn',
      toolsUrl: expect.any(String),
    });
  });

  it('omitArgentToken leaves out toolsAuthToken', async () => {
    await setup({ readinessDelayMs: 5 });
    w.sim.setSessionBehaviour({ omitArgentToken: true });
    const { id } = (await create({ platform: 'android', type: 'argent' })).json.data;
    expect(Object.keys((await ready(id)).remoteConfig!)).toEqual(['toolsUrl']);
  });

  it('behaviour set through the control route applies to sessions created afterwards', async () => {
    await setup({ readinessDelayMs: 5 });
    const before = (await create({ platform: 'android' })).json.data.id;
    const reply = await call(w.sim, 'POST', '/_sim/session-behaviour', {
      body: { readinessDelayMs: 10_000 },
    });
    expect(reply.status).toBe(200);
    const after = (await create({ platform: 'android' })).json.data.id;
    await ready(before);
    await sleep(30);
    expect(w.sim.getSession(after)!.status).toBe('new');
    expect(w.sim.sessions().map((s) => s.id)).toEqual([before, after]);
  });
});
