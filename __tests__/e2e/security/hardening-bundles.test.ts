/**
 * The security cases that run through the built bundles, as the runner runs them: one for each file
 * whose other cases run in process from the sources (__tests__/security/, the unit tier), and the
 * files whose one case is that case:
 * - injection.test.ts: a hostile commit message, job names and job outputs through run-workflow,
 *   every printed line read with the runner-like parser (audit.ts);
 * - hostile-inputs.test.ts: the first case of the hostile-input matrix, through the root action;
 * - huge-answers.test.ts: SIGINT while the step handles a 600 kB answer (a signal needs a process);
 * - capabilities.test.ts (its one case): Appium capabilities' keys logged, every credential masked;
 * - input-errors.test.ts (its one case): a number YAML would change, never repeated in any form;
 * - loopback.test.ts (its one case): the plain-http warning, for remote hosts only.
 */
import { ONE_BUILD } from '../../../testkit/docs/workflows.js';
import { readRunnerOutput } from '../../../testkit/runner/commands.js';
import { BUNDLES, renderLog, runAction, runPost, type ActionRun } from '../../../testkit/runner/step.js';
import { CASES, TOKEN } from '../../../testkit/world/hostile-cases.js';
import {
  closeLeavingNoSession,
  expectNoInjectedCommands as expectInert,
  gateRunWorkflow,
  gateWorld,
  hostile,
  hostileCaseInputs,
  hugeSessionStarter,
  MARK,
  resetWithHugeAnswers,
} from '../../../testkit/world/security-fixtures.js';
import { apiRequests, createWorld, type World } from '../../../testkit/world/world.js';
import { sharedWorldHooks } from '../../../testkit/world/world-hooks.js';

// injection.test.ts
const RUNTIME = 'node24';

describe('injection.test.ts: workflow-command injection', () => {
  let world: World;
  beforeEach(async () => {
    world = await gateWorld();
  });
  afterEach(() => closeLeavingNoSession(world));

  const runWorkflowStep = gateRunWorkflow(BUNDLES, () => world, { runtime: RUNTIME });

  it('run-workflow: a hostile commit message, job names from the workflow file and job outputs', async () => {
    world.repo.commit({}, hostile('commit message'));
    world.sim.setJobBehaviour('build', { outcome: 'failure', errorMessage: hostile('job error') });
    const run = await runWorkflowStep();
    expect(run.exitCode).toBe(1);
    expect(world.sim.runs()[0].gitCommitMessage).toContain(`::error::${MARK}`);
    expect(run.stdout).toContain('Failed jobs: build');
    expectInert(run);
  });
});

describe('hostile-inputs.test.ts: the first case of the hostile-input matrix, through the root action', () => {
  const [label, command, inputs, names] = CASES[0];
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());

  it(`${label} (${command}): exit 1, one error naming the input; no request to the service`, async () => {
    const base = hostileCaseInputs(world);
    const known = base[command] ?? base['run-workflow'];
    const result = await runAction({
      entry: 'main',
      runtime: 'node24',
      inputs: { command, ...known, ...inputs },
      timeoutMs: 20_000,
    });
    expect(result.exitCode).toBe(1);
    const errors = result.errors;
    expect(errors).toHaveLength(1);
    // Named in backticks: `svc-go`, `svc-go: true`, `inputs.a` all name their input.
    expect(errors[0]).toContain(`\`${names}`);
    // The token is never echoed, even when it is the input at fault.
    expect(result.stdout.replace(`::add-mask::${TOKEN}`, '')).not.toContain(TOKEN);
    expect(result.stderr).toBe('');
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

// huge-answers.test.ts
/** Far above what the step needs (well under a second), far below what the quadratic work took (minutes). */
const SAFETY_NET_MS = 45_000;

describe('huge-answers.test.ts: a huge answer from the service, and a signal while the step handles it', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  sharedWorldHooks(() => world, { beforeEachTest: resetWithHugeAnswers });

  const start = hugeSessionStarter(BUNDLES, () => world, { runtime: RUNTIME, timeoutMs: SAFETY_NET_MS });
  const stop = async (main: ActionRun): Promise<void> => {
    const post = await runPost(main, { runtime: RUNTIME, inputs: world.api, timeoutMs: SAFETY_NET_MS });
    expect(post.exitCode).toBe(0);
  };

  it('SIGINT while the step handles it: the step answers it, and is not left deaf until killed', async () => {
    let output = '';
    let sent = false;
    const main = await start((child) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // The read that found the session ready: the step is handling the 600 kB answer now.
        if (!sent && output.includes('session: in-progress')) {
          sent = true;
          child.kill('SIGINT');
        }
      });
    });
    expect(sent).toBe(true);
    // Never killed by the safety net. The signal lands while the step still works (it then fails,
    // saying so), or just as it ends (its own outcome stands, or the signal's default ends it).
    expect(main.signal).not.toBe('SIGKILL');
    if (main.exitCode === 1) {
      expect(main.stdout).toContain('Received SIGINT: cancelling.');
      expect(main.errors).toContainEqual(expect.stringMatching(/^The step was cancelled/));
    } else if (main.exitCode === 0) expect(main.stdout).toContain('Device session ready after');
    else expect(main.signal).toBe('SIGINT');
    // Whichever it was, the post step stops the session.
    await stop(main);
  });
});

// capabilities.test.ts
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

describe('capabilities.test.ts: Appium capabilities in the log', () => {
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

// input-errors.test.ts
describe('input-errors.test.ts: input errors', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());

  it('a number YAML would change: says to quote it, without the value as written or as read', async () => {
    // `0x7fA3c9` is hexadecimal to YAML: 8365001.
    const run = await runAction({
      entry: 'run-workflow',
      runtime: 'node24',
      inputs: { ...world.api, workflow: 'e2e.yml', 'git-ref': 'main', inputs: 'deploy-key: 0x7fA3c9' },
    });
    expect(run.exitCode).toBe(1);
    const errors = run.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('`inputs.deploy-key` is a number that YAML would change');
    expect(errors[0]).toContain('quote it');
    for (const form of ['8365001', '0x7fA3c9', '7fA3c9', '7fa3c9']) {
      expect(run.stdout).not.toContain(form);
      expect(run.stderr).not.toContain(form);
    }
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

// loopback.test.ts
const WARNING = /Warning: `base-url` uses plain http to .*: the access token travels unencrypted\./;

describe('loopback.test.ts: plain-http warning', () => {
  let world: World;
  let port: string;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
    port = new URL(world.sim.url).port;
  });
  afterAll(() => world.sim.close());

  const dispatch = (baseUrl: string): Promise<ActionRun> =>
    runAction({
      entry: 'run-workflow',
      runtime: 'node24',
      inputs: {
        ...world.api,
        'base-url': baseUrl,
        workflow: 'e2e.yml',
        'git-ref': 'main',
        wait: 'false',
        // Fast retries for the hosts that do not answer (nothing listens there, or no such name).
        'poll-interval-seconds': '0.05',
      },
      env: { SVC_REQUEST_TIMEOUT_MS: '2000' },
      timeoutMs: 30_000,
    });

  it('warns for a remote host whose name starts with 127., not for loopback addresses', async () => {
    const remote = [
      'http://127.attacker.example',
      'http://127.0.0.1.attacker.example',
      'http://svc.example.com',
    ];
    const loopback = [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      `http://127.0.0.2:${port}`,
      `http://[::1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
    ];
    const runs = await Promise.all([...remote, ...loopback].map((url) => dispatch(url)));
    const warned = Object.fromEntries(
      [...remote, ...loopback].map((url, i) => [url, WARNING.test(renderLog(runs[i].stdout))]),
    );
    expect(warned).toEqual(
      Object.fromEntries([...remote.map((url) => [url, true]), ...loopback.map((url) => [url, false])]),
    );
    // The simulator itself, through loopback: dispatched, as before.
    expect(runs[remote.length].exitCode).toBe(0);
  });
});
