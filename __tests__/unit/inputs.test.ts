import {
  InputError,
  readSettings,
  type RunWorkflowSettings,
  type StartSessionSettings,
} from '../../src/inputs.js';
import { API, APP_ID, inputSource } from '../helpers/sources.js';

function problems(inputs: Record<string, string>, env: Record<string, string> = {}): string[] {
  try {
    readSettings(inputSource(inputs, env));
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

const run = (extra: Record<string, string>) => ({
  command: 'run-workflow',
  ...API,
  'app-id': APP_ID,
  workflow: 'e2e.yml',
  'git-ref': 'main',
  ...extra,
});
const start = (extra: Record<string, string>) => ({
  command: 'start-device-session',
  ...API,
  'app-id': APP_ID,
  platform: 'ios',
  ...extra,
});

describe('command', () => {
  it('names the allowed commands when missing or unknown', () => {
    expect(problems({})).toEqual([
      expect.stringContaining('`command` is required; allowed: run-workflow, start-device-session'),
    ]);
    expect(problems({ command: 'deploy' })[0]).toContain('`command` is `deploy`; allowed:');
  });
});

describe('run-workflow inputs', () => {
  it('reads a valid set with command defaults', () => {
    const { settings } = readSettings(
      inputSource(run({ inputs: 'profile: preview\nretries: 3\ndry: true' })),
    );
    const s = settings as RunWorkflowSettings;
    expect(s).toMatchObject({
      command: 'run-workflow',
      appId: APP_ID,
      fileName: 'e2e.yml',
      gitRef: 'main',
      wait: true,
      inputs: { profile: 'preview', retries: 3, dry: true },
      api: { baseUrl: 'http://127.0.0.1:1', pollIntervalMs: 10_000, timeoutMs: 3_600_000 },
    });
  });

  it('accepts JSON inputs and fractional intervals', () => {
    const { settings } = readSettings(
      inputSource(run({ inputs: '{"a": "b"}', 'poll-interval-seconds': '0.05', 'timeout-minutes': '0.5' })),
    );
    expect(settings).toMatchObject({ inputs: { a: 'b' }, api: { pollIntervalMs: 50, timeoutMs: 30_000 } });
  });

  it('falls back to SVC_TOKEN and SVC_BASE_URL', () => {
    const { settings } = readSettings(
      inputSource(
        { command: 'run-workflow', 'app-id': APP_ID, workflow: 'e2e.yml', 'git-ref': 'main' },
        { SVC_TOKEN: 't1', SVC_BASE_URL: 'https://svc.example/api/' },
      ),
    );
    expect((settings as RunWorkflowSettings).api).toMatchObject({
      token: 't1',
      baseUrl: 'https://svc.example/api',
    });
  });

  it.each([
    ['.eas/workflows/e2e.yml', 'file name only'],
    ['../e2e.yml', 'file name only'],
    ['dir\\e2e.yml', 'file name only'],
    ['e2e', '.yml or .yaml'],
    ['e2e.yml\nx', '.yml or .yaml'],
  ])('rejects workflow %j', (workflow, expected) => {
    expect(problems(run({ workflow }))).toEqual([
      expect.stringMatching(new RegExp(`^\`workflow\`.*${expected.replace('.', '\\.')}`)),
    ]);
  });

  it('uses the pull request head SHA on pull_request events, else GITHUB_SHA', () => {
    const files = { '/event.json': JSON.stringify({ pull_request: { head: { sha: 'abc123' } } }) };
    const pr = readSettings(
      inputSource(
        run({ 'git-ref': '' }),
        { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '/event.json', GITHUB_SHA: 'merge' },
        files,
      ),
    );
    expect((pr.settings as RunWorkflowSettings).gitRef).toBe('abc123');
    const push = readSettings(
      inputSource(run({ 'git-ref': '' }), { GITHUB_EVENT_NAME: 'push', GITHUB_SHA: 'def456' }),
    );
    expect((push.settings as RunWorkflowSettings).gitRef).toBe('def456');
    expect(problems(run({ 'git-ref': '' }))).toEqual([expect.stringContaining('`git-ref` is required')]);
  });

  it.each(['-x', 'a..b', 'has space', 'a~1', 'x:y'])('rejects git-ref %j', (ref) => {
    expect(problems(run({ 'git-ref': ref }))[0]).toContain('`git-ref` must be');
  });

  it.each([
    ['- a\n- b', 'must be a mapping'],
    ['just text', 'must be a mapping'],
    ['a: &x 1\nb: *x', 'anchors'],
    ['a: !!str 1', 'tags'],
    ['a: !custom x', 'tags'],
    ['a: 1\na: 2', 'not valid YAML'],
    ['a: [1, 2]', '`inputs.a` must be a string, number or boolean'],
    ['a:', '`inputs.a` must be a string'],
    ['{"a": {"b": 1}}', '`inputs.a`'],
    ['{ unterminated', 'not valid YAML'],
  ])('rejects inputs %j', (text, expected) => {
    expect(problems(run({ inputs: text }))[0]).toContain(expected);
  });

  it('reports every problem at once, without echoing the token', () => {
    const found = problems({
      command: 'run-workflow',
      token: 'secret value',
      'base-url': 'ftp://x',
      'app-id': 'nope',
      workflow: 'a/b.yml',
      'git-ref': 'main',
      wait: 'maybe',
      'poll-interval-seconds': '-1',
      'timeout-minutes': '0',
    });
    expect(found).toHaveLength(7);
    expect(found.join('\n')).not.toContain('secret value');
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringContaining('`token` must be a single word'),
        expect.stringContaining('`base-url` must be an http or https URL'),
        expect.stringContaining('`app-id` must be a UUID'),
        expect.stringContaining('`wait` must be `true` or `false`'),
        expect.stringContaining('`poll-interval-seconds` must be a positive number'),
        expect.stringContaining('`timeout-minutes` must be a positive number'),
      ]),
    );
  });

  it('requires a token and a base URL', () => {
    expect(
      problems({ command: 'run-workflow', 'app-id': APP_ID, workflow: 'e2e.yml', 'git-ref': 'main' }),
    ).toEqual([
      expect.stringContaining('`token` is required'),
      expect.stringContaining('`base-url` is required'),
    ]);
  });

  it('warns about inputs the command does not use', () => {
    const { warnings } = readSettings(inputSource(run({ platform: 'ios' })));
    expect(warnings).toEqual(['Input `platform` is not used by run-workflow; it is ignored.']);
  });
});

describe('start-device-session inputs', () => {
  it('builds the request with only the fields given', () => {
    const { settings } = readSettings(
      inputSource(
        start({
          type: 'appium',
          name: 'e2e',
          'max-duration-minutes': '30',
          'max-idle-time-minutes': '10',
          'build-id': APP_ID.toUpperCase(),
          'launch-args': '--a\n\n--b=1\n',
          'open-url': 'myapp://home',
        }),
      ),
    );
    const s = settings as StartSessionSettings;
    expect(s.request).toEqual({
      appId: APP_ID,
      platform: 'ios',
      name: 'e2e',
      type: 'appium',
      packageVersion: undefined,
      deviceIdentifier: undefined,
      maxDurationMinutes: 30,
      maxIdleTimeMinutes: 10,
      buildId: APP_ID,
      applicationArchiveUrl: undefined,
      svcGo: undefined,
      sdkVersion: undefined,
      launchArgs: ['--a', '--b=1'],
      openUrl: 'myapp://home',
    });
    expect(s).toMatchObject({
      wait: true,
      exportEnv: true,
      autoStop: true,
      api: { pollIntervalMs: 5000, timeoutMs: 900_000 },
    });
  });

  it('accepts launch-args as a JSON array and 0 minutes', () => {
    const { settings } = readSettings(
      inputSource(
        start({
          'svc-go': 'true',
          'sdk-version': '54',
          'launch-args': '["a b", "c"]',
          'max-duration-minutes': '0',
        }),
      ),
    );
    expect((settings as StartSessionSettings).request).toMatchObject({
      svcGo: true,
      sdkVersion: '54',
      launchArgs: ['a b', 'c'],
      maxDurationMinutes: 0,
    });
  });

  it.each([
    [{ platform: '' }, '`platform` is required; allowed: android, ios'],
    [{ platform: 'windows' }, '`platform` is `windows`; allowed: android, ios'],
    [{ type: 'selenium' }, '`type` is `selenium`; allowed: agent-device, appium, argent, serve-sim'],
    [{ name: '   ' }, '`name` must not be blank'],
    [{ name: 'x'.repeat(256) }, '`name` is 256 characters long; at most 255'],
    [{ 'max-duration-minutes': '116' }, '`max-duration-minutes` must be a whole number from 0 to 115'],
    [{ 'max-duration-minutes': '-1' }, '`max-duration-minutes` must be a whole number from 0 to 115'],
    [{ 'max-duration-minutes': '30.5' }, '`max-duration-minutes` must be a whole number from 0 to 115'],
    [{ 'max-idle-time-minutes': '0' }, '`max-idle-time-minutes` must be a whole number from 1 to 114'],
    [{ 'max-idle-time-minutes': '115' }, '`max-idle-time-minutes` must be a whole number from 1 to 114'],
    [
      { 'max-duration-minutes': '10', 'max-idle-time-minutes': '10' },
      'must be smaller than `max-duration-minutes`',
    ],
    [{ type: 'serve-sim', 'max-idle-time-minutes': '5' }, 'not supported for `type: serve-sim`'],
    [{ type: 'serve-sim', platform: 'android' }, '`type: serve-sim` is iOS only'],
    [
      { 'build-id': APP_ID, 'svc-go': 'true' },
      'only one application source is allowed, but `build-id`, `svc-go: true` are set',
    ],
    [{ 'build-id': APP_ID, 'application-archive-url': 'https://x/app.zip' }, 'only one application source'],
    [{ 'build-id': 'not-a-uuid' }, '`build-id` must be a UUID'],
    [
      { 'application-archive-url': 'ftp://x/app.zip' },
      '`application-archive-url` must be an http or https URL',
    ],
    [{ 'application-archive-url': `https://x/${'a'.repeat(2048)}` }, 'at most 2048'],
    [{ 'sdk-version': '54' }, '`sdk-version` is valid only with `svc-go: true`'],
    [{ 'launch-args': '--x' }, '`launch-args` requires an application source'],
    [{ 'launch-args': '[1, 2]', 'svc-go': 'true' }, 'not a JSON array of strings'],
    [{ 'open-url': 'myapp://x' }, '`open-url` requires an application source'],
    [{ 'svc-go': 'yes' }, '`svc-go` must be `true` or `false`'],
    [{ 'app-id': '' }, '`app-id` is required'],
    [{ 'device-identifier': 'iPhone\n15' }, '`device-identifier` must be a single line'],
  ])('rejects %j', (extra, expected) => {
    expect(problems(start(extra)).join('\n')).toContain(expected);
  });
});

describe('stop-device-session and verify-webhook inputs', () => {
  it('requires a session id', () => {
    expect(problems({ command: 'stop-device-session', ...API })).toEqual([
      expect.stringContaining('`session-id` is required'),
    ]);
  });

  it.each([
    [{}, ['`webhook-secret` is required', '`signature` is required', 'one of `payload`']],
    [
      { 'webhook-secret': 'short', signature: 'sha1=00', payload: '{}' },
      ['at least 16 characters long (it has 5)'],
    ],
    [
      { 'webhook-secret': 'x'.repeat(16), signature: 'sha1=00', payload: '{}', 'payload-file': '/p' },
      ['exactly one of `payload` and `payload-file`'],
    ],
  ])('verify-webhook %j', (extra, expected) => {
    const found = problems({ command: 'verify-webhook', ...extra }).join('\n');
    for (const text of expected) expect(found).toContain(text);
    expect(found).not.toContain('short');
  });

  it('keeps the inline payload byte for byte', () => {
    const { settings } = readSettings(
      inputSource({
        command: 'verify-webhook',
        'webhook-secret': 'x'.repeat(16),
        signature: ' sha1=ab ',
        payload: ' {"a":1}\n',
      }),
    );
    expect(settings).toMatchObject({ signature: 'sha1=ab', payload: { kind: 'inline', text: ' {"a":1}\n' } });
  });
});
