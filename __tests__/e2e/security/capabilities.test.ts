/**
 * Appium capabilities may carry credentials under any name (`pass`, `apitoken`, `authkey`,
 * `refreshtoken`, `privatekeypem`, a `Basic …` header value): start-device-session logs their keys
 * only, and registers every string value of them as a secret, except those too short or too common
 * to be one (see masking.ts). Run through the start-device-session bundle against the simulator.
 */
import { readRunnerOutput } from '../../../testkit/runner/commands.js';
import { renderLog, runAction, runPost } from '../../../testkit/runner/step.js';
import { createWorld, type World } from '../../../testkit/world/world.js';
import { ONE_BUILD } from '../../../testkit/docs/workflows.js';

const PEM = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
  '-----END PRIVATE KEY-----',
].join('\n');

/** Each credential, and the parts of it a controller or the runner may print on their own. */
const SECRETS = {
  pass: 'hunter2',
  apitoken: 'at-9f8e7d6c5b4a',
  authkey: 'ak_1234abcd',
  refreshtoken: 'rt.eyJhbGciOiJIUzI1NiJ9',
  shortpass: 'p4s5',
  basic: 'Basic dXNlcjpwYXNzd29yZA==',
  basicCredential: 'dXNlcjpwYXNzd29yZA==',
  opaque: 'zq8Ws1pLmN0x',
  pemLine: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
};

const CAPABILITIES = {
  platformName: 'iOS',
  'appium:automationName': 'XCUITest',
  'appium:newCommandTimeout': 300,
  'appium:autoAcceptAlerts': true,
  'appium:options': {
    pass: SECRETS.pass,
    apitoken: SECRETS.apitoken,
    authkey: SECRETS.authkey,
    refreshtoken: SECRETS.refreshtoken,
    privatekeypem: PEM,
  },
  'vendor:login': { user: 'ci-bot', pass: SECRETS.shortpass },
  'appium:headers': { 'X-Proxy-Authorization': SECRETS.basic },
  'vendor:opaque': SECRETS.opaque,
};

describe('Appium capabilities in the log', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  it('shows the keys only and masks every credential-like value, whatever its name', async () => {
    world.sim.setSessionBehaviour({
      readinessDelayMs: 50,
      extraRemoteConfigFields: { capabilities: CAPABILITIES },
    });
    const main = await runAction({
      entry: 'start-device-session',
      runtime: 'node24',
      inputs: { ...world.api, platform: 'ios', type: 'appium', 'poll-interval-seconds': '0.05' },
      env: { RUNNER_DEBUG: '1' },
    });
    expect(main.exitCode).toBe(0);
    expect(JSON.parse(main.outputs.capabilities)).toEqual(CAPABILITIES);
    const log = renderLog(main.stdout, true);
    expect(log).toContain(
      '  capabilities: platformName, appium:automationName, appium:newCommandTimeout, appium:autoAcceptAlerts, appium:options, vendor:login, appium:headers, vendor:opaque',
    );
    const masks = readRunnerOutput(main.stdout).masks;
    // Every line but the add-mask commands themselves, as the step wrote them.
    const written = main.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n');
    for (const [name, value] of Object.entries(SECRETS)) {
      expect([name, masks.includes(value)]).toEqual([name, true]);
      expect([name, written.includes(value)]).toEqual([name, false]);
    }
    expect(main.summary).not.toContain(SECRETS.opaque);
    // Short and common values are not registered: the runner would hide them in every later line.
    for (const common of ['iOS', 'ci-bot', 'true', '300']) expect(masks).not.toContain(common);
    expect((await runPost(main, { runtime: 'node24', inputs: world.api })).exitCode).toBe(0);
  });
});
