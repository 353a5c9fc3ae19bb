/**
 * What a step shows, for each outcome: the job summary and the log as the runner renders them,
 * produced by the built bundles against the simulator and kept in docs/examples/ (linked from the
 * README) so a reader sees them before installing the action. The test fails when what the step
 * shows drifts from the committed examples;
 * `UPDATE_EXAMPLES=1 npm run test:e2e -- __tests__/e2e/examples.test.ts` rewrites them, to be read
 * and committed.
 *
 * Values that change from run to run (ids, ports, commit hashes, timestamps) are replaced by fixed
 * ones when written; elapsed times and progress lines (whose exact sequence depends on timing) are
 * left out of the comparison, but kept in the files.
 */
import { UUID } from '../../src/service/contract.js';
import { COMMANDS } from '../../src/commands/index.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { renderLog, runAction, ROOT, type ActionRun } from '../../testkit/runner/step.js';
import { createWorld, until, type World } from '../../testkit/world/world.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../../testkit/docs/workflows.js';
import { startReceiver } from '../../testkit/world/webhook-receiver.js';
import { GitHubStandIn } from '../../simulator/index.js';

const DIR = join(ROOT, 'docs', 'examples');
const UPDATE = process.env.UPDATE_EXAMPLES === '1';
const FAST = { 'poll-interval-seconds': '0.05' };

let world: World;
/** GitHub for the commands that talk to it (sync-statuses and the statuses it settles). */
const github = new GitHubStandIn();
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': WORKFLOW }, { readinessDelayMs: 300, defaultJobDurationMs: 400 });
  await github.start();
});
afterAll(async () => {
  expect(world.sim.activeSessions()).toEqual([]);
  await world.sim.close();
  await github.close();
});
beforeEach(() => world.sim.reset());

const WORKFLOW = workflow('Pull request checks', {
  ...BUILD_IOS,
  build_android: { name: 'Build Android', ...BUILD_ANDROID.build_android },
  e2e: { name: 'End-to-end tests', needs: ['build_ios', 'build_android'], steps: [{ run: 'npm test' }] },
});

interface Example {
  file: string;
  title: string;
  entry: string;
  inputs: Record<string, string>;
  /** Sets the simulator up before the step starts. */
  arrange?: (world: World) => void;
  /** What the step works on, made by an earlier step (a run, a session, a delivery): more inputs. */
  prepare?: (world: World) => Promise<Record<string, string>>;
  /** The step's environment beyond the runner's defaults (GitHub's side). */
  env?: () => Record<string, string>;
  /** Acts on the running step (a signal, a cancel) once `ready` holds. */
  interrupt?: { ready: (world: World) => boolean; act: (child: ChildProcess, world: World) => void };
  exitCode: number;
}

/**
 * Once `state` holds, true when the step has read the service since (a read answered): the step has
 * seen that state however late a busy machine let it poll, so what it shows does not depend on the load.
 */
function seenByStep(state: (world: World) => boolean): (world: World) => boolean {
  let readsBefore: number | undefined;
  const answeredReads = (w: World) =>
    w.sim.requests.filter((r) => r.method === 'GET' && !r.control && r.status !== null).length;
  return (w) => {
    if (readsBefore === undefined && state(w)) readsBefore = answeredReads(w);
    return readsBefore !== undefined && answeredReads(w) > readsBefore;
  };
}
const e2eGoing = (w: World): boolean =>
  w.sim.runs().some((r) => r.jobs.some((job) => job.key === 'e2e' && job.status === 'in-progress'));

const run = (extra: Record<string, string> = {}) => ({
  ...FAST,
  workflow: 'e2e.yml',
  'git-ref': 'main',
  ...extra,
});
const session = (extra: Record<string, string> = {}) => ({
  ...FAST,
  platform: 'ios',
  type: 'appium',
  ...extra,
});

/** Builds that end at once and an e2e job that outlasts any test: a run caught in its e2e job. */
function quickBuildsLongE2e(w: World): void {
  w.sim.setJobBehaviour('build_ios', { durationMs: 20 });
  w.sim.setJobBehaviour('build_android', { durationMs: 20 });
  w.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
}

const EXAMPLES: Example[] = [
  {
    file: 'run-succeeded.md',
    title: 'run-workflow: the run succeeds',
    entry: 'run-workflow',
    inputs: run(),
    exitCode: 0,
  },
  {
    file: 'run-failed.md',
    title: 'run-workflow: a job fails',
    entry: 'run-workflow',
    inputs: run(),
    arrange: (w) =>
      w.sim.setJobBehaviour('e2e', {
        durationMs: 300,
        outcome: 'failure',
        errorMessage: 'Detox: 3 of 120 tests failed',
      }),
    exitCode: 1,
  },
  {
    file: 'run-canceled.md',
    title: 'run-workflow: the run is canceled on the service',
    entry: 'run-workflow',
    inputs: run(),
    arrange: (w) => w.sim.setJobBehaviour('e2e', { durationMs: 60_000 }),
    interrupt: {
      ready: seenByStep(e2eGoing),
      act: (_child, w) => w.sim.cancelRun(w.sim.runs()[0].id),
    },
    exitCode: 1,
  },
  {
    file: 'run-timed-out.md',
    title: 'run-workflow: timeout-minutes is reached',
    entry: 'run-workflow',
    // 3 s of real time (a bundle's step has no other clock) for builds of 20 ms: whatever a busy
    // machine adds to the step's start, the builds have ended and e2e runs when the time is up.
    inputs: run({ 'timeout-minutes': '0.05' }),
    arrange: quickBuildsLongE2e,
    exitCode: 1,
  },
  {
    file: 'run-step-cancelled.md',
    title: 'run-workflow: the step is cancelled while it waits',
    entry: 'run-workflow',
    inputs: run(),
    arrange: (w) => w.sim.setJobBehaviour('e2e', { durationMs: 60_000 }),
    interrupt: {
      ready: seenByStep(e2eGoing),
      act: (child) => child.kill('SIGINT'),
    },
    exitCode: 1,
  },
  {
    file: 'run-jobs-gated.md',
    title: 'run-workflow with `jobs`: the builds pass while the tests still run',
    entry: 'run-workflow',
    inputs: run({ jobs: 'build_ios, build_android' }),
    arrange: (w) => w.sim.setJobBehaviour('e2e', { durationMs: 60_000 }),
    exitCode: 0,
  },
  {
    file: 'wait-for-run-succeeded.md',
    title: 'wait-for-run: a run dispatched earlier succeeds',
    entry: 'wait-for-run',
    inputs: { ...FAST },
    prepare: async (w) => ({ 'run-id': await dispatched(w), 'expected-commit': '' }),
    exitCode: 0,
  },
  {
    file: 'wait-for-run-failed.md',
    title: 'wait-for-run: a job of the run fails',
    entry: 'wait-for-run',
    inputs: { ...FAST },
    arrange: (w) =>
      w.sim.setJobBehaviour('e2e', {
        durationMs: 300,
        outcome: 'failure',
        errorMessage: 'Detox: 3 of 120 tests failed',
      }),
    prepare: async (w) => ({ 'run-id': await dispatched(w), 'expected-commit': '' }),
    exitCode: 1,
  },
  {
    file: 'wait-for-run-canceled.md',
    title: 'wait-for-run: the run is canceled on the service',
    entry: 'wait-for-run',
    inputs: { ...FAST },
    arrange: (w) => w.sim.setJobBehaviour('e2e', { durationMs: 60_000 }),
    prepare: async (w) => ({ 'run-id': await dispatched(w), 'expected-commit': '' }),
    interrupt: {
      ready: seenByStep(e2eGoing),
      act: (_child, w) => w.sim.cancelRun(w.sim.runs()[0].id),
    },
    exitCode: 1,
  },
  {
    file: 'wait-for-run-timed-out.md',
    title: 'wait-for-run: timeout-minutes is reached (the run goes on)',
    entry: 'wait-for-run',
    inputs: { ...FAST, 'timeout-minutes': '0.05' },
    arrange: quickBuildsLongE2e,
    prepare: async (w) => ({ 'run-id': await dispatched(w), 'expected-commit': '' }),
    exitCode: 1,
  },
  {
    file: 'wait-for-run-wrong-commit.md',
    title: 'wait-for-run: the run is of another commit than `expected-commit`',
    entry: 'wait-for-run',
    // Seven digits: the examples replace whole and 12-digit SHAs with one stand-in.
    inputs: { ...FAST, 'expected-commit': 'deadbee' },
    // The step ends at its first read: the builds are held, so that read shows them running however
    // long the dispatch step before it took.
    arrange: (w) => {
      w.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
      w.sim.setJobBehaviour('build_android', { durationMs: 60_000 });
    },
    prepare: async (w) => ({ 'run-id': await dispatched(w) }),
    exitCode: 1,
  },
  {
    file: 'session-ready.md',
    title: 'start-device-session: the session is ready',
    entry: 'start-device-session',
    inputs: session({ name: 'checkout flow' }),
    exitCode: 0,
  },
  {
    file: 'session-errored.md',
    title: 'start-device-session: the session errors before it is ready',
    entry: 'start-device-session',
    inputs: session(),
    arrange: (w) => w.sim.setSessionBehaviour({ errorAfterMs: 100, readinessDelayMs: 5_000 }),
    exitCode: 1,
  },
  {
    file: 'session-timed-out.md',
    title: 'start-device-session: not ready within timeout-minutes (the session is stopped)',
    entry: 'start-device-session',
    inputs: session({ 'timeout-minutes': '0.01' }),
    arrange: (w) => w.sim.setSessionBehaviour({ readinessDelayMs: 60_000 }),
    exitCode: 1,
  },
  {
    file: 'session-step-cancelled.md',
    title: 'start-device-session: the step is cancelled while it waits (the session is stopped)',
    entry: 'start-device-session',
    inputs: session(),
    arrange: (w) => w.sim.setSessionBehaviour({ readinessDelayMs: 60_000 }),
    interrupt: {
      ready: seenByStep((w) => w.sim.sessions().length > 0),
      act: (child) => child.kill('SIGINT'),
    },
    exitCode: 1,
  },
  {
    file: 'wait-for-device-session-ready.md',
    title: 'wait-for-device-session: a session started earlier (wait: false) becomes ready',
    entry: 'wait-for-device-session',
    inputs: { ...FAST },
    prepare: async (w) => ({ 'session-id': await startedSession(w, { wait: 'false' }) }),
    exitCode: 0,
  },
  {
    file: 'wait-for-device-session-ended-after-ready.md',
    title: 'wait-for-device-session: the session had been ready, and errored before the step waited',
    entry: 'wait-for-device-session',
    inputs: { ...FAST },
    prepare: async (w) => {
      const id = await startedSession(w, {});
      w.sim.failSession(id);
      return { 'session-id': id };
    },
    exitCode: 1,
  },
  {
    file: 'wait-for-device-session-failed.md',
    title:
      'wait-for-device-session: the session cannot be followed (the service has no session with that id)',
    entry: 'wait-for-device-session',
    inputs: { ...FAST, 'session-id': '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0' },
    exitCode: 1,
  },
  {
    file: 'stop-device-session-stopped.md',
    title: 'stop-device-session: a ready session is stopped',
    entry: 'stop-device-session',
    // It has no poll interval: it waits for the stop's confirmation, within timeout-minutes.
    inputs: {},
    prepare: async (w) => ({ 'session-id': await startedSession(w, {}) }),
    exitCode: 0,
  },
  {
    file: 'verify-webhook-accepted.md',
    title: "verify-webhook: a build's delivery, signed by the service, is accepted",
    entry: 'verify-webhook',
    inputs: { 'webhook-secret': '${{ secrets.SVC_WEBHOOK_SECRET }}' },
    prepare: delivered,
    exitCode: 0,
  },
  {
    file: 'sync-statuses-settled.md',
    title: 'sync-statuses: the statuses a `wait: false` gate left pending are settled once its run has ended',
    entry: 'sync-statuses',
    inputs: {},
    env: () => githubEnv('schedule'),
    prepare: async (w) => {
      github.statuses.length = 0;
      github.addPullRequest({ number: 7, head: w.repo.headSha });
      const left = await runAction({
        entry: 'run-workflow',
        inputs: {
          ...w.api,
          workflow: 'e2e.yml',
          wait: 'false',
          'commit-statuses': 'true',
          'github-token': 'ghs_example0123456789',
        },
        env: githubEnv('pull_request'),
      });
      const runId = left.outputs['run-id'];
      await until(() => w.sim.runs().find((each) => each.id === runId && each.status === 'success'));
      return { 'github-token': '${{ github.token }}', __githubToken: 'ghs_example0123456789' };
    },
    exitCode: 0,
  },
];

/** A pull request's event file, and GitHub's API at its stand-in (the simulator's), for the commands that post statuses. */
function githubEnv(event: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-example-event-'));
  writeFileSync(
    join(dir, 'event.json'),
    JSON.stringify({ pull_request: { number: 7, head: { sha: world.repo.headSha } } }),
  );
  return {
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
  };
}

/** A run of e2e.yml dispatched by an earlier run-workflow step with `wait: false`: its id. */
async function dispatched(w: World): Promise<string> {
  const step = await runAction({
    entry: 'run-workflow',
    inputs: { ...w.api, workflow: 'e2e.yml', 'git-ref': 'main', wait: 'false' },
  });
  return step.outputs['run-id'];
}

/** A session started by an earlier start-device-session step (its post step not run yet): its id. */
async function startedSession(w: World, inputs: Record<string, string>): Promise<string> {
  const step = await runAction({
    entry: 'start-device-session',
    inputs: { ...w.api, ...session(), ...inputs },
  });
  return step.outputs['session-id'];
}

const WEBHOOK_SECRET = 'an-example-webhook-secret-0123456789';

/**
 * The delivery of a build's webhook, as a relay writes it for the workflow: the body in a file of the
 * workspace and the `svc-signature` header. The simulator signs and sends it when e2e.yml's builds end.
 */
async function delivered(w: World): Promise<Record<string, string>> {
  const receiver = await startReceiver(() => 200);
  try {
    w.sim.webhooks.add({
      projectId: w.project.id,
      event: 'BUILD',
      url: `${receiver.url}/build`,
      secret: WEBHOOK_SECRET,
    });
    await dispatched(w);
    // e2e.yml builds for both platforms: the iOS build's delivery, whichever comes first.
    const delivery = await until(() =>
      receiver
        .on('/build')
        .find((each) => (JSON.parse(each.body.toString()) as { platform?: string }).platform === 'ios'),
    );
    const dir = mkdtempSync(join(tmpdir(), 'svc-action-run-'));
    writeFileSync(join(dir, 'build.json'), delivery.body);
    return {
      signature: String(delivery.headers['svc-signature']),
      'payload-file': join(dir, 'build.json'),
      __secret: WEBHOOK_SECRET,
    };
  } finally {
    await receiver.close();
  }
}

async function show(example: Example): Promise<{ result: ActionRun; text: string }> {
  example.arrange?.(world);
  const {
    __secret: secret,
    __githubToken: githubToken,
    ...prepared
  } = (await example.prepare?.(world)) ?? {};
  const shown = { ...example.inputs, ...prepared };
  // The example shows the secret as a workflow writes it; the step gets its value.
  const given = {
    ...shown,
    ...(secret ? { 'webhook-secret': secret } : {}),
    ...(githubToken ? { 'github-token': githubToken } : {}),
  };
  // The service's settings a command reads: verify-webhook none, sync-statuses no project.
  const { 'app-id': appId, ...service } = world.api;
  const api =
    example.entry === 'verify-webhook'
      ? {}
      : example.entry === 'sync-statuses'
        ? service
        : { ...service, 'app-id': appId };
  let child: ChildProcess | undefined;
  const running = runAction({
    entry: example.entry,
    inputs: { ...api, ...given },
    env: example.env?.(),
    onSpawn: (spawned) => (child = spawned),
  });
  if (example.interrupt) {
    const { ready, act } = example.interrupt;
    await until(() => ready(world));
    // 200 ms for the step to take in an answer already sent: a loopback read, many times over.
    await new Promise((resolve) => setTimeout(resolve, 200));
    act(child!, world);
  }
  const result = await running;
  // A session the example left running (auto-stop: the post step) is stopped here, as the post step would.
  for (const active of world.sim.activeSessions())
    await fetch(`${world.sim.url}/v2/device-run-sessions/${active.id}/stop`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.token}` },
    });
  const inputs = Object.entries(shown).map(([name, value]) => `    ${name}: ${value}`);
  const text = [
    `# ${example.title}`,
    '',
    '[All examples](README.md). Produced by `__tests__/e2e/examples.test.ts` with the built bundle against the simulator.',
    '',
    '```yaml',
    `- uses: svc-actions/svc-action/${example.entry}@v1`,
    '  with:',
    ...inputs,
    '```',
    '',
    `Exit code: ${result.exitCode}`,
    '',
    '## Log',
    '',
    '```text',
    renderLog(result.stdout),
    '```',
    '',
    '## Job summary',
    '',
    result.summary.trim(),
    '',
  ].join('\n');
  return { result, text: stable(text) };
}

/** Fixed stand-ins for what changes from run to run, so the files read naturally and diff cleanly. */
function stable(text: string): string {
  const ids = new Map<string, string>();
  let result = text
    .replace(/(?<![-0-9a-f])[0-9a-f]{40}(?![-0-9a-f])/g, '3f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e')
    .replace(/(?<![-0-9a-f])[0-9a-f]{12}(?![-0-9a-f])/g, '3f2c9d1e8b7a')
    .replace(new RegExp(UUID.source.slice(1, -1), 'g'), (id) => {
      const n = ids.size + 1;
      if (!ids.has(id))
        ids.set(id, `${String(n).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`);
      return ids.get(id)!;
    });
  // The summary links a run by the first characters of its id.
  for (const [id, fixed] of ids) result = result.split(id.slice(0, 8)).join(fixed.slice(0, 8));
  return (
    result
      .replace(/http\\?:\/\/127\\?\.0\\?\.0\\?\.1\\?:\d+/g, 'https://svc.example.com')
      .replace(/127\.0\.0\.1:\d+/g, 'svc.example.com')
      // The step's working directory (the harness's temporary one) as a runner's workspace.
      .replace(/[^\s`]*svc-action-run-[A-Za-z0-9]+/g, '/home/runner/work/app/app')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '2026-11-22T09:30:00.000Z')
      .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/g, '2026-11-22 09:30:00 UTC')
  );
}

/** The comparison leaves out what depends on timing: elapsed times, sizes of timed payloads, progress lines. */
function comparable(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => !/^\[\d/.test(line) && !/^Received SIG/.test(line))
      .join('\n')
      .replace(/\b(\d+h\d{2}m|\d+m\d{2}s|\d+s)\b/g, '<t>')
      // A delivery's size: its timings' digits vary from run to run.
      .replace(/\(\d+ bytes\)/g, '(<n> bytes)')
      // The delivery key hashes the build's id, which the simulator draws afresh on every run.
      .replace(/\b[0-9a-f]{64}\b/g, '<sha-256>')
  );
}

/** docs/examples/README.md: every example, in the order of EXAMPLES. */
function examplesIndex(): string {
  return [
    '# What the steps show',
    '',
    'The job summary and the log (as the runner renders it) of a step for each outcome, produced by the',
    'built bundles against the simulator. `UPDATE_EXAMPLES=1 npm run test:e2e -- __tests__/e2e/examples.test.ts`',
    'writes them again.',
    '',
    ...EXAMPLES.map((example) => `- [${example.title}](${example.file})`),
    '',
  ].join('\n');
}

describe('docs/examples: what the step shows for each outcome', () => {
  afterAll(() => {
    if (UPDATE) writeFileSync(join(DIR, 'README.md'), examplesIndex());
  });

  test('the index lists every example, whichever were written last', () => {
    if (!UPDATE) expect(readFileSync(join(DIR, 'README.md'), 'utf8')).toBe(examplesIndex());
  });

  test('every command has an example', () => {
    expect([...new Set(EXAMPLES.map((example) => example.entry))].sort()).toEqual(
      Object.keys(COMMANDS).sort(),
    );
  });

  test('every example passes only inputs its command declares, as its usage block shows them', () => {
    const undeclared = EXAMPLES.flatMap((example) =>
      Object.keys(example.inputs)
        .filter((name) => !(name in COMMANDS[example.entry as keyof typeof COMMANDS].inputs))
        .map((name) => `${example.file}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  test.each(EXAMPLES)('$file', async (example) => {
    const { result, text } = await show(example);
    expect(result.exitCode).toBe(example.exitCode);
    expect(result.stderr).toBe('');
    const path = join(DIR, example.file);
    if (UPDATE) {
      mkdirSync(DIR, { recursive: true });
      // Written only when what is compared differs: run ids and times change on every run, and a
      // file the change did not touch must not show in its diff.
      if (!existsSync(path) || comparable(text) !== comparable(readFileSync(path, 'utf8')))
        writeFileSync(path, text);
      return;
    }
    expect(existsSync(path)).toBe(true);
    expect(comparable(text)).toBe(comparable(readFileSync(path, 'utf8')));
  });
});
