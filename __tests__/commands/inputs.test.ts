/**
 * Each command's reader (the `inputs` and `rules` of src/commands/<command>.ts, read through the
 * registry's `COMMANDS[command].read`): its inputs' rules (required, defaults, environment
 * fallbacks), its cross-field rules, the values it returns (keyed by input name) and what they make
 * (apiSettings, start-device-session's create request, the pull-request comment), the plain-http
 * warning (transportWarnings) and the root action's (unusedInputWarnings), the `command` input and
 * the secrets to mask (maskSecretInputs).
 */
import type { Invocation } from '../../src/commands/command.js';
import {
  COMMAND_NAMES,
  COMMANDS,
  maskSecretInputs,
  readCommand,
  transportWarnings,
  unusedInputWarnings,
  type CommandName,
} from '../../src/commands/index.js';
import { apiSettings, type ApiSettings } from '../../src/inputs/table.js';
import type { CreateSessionRequest } from '../../src/service/contract.js';
import type { ServiceClient } from '../../src/service/client.js';
import { createTestIO } from '../../testkit/world/io.js';
import { API, APP_ID, inputSource, problemsOf, SESSION_ID, TOKEN } from '../../testkit/world/sources.js';

const invocationOf = (
  command: CommandName,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): Invocation => COMMANDS[command].read(inputSource(inputs, env, files));

/** The values a command reads, keyed by input name. */
const valuesOf = (command: CommandName, inputs: Record<string, string>, env: Record<string, string> = {}) =>
  invocationOf(command, inputs, env).values;

/** The connection settings a command calls the service with, from its values. */
const apiOf = (values: Invocation['values']): ApiSettings =>
  apiSettings(values as Parameters<typeof apiSettings>[0]);

/** The create request start-device-session sends for these inputs, caught by a fake client. */
async function createRequestOf(inputs: Record<string, string>): Promise<CreateSessionRequest> {
  let sent: CreateSessionRequest | undefined;
  const stop = new Error('not sent: the test only looks at the request');
  const client = {
    createDeviceSession: (request: CreateSessionRequest) => {
      sent = request;
      return Promise.reject(stop);
    },
  } as unknown as ServiceClient;
  const failed = await invocationOf('start-device-session', inputs)
    .run({ io: createTestIO(), signal: new AbortController().signal, client: () => client })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(failed).toBe(stop);
  if (!sent) throw new Error('no create request was sent');
  return sent;
}

const run = (extra: Record<string, string> = {}) => ({
  ...API,
  'app-id': APP_ID,
  workflow: 'e2e.yml',
  'git-ref': 'main',
  ...extra,
});
const start = (extra: Record<string, string> = {}) => ({
  ...API,
  'app-id': APP_ID,
  platform: 'ios',
  ...extra,
});

describe('the `command` input of the root action', () => {
  it('names the allowed commands when missing or unknown, with a near miss', () => {
    const problem = (value: string) => {
      try {
        readCommand(inputSource({ command: value }));
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const allowed =
      'allowed: run-workflow, wait-for-run, start-device-session, wait-for-device-session, stop-device-session, verify-webhook, sync-statuses.';
    expect(problem('')).toBe(`Invalid input: \`command\` is required; ${allowed}`);
    expect(problem('deploy')).toBe(`Invalid input: \`command\` is \`deploy\`; ${allowed}`);
    expect(problem('Run-Workflow')).toBe(
      `Invalid input: \`command\` is \`Run-Workflow\`; ${allowed} Did you mean \`run-workflow\`?`,
    );
    expect(problem('run-workflow\u0007')).toContain('`command` is `run-workflow?`');
    expect(readCommand(inputSource({ command: ' wait-for-run\n' }))).toBe('wait-for-run');
  });
});

describe('shared inputs: token, base-url, app-id, poll interval, timeout', () => {
  it('falls back to SVC_TOKEN, SVC_BASE_URL and SVC_APP_ID; inputs win over them', () => {
    const env = { SVC_TOKEN: 't_env', SVC_BASE_URL: 'https://svc.example/api/', SVC_APP_ID: APP_ID };
    const fromEnv = valuesOf('run-workflow', { workflow: 'e2e.yml', 'git-ref': 'main' }, env);
    expect(fromEnv).toMatchObject({
      'app-id': APP_ID,
      token: 't_env',
      'base-url': 'https://svc.example/api',
    });
    expect(apiOf(fromEnv)).toMatchObject({ token: 't_env', baseUrl: 'https://svc.example/api' });
    const other = '00000000-0000-4000-8000-000000000000';
    const fromInputs = valuesOf('run-workflow', run({ 'app-id': other }), env);
    expect(fromInputs).toMatchObject({ 'app-id': other, token: TOKEN, 'base-url': 'http://127.0.0.1:1' });
    // A blank input falls back as an unset one does.
    expect(valuesOf('stop-device-session', { 'session-id': SESSION_ID, token: '  ' }, env)).toMatchObject({
      token: 't_env',
    });
  });

  it('requires a token, a base URL and a project id, with what to give', () => {
    expect(problemsOf('run-workflow', { workflow: 'e2e.yml', 'git-ref': 'main' })).toEqual([
      '`token` is required: pass an access token, or set the SVC_TOKEN environment variable.',
      '`base-url` is required: the service base URL (http or https), or set the SVC_BASE_URL environment variable.',
      '`app-id` is required: the project id, a UUID such as 4f6c1a2b-0000-4000-8000-000000000000, or set the SVC_APP_ID environment variable.',
    ]);
  });

  it('checks environment fallbacks as strictly as inputs, without echoing a secret', () => {
    const found = problemsOf(
      'stop-device-session',
      { 'session-id': SESSION_ID },
      { SVC_TOKEN: 'secret value', SVC_BASE_URL: 'https://svc.example/v2' },
    );
    expect(found).toEqual([
      expect.stringMatching(/^`token` must be a single word of printable ASCII/),
      expect.stringMatching(/^`base-url` must not include the API version \(\/v2\)/),
    ]);
    expect(found.join('\n')).not.toContain('secret value');
  });

  it('reports every problem at once, never echoing the token', () => {
    const found = problemsOf('run-workflow', {
      token: 'secret value',
      'base-url': 'ftp://x',
      'app-id': 'nope',
      workflow: 'a/b.yml',
      'git-ref': 'main',
      wait: 'maybe',
      'poll-interval-seconds': '-1',
      'timeout-minutes': '0',
    });
    expect(found).toEqual([
      expect.stringContaining('`token` must be a single word'),
      expect.stringContaining('`base-url` must be an http or https URL'),
      expect.stringContaining('`app-id` must be a UUID'),
      expect.stringContaining('`workflow` must be a file name only'),
      expect.stringContaining('`wait` must be `true` or `false`'),
      expect.stringContaining('`poll-interval-seconds` must be a positive number'),
      expect.stringContaining('`timeout-minutes` must be a positive number'),
    ]);
    expect(found.join('\n')).not.toContain('secret value');
  });

  it.each([
    ['a non-ASCII character', 'tok_ünïcode_abcdef'],
    ['a space', 'tok_abc defghij'],
    ['a line break', 'tok_abc\ndefghij'],
    ['a NUL', 'tok_abc\u0000defghij'],
  ])('refuses a token with %s before any request, without its value', (_label, token) => {
    const found = problemsOf('stop-device-session', { ...API, token, 'session-id': SESSION_ID });
    expect(found).toEqual([
      '`token` must be a single word of printable ASCII characters (no spaces, line breaks or other characters an HTTP header cannot carry).',
    ]);
  });

  it('refuses a token pasted into base-url, and a base-url with user:password@, without echoing either', () => {
    const pasted = 'svc_robot_Q2hlY2tUaGlzVG9rZW4xMjM0NTY';
    for (const baseUrl of [pasted, `Bearer ${pasted}`, 'https://ci:s3cr3t-pw@svc.example']) {
      const found = problemsOf('stop-device-session', {
        ...API,
        'base-url': baseUrl,
        'session-id': SESSION_ID,
      });
      expect(found).toEqual([expect.stringMatching(/^`base-url` must /)]);
      expect(found[0]).not.toContain(pasted);
      expect(found[0]).not.toContain('s3cr3t');
    }
  });

  it('refuses an input longer than 64 KiB without parsing it', () => {
    expect(problemsOf('run-workflow', run({ inputs: `a: ${'x'.repeat(70_000)}` }))).toEqual([
      '`inputs` is too long (70003 characters; at most 65536).',
    ]);
  });

  it('has a floor for poll-interval-seconds: 0.05 s, never a busy loop', () => {
    const values = valuesOf('wait-for-run', {
      ...API,
      'run-id': SESSION_ID,
      'poll-interval-seconds': '0.05',
    });
    expect(values).toMatchObject({ 'poll-interval-seconds': 0.05 });
    expect(apiOf(values)).toMatchObject({ pollIntervalMs: 50 });
    expect(
      problemsOf('wait-for-run', { ...API, 'run-id': SESSION_ID, 'poll-interval-seconds': '0.01' }),
    ).toEqual([
      '`poll-interval-seconds` must be a positive number (fractions allowed) from 0.05 to 3600; got `0.01`.',
    ]);
  });
});

describe('transportWarnings', () => {
  /** The warnings for the base URL a command read. */
  const warningsOf = (command: CommandName, inputs: Record<string, string>) => {
    const { baseUrl } = invocationOf(command, inputs);
    return baseUrl === undefined ? [] : transportWarnings(baseUrl);
  };

  it('warns that a plain-http base URL to another host sends the token unencrypted', () => {
    const warnings = warningsOf('stop-device-session', {
      ...API,
      'base-url': 'http://svc.example.com',
      'session-id': SESSION_ID,
    });
    expect(warnings).toEqual([
      '`base-url` uses plain http to svc.example.com: the access token travels unencrypted. Use https unless this network is private to the runner.',
    ]);
  });

  it.each([
    'https://svc.example.com',
    'http://127.0.0.1:8787',
    'http://127.1.2.3',
    'http://localhost:1',
    'http://[::1]:8787',
  ])('does not warn for %s', (baseUrl) => {
    expect(
      warningsOf('stop-device-session', { ...API, 'base-url': baseUrl, 'session-id': SESSION_ID }),
    ).toEqual([]);
  });

  it('has nothing to say for verify-webhook, which calls no service: it has no base URL', () => {
    const invocation = invocationOf('verify-webhook', {
      'webhook-secret': 'w'.repeat(16),
      signature: 'sha1=00',
      payload: '{}',
    });
    expect(invocation.baseUrl).toBeUndefined();
  });
});

describe('unusedInputWarnings (root action)', () => {
  it('warns about inputs the command does not read', () => {
    expect(
      unusedInputWarnings('run-workflow', inputSource(run({ platform: 'ios', 'session-id': SESSION_ID }))),
    ).toEqual([
      'Input `platform` is not used by run-workflow; it is ignored.',
      'Input `session-id` is not used by run-workflow; it is ignored.',
    ]);
  });

  it('does not warn about values the runner filled in: declared defaults and expression defaults', () => {
    // What the root action.yml fills in for every step, whatever the command.
    const filledIn = {
      wait: 'true',
      comment: 'false',
      'export-env': 'true',
      'auto-stop': 'true',
      'svc-go': 'false',
      'github-token': 'ghs_filledInByTheRunner0123456789',
      command: 'verify-webhook',
    };
    expect(unusedInputWarnings('verify-webhook', inputSource(filledIn))).toEqual([]);
    expect(unusedInputWarnings('verify-webhook', inputSource({ ...filledIn, wait: 'false' }))).toEqual([
      'Input `wait` is not used by verify-webhook; it is ignored.',
    ]);
  });

  it("warns about a value equal to one command's default when the root action declares none for it", () => {
    // poll-interval-seconds defaults to 10 for runs and 5 for sessions: the root action.yml fills in nothing.
    expect(unusedInputWarnings('verify-webhook', inputSource({ 'poll-interval-seconds': '10' }))).toEqual([
      'Input `poll-interval-seconds` is not used by verify-webhook; it is ignored.',
    ]);
  });
});

describe('maskSecretInputs', () => {
  // maskSecretInputs reads the runner's environment: the fallbacks are set there for this test.
  const saved = { SVC_TOKEN: process.env.SVC_TOKEN, GITHUB_TOKEN: process.env.GITHUB_TOKEN };
  beforeEach(() => Object.assign(process.env, { SVC_TOKEN: 't_env', GITHUB_TOKEN: 'gh_env' }));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it("masks the command's secrets and their environment fallbacks, every command's when unknown", () => {
    const inputs: Record<string, string> = {
      token: ' t_input ',
      'github-token': 'gh_input',
      'webhook-secret': 'whsec_input_0123456789',
    };
    const masked = (command?: CommandName) => {
      const secrets: string[] = [];
      maskSecretInputs(
        { getInput: (name) => inputs[name] ?? '', mask: (value) => secrets.push(value) },
        command,
      );
      return secrets;
    };
    expect(masked('stop-device-session')).toEqual(['t_input', 't_env']);
    expect(masked('run-workflow')).toEqual(['t_input', 't_env', 'gh_input', 'gh_env']);
    expect(masked('verify-webhook')).toEqual(['whsec_input_0123456789']);
    expect(new Set(masked())).toEqual(
      new Set(['t_input', 't_env', 'gh_input', 'gh_env', 'whsec_input_0123456789']),
    );
  });
});

describe('run-workflow', () => {
  it('reads a valid set with the command defaults', () => {
    const invocation = invocationOf(
      'run-workflow',
      run({ inputs: 'profile: preview\nretries: 3\ndry: true' }),
    );
    expect(invocation.values).toEqual({
      token: TOKEN,
      'base-url': 'http://127.0.0.1:1',
      'app-id': APP_ID,
      workflow: 'e2e.yml',
      'git-ref': 'main',
      inputs: { profile: 'preview', retries: 3, dry: true },
      wait: true,
      // Issue 25 item 4: the new input, off by default.
      'dry-run': false,
      'on-action-required': 'wait',
      'poll-interval-seconds': 10,
      'timeout-minutes': 60,
      comment: false,
      // Issue 23: commit statuses, off by default.
      'commit-statuses': false,
    });
    expect(invocation.values.jobs).toBeUndefined();
    expect(apiOf(invocation.values)).toEqual({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:1',
      pollIntervalMs: 10_000,
      timeoutMs: 3_600_000,
    });
    expect(invocation.comment).toBeUndefined();
    expect(invocation.baseUrl).toBe('http://127.0.0.1:1');
  });

  it('reads jobs, fractional timing, and comment with its token (GITHUB_TOKEN as fallback)', () => {
    const invocation = invocationOf(
      'run-workflow',
      run({ jobs: 'build\ntest', 'poll-interval-seconds': '0.5', 'timeout-minutes': '0.5', comment: 'true' }),
      { GITHUB_TOKEN: 'gh_env' },
    );
    expect(invocation.values).toMatchObject({
      jobs: ['build', 'test'],
      'poll-interval-seconds': 0.5,
      'timeout-minutes': 0.5,
      comment: true,
    });
    expect(apiOf(invocation.values)).toMatchObject({ pollIntervalMs: 500, timeoutMs: 30_000 });
    expect(invocation.comment).toEqual({
      kind: 'run-workflow',
      subject: 'e2e.yml',
      variant: expect.stringMatching(/^[0-9a-f]{10}$/),
      // Without status-context, the heading names the leg by the same hash.
      leg: { settingsHash: invocation.comment?.variant },
      githubToken: 'gh_env',
    });
  });

  it('does not check github-token when read: it is checked where the comment is posted', () => {
    // An input that is not used never fails a step; src/github/comment.ts says what is wrong with it.
    const withComment = invocationOf(
      'run-workflow',
      run({ comment: 'true', 'github-token': 'not a token\n' }),
    );
    expect(withComment.comment).toMatchObject({ githubToken: 'not a token' });
    expect(invocationOf('run-workflow', run({ 'github-token': 'not a token' })).comment).toBeUndefined();
  });

  it('refuses jobs and on-action-required: fail with wait: false', () => {
    expect(problemsOf('run-workflow', run({ wait: 'false', jobs: 'build' }))).toEqual([
      '`jobs` has no effect with `wait: false`; remove one of them.',
    ]);
    expect(problemsOf('run-workflow', run({ wait: 'false', 'on-action-required': 'fail' }))).toEqual([
      '`on-action-required: fail` has no effect with `wait: false`; remove one of them.',
    ]);
    expect(problemsOf('run-workflow', run({ 'on-action-required': 'Fail' }))).toEqual([
      '`on-action-required` is `Fail`; allowed: wait, fail. Did you mean `fail`?',
    ]);
  });

  it("runs on the pull request's head commit on pull_request events, else GITHUB_SHA", () => {
    const repo = { full_name: 'acme/app' };
    const files = {
      '/event.json': JSON.stringify({ pull_request: { head: { sha: 'abc123', repo }, base: { repo } } }),
    };
    const gitRef = (event: string) =>
      invocationOf(
        'run-workflow',
        run({ 'git-ref': '' }),
        { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: '/event.json', GITHUB_SHA: 'merge' },
        files,
      ).values['git-ref'];
    expect(gitRef('pull_request')).toBe('abc123');
    expect(gitRef('pull_request_target')).toBe('abc123');
    expect(gitRef('push')).toBe('merge');
    // An unreadable event file falls back to GITHUB_SHA.
    const unreadable = valuesOf('run-workflow', run({ 'git-ref': '' }), {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: '/missing',
      GITHUB_SHA: 'def456',
    });
    expect(unreadable['git-ref']).toBe('def456');
    expect(problemsOf('run-workflow', run({ 'git-ref': '' }))).toEqual([
      '`git-ref` is required: outside a GitHub event with a commit (no GITHUB_SHA), give a branch, tag or SHA.',
    ]);
  });

  it('names a bad workflow and a bad dispatch input', () => {
    expect(problemsOf('run-workflow', run({ workflow: '' }))).toEqual([
      '`workflow` is required: the workflow file name, such as `e2e.yml`.',
    ]);
    expect(problemsOf('run-workflow', run({ inputs: 'v: 1.10' }))).toEqual([
      expect.stringContaining('`inputs.v` is a number that YAML would change'),
    ]);
  });
});

describe('wait-for-run', () => {
  it('reads the run id, jobs and the same timing defaults as run-workflow', () => {
    const invocation = invocationOf('wait-for-run', {
      ...API,
      'run-id': SESSION_ID.toUpperCase(),
      jobs: 'a,b',
    });
    expect(invocation.values).toEqual({
      token: TOKEN,
      'base-url': 'http://127.0.0.1:1',
      'run-id': SESSION_ID,
      jobs: ['a', 'b'],
      'on-action-required': 'wait',
      'poll-interval-seconds': 10,
      'timeout-minutes': 60,
      comment: false,
      'commit-statuses': false,
    });
    expect(apiOf(invocation.values)).toEqual({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:1',
      pollIntervalMs: 10_000,
      timeoutMs: 3_600_000,
    });
    expect(invocation.comment).toBeUndefined();
  });

  it("expected-commit: the pull request's head or GITHUB_SHA when not passed; '' turns it off", () => {
    const files = { '/event.json': JSON.stringify({ pull_request: { head: { sha: 'abc1234' } } }) };
    const expected = (inputs: Record<string, string>, env: Record<string, string> = {}) =>
      invocationOf('wait-for-run', { ...API, 'run-id': SESSION_ID, ...inputs }, env, files).values[
        'expected-commit'
      ];
    const pullRequest = {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: '/event.json',
      GITHUB_SHA: 'def5678',
    };
    // Not passed at all (a run outside the runner): the same default as action.yml's expression.
    expect(expected({}, pullRequest)).toBe('abc1234');
    expect(expected({}, { ...pullRequest, GITHUB_EVENT_NAME: 'push' })).toBe('def5678');
    expect(expected({})).toBeUndefined();
    // Passed empty: only a user does that (the runner passes the evaluated default): off.
    expect(expected({ 'expected-commit': '' }, pullRequest)).toBeUndefined();
    expect(expected({ 'expected-commit': ' ABCDEF0 ' }, pullRequest)).toBe('abcdef0');
    // A stand-in for the runner that passes the expression unevaluated (local-action): the default.
    const expression = COMMANDS['wait-for-run'].inputs['expected-commit'].runnerDefault ?? '';
    expect(expression).toMatch(
      /^\$\{\{ .*github\.event\.pull_request\.head\.sha \|\| .*github\.event\.merge_group\.head_sha \|\| github\.sha \}\}$/,
    );
    expect(expected({ 'expected-commit': expression }, pullRequest)).toBe('abc1234');
    expect(problemsOf('wait-for-run', { ...API, 'run-id': SESSION_ID, 'expected-commit': 'abc12' })).toEqual([
      "`expected-commit` must be a commit SHA: 7 to 40 hexadecimal digits (a SHA-1 commit or its first digits) or exactly 64 (a SHA-256 commit), or '' to follow a run of any commit; got 5 hexadecimal digits.",
    ]);
  });

  it('requires a run id (UUID), with what to give', () => {
    expect(problemsOf('wait-for-run', API)).toEqual([
      '`run-id` is required: the id of the workflow run, a UUID (the `run-id` output of `run-workflow`).',
    ]);
    expect(problemsOf('wait-for-run', { ...API, 'run-id': '../x' })[0]).toMatch(/^`run-id` must be a UUID/);
  });
});

describe('start-device-session', () => {
  it('builds the request with only the fields given, and the command defaults', async () => {
    const inputs = start({
      type: 'appium',
      name: 'e2e',
      'max-duration-minutes': '30',
      'max-idle-time-minutes': '10',
      'build-id': APP_ID.toUpperCase(),
      'launch-args': '--a\n\n--b=1\n',
      'open-url': 'myapp://home',
    });
    // The fields not given are left out of the request, not sent as undefined.
    expect(await createRequestOf(inputs)).toStrictEqual({
      appId: APP_ID,
      platform: 'ios',
      name: 'e2e',
      type: 'appium',
      maxDurationMinutes: 30,
      maxIdleTimeMinutes: 10,
      buildId: APP_ID,
      launchArgs: ['--a', '--b=1'],
      openUrl: 'myapp://home',
    });
    const invocation = invocationOf('start-device-session', inputs);
    expect(invocation.values).toMatchObject({
      wait: true,
      'export-env': true,
      'auto-stop': true,
      'svc-go': false,
      comment: false,
      'poll-interval-seconds': 5,
      'timeout-minutes': 15,
    });
    expect(invocation.comment).toBeUndefined();
    expect(apiOf(invocation.values)).toMatchObject({ pollIntervalMs: 5000, timeoutMs: 900_000 });
  });

  it('accepts svc-go with a major sdk-version, launch-args as JSON, and 0 minutes', async () => {
    const request = await createRequestOf(
      start({
        'svc-go': 'true',
        'sdk-version': '52',
        'launch-args': '["a b", "c"]',
        'max-duration-minutes': '0',
      }),
    );
    expect(request).toMatchObject({
      svcGo: true,
      sdkVersion: '52',
      launchArgs: ['a b', 'c'],
      maxDurationMinutes: 0,
    });
  });

  it('reads wait, export-env and auto-stop', () => {
    expect(
      valuesOf('start-device-session', start({ wait: 'false', 'export-env': 'false', 'auto-stop': 'false' })),
    ).toMatchObject({ wait: false, 'export-env': false, 'auto-stop': false });
  });

  it('says "did you mean" for a near miss', () => {
    expect(problemsOf('start-device-session', start({ platform: 'iOS' }))).toEqual([
      '`platform` is `iOS`; allowed: android, ios. Did you mean `ios`?',
    ]);
    expect(problemsOf('start-device-session', start({ type: 'Appium' }))).toEqual([
      '`type` is `Appium`; allowed: agent-device, appium, argent, serve-sim. Did you mean `appium`?',
    ]);
  });

  it.each([
    [{ platform: '' }, '`platform` is required: allowed: android, ios.'],
    [{ platform: 'windows' }, '`platform` is `windows`; allowed: android, ios.'],
    [{ type: 'selenium' }, '`type` is `selenium`; allowed: agent-device, appium, argent, serve-sim.'],
    [{ name: 'x'.repeat(256) }, '`name` is 256 characters long; at most 255 are allowed.'],
    [{ name: 'a\n::error::b' }, '`name` must be a single line without control characters.'],
    [
      { 'max-duration-minutes': '116' },
      '`max-duration-minutes` must be a whole number from 0 to 115; got `116`.',
    ],
    [
      { 'max-idle-time-minutes': '0' },
      '`max-idle-time-minutes` must be a whole number from 1 to 114; got `0`.',
    ],
    [
      { 'max-idle-time-minutes': '115' },
      '`max-idle-time-minutes` must be a whole number from 1 to 114; got `115`.',
    ],
    [
      { 'max-duration-minutes': '10', 'max-idle-time-minutes': '10' },
      '`max-idle-time-minutes` (10) must be smaller than `max-duration-minutes` (10).',
    ],
    [
      { 'max-duration-minutes': '30', 'max-idle-time-minutes': '40' },
      '`max-idle-time-minutes` (40) must be smaller than `max-duration-minutes` (30).',
    ],
    [
      { type: 'serve-sim', 'max-idle-time-minutes': '5' },
      '`max-idle-time-minutes` is not supported for `type: serve-sim`; remove it or choose another type.',
    ],
    [
      { type: 'serve-sim', platform: 'android' },
      '`type: serve-sim` is iOS only; use `platform: ios` or another type.',
    ],
    [
      { 'build-id': APP_ID, 'svc-go': 'true' },
      'only one application source is allowed, but `build-id`, `svc-go: true` are set; keep one of them.',
    ],
    [
      { 'build-id': APP_ID, 'application-archive-url': 'https://x.example/a.apk' },
      'only one application source is allowed, but `build-id`, `application-archive-url` are set; keep one of them.',
    ],
    [{ 'sdk-version': '52' }, '`sdk-version` is valid only with `svc-go: true`.'],
    [
      { 'svc-go': 'true', 'sdk-version': 'abc' },
      '`sdk-version` must be a major version number such as `52`; got `abc`.',
    ],
    [
      { 'launch-args': '--x' },
      '`launch-args` requires an application source (`build-id`, `application-archive-url` or `svc-go: true`).',
    ],
    [
      { 'open-url': 'myapp://x' },
      '`open-url` requires an application source (`build-id`, `application-archive-url` or `svc-go: true`).',
    ],
    [{ 'svc-go': 'yes' }, '`svc-go` must be `true` or `false`; got `yes`.'],
    [
      { 'device-identifier': 'iPhone\n15' },
      '`device-identifier` must be a single line without control characters.',
    ],
  ])('refuses %j', (extra, expected) => {
    expect(problemsOf('start-device-session', start(extra))).toEqual([expected]);
  });

  it('lists several cross-field problems together', () => {
    const found = problemsOf(
      'start-device-session',
      start({
        type: 'serve-sim',
        platform: 'android',
        'max-idle-time-minutes': '5',
        'launch-args': '-a',
        'sdk-version': '52',
      }),
    );
    expect(found).toHaveLength(4);
  });
});

describe('wait-for-device-session', () => {
  it('reads the session id from its input only, never from SVC_DEVICE_SESSION_ID', () => {
    const values = valuesOf('wait-for-device-session', { ...API, 'session-id': SESSION_ID });
    expect(values).toEqual({
      token: TOKEN,
      'base-url': 'http://127.0.0.1:1',
      'session-id': SESSION_ID,
      'export-env': true,
      'poll-interval-seconds': 5,
      'timeout-minutes': 15,
    });
    expect(apiOf(values)).toEqual({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:1',
      pollIntervalMs: 5000,
      timeoutMs: 900_000,
    });
    const other = '00000000-0000-4000-8000-000000000000';
    expect(
      valuesOf(
        'wait-for-device-session',
        { ...API, 'session-id': other, 'export-env': 'false' },
        { SVC_DEVICE_SESSION_ID: SESSION_ID },
      ),
    ).toMatchObject({ 'session-id': other, 'export-env': false });
  });

  it('requires a session id, showing the line that passes it', () => {
    for (const env of [{}, { SVC_DEVICE_SESSION_ID: SESSION_ID }] as Record<string, string>[])
      expect(problemsOf('wait-for-device-session', API, env)).toEqual([SESSION_ID_REQUIRED]);
  });
});

describe('stop-device-session', () => {
  it('reads the session id and the 5-minute default timeout', () => {
    const values = valuesOf('stop-device-session', { ...API, 'session-id': SESSION_ID });
    expect(values).toEqual({
      token: TOKEN,
      'base-url': 'http://127.0.0.1:1',
      'session-id': SESSION_ID,
      'timeout-minutes': 5,
    });
    // No poll interval input: its retries pace themselves at 5 s.
    expect(apiOf(values)).toEqual({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:1',
      pollIntervalMs: 5000,
      timeoutMs: 300_000,
    });
  });

  it('requires a session id (it does not read SVC_DEVICE_SESSION_ID)', () => {
    expect(problemsOf('stop-device-session', API, { SVC_DEVICE_SESSION_ID: SESSION_ID })).toEqual([
      SESSION_ID_REQUIRED,
    ]);
  });
});

test('an empty session-id from `needs.<job>.outputs` (an output the start job did not declare) says how a value crosses jobs', () => {
  // `${{ needs.start.outputs.session-id }}` of a job without that output: GitHub passes ''.
  for (const command of ['wait-for-device-session', 'stop-device-session'] as const)
    expect(problemsOf(command, { ...API, 'session-id': '' })).toEqual([SESSION_ID_REQUIRED]);
});

/** What wait-for-device-session and stop-device-session say of an empty `session-id`. */
const SESSION_ID_REQUIRED =
  "`session-id` is required: the `session-id` output of the start-device-session step, empty here. In its job: `session-id: ${{ steps.<id>.outputs.session-id }}` (give that step an `id:`). From another job: declare it in that job's `outputs:`, list that job in `needs:` and pass `session-id: ${{ needs.<job>.outputs.session-id }}` (an output not declared is empty).";

describe('verify-webhook', () => {
  const secret = 'w'.repeat(16);

  it.each([
    [
      {},
      [
        "`webhook-secret` is required: the webhook's signing secret (at least 16 characters).",
        '`signature` is required: the value of the `svc-signature` header of the delivery.',
        'one of `payload` (the raw request body) or `payload-file` (a path to it) is required.',
      ],
    ],
    [
      { 'webhook-secret': 'short', signature: 'sha1=00', payload: '{}' },
      ['`webhook-secret` must be at least 16 characters long (it has 5).'],
    ],
    [
      { 'webhook-secret': secret, signature: 'sha1=00', payload: '{}', 'payload-file': '/p' },
      ['set exactly one of `payload` and `payload-file`, not both.'],
    ],
  ])('refuses %j', (inputs, expected) => {
    expect(problemsOf('verify-webhook', inputs)).toEqual(expected);
  });

  it('keeps the inline payload and the secret byte for byte; trims the signature', () => {
    expect(
      valuesOf('verify-webhook', {
        'webhook-secret': ` ${secret}\n`,
        signature: ' sha1=ab ',
        payload: ' {"a":1}\n',
      }),
    ).toStrictEqual({
      'webhook-secret': ` ${secret}\n`,
      signature: 'sha1=ab',
      payload: ' {"a":1}\n',
    });
    expect(
      valuesOf('verify-webhook', {
        'webhook-secret': secret,
        signature: 's',
        'payload-file': ' body.json ',
      }),
    ).toStrictEqual({
      'webhook-secret': secret,
      signature: 's',
      'payload-file': 'body.json',
    });
  });
});

describe('the tables', () => {
  it('every command reads token/base-url the same way, and only verify-webhook goes without them', () => {
    for (const command of COMMAND_NAMES) {
      const inputs = COMMANDS[command].inputs as Record<string, unknown>;
      if (command === 'verify-webhook') expect(inputs.token).toBeUndefined();
      else
        expect([inputs.token, inputs['base-url']]).toEqual([
          COMMANDS['run-workflow'].inputs.token,
          COMMANDS['run-workflow'].inputs['base-url'],
        ]);
    }
  });
});
