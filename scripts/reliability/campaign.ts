/**
 * The fault campaign: randomised lifecycles of the two API commands (run-workflow, and
 * start-device-session followed by its post step), each run through the built dist/ exactly as the
 * runner runs it, against a fresh simulator with faults injected on every endpoint and, sometimes, a
 * SIGINT or SIGTERM at a random moment. Every lifecycle decides its correct outcome before it runs
 * and compares. Seeded: the same seed plans the same lifecycles.
 *
 * What counts as wrong (the goal for each is zero):
 * - an outcome that differs from the one decided up front (exit codes, `status` output, how the
 *   session ended, an error annotation on every failure, no "Unexpected error");
 * - a session left active after the post step whose id the action knew (saved in its state), unless
 *   the plan made the service refuse every stop and the post step failed naming the session;
 * - a session left active whose id the action never learned, unless the step failed saying the
 *   service may have processed the request (a lost create answer: no client can stop it);
 * - more than one run or session created by one lifecycle;
 * - a step the harness had to kill (the runner's SIGINT → SIGTERM → kill escalation, or a time limit);
 * - a stack trace in stdout or stderr.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { makeTempWorkflowRepo, startSimulator, type Fault, type Simulator } from '../../simulator/index.js';
import type { WorkflowRepo } from '../../simulator/fixture.js';
import { runAction, runPost, RUNTIME_NAMES, type ActionRun } from '../runner.js';

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: a small, fast, well-distributed 32-bit PRNG; the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

// ---------------------------------------------------------------------------------------------
// Faults

export const FAULT_KINDS = [
  '5xx',
  'reset before the response',
  'reset after processing',
  'partial body then reset',
  'slower than the request timeout',
  '429 without Retry-After',
  '429 with Retry-After',
  'HTML error page',
  'truncated JSON',
  'malformed JSON',
  'missing field',
  'unknown status',
  '4xx (401/403/404)',
] as const;
export type FaultKindName = (typeof FAULT_KINDS)[number];

export type Endpoint = 'dispatch' | 'run-read' | 'create' | 'session-read' | 'stop';

const MATCHERS: Record<Endpoint, { method: string; path: string | RegExp }> = {
  dispatch: { method: 'POST', path: '/v2/workflows/dispatch' },
  'run-read': { method: 'GET', path: '/v2/workflows/runs/' },
  create: { method: 'POST', path: /^\/v2\/device-run-sessions(\?|$)/ },
  'session-read': { method: 'GET', path: '/v2/device-run-sessions/' },
  stop: { method: 'POST', path: /^\/v2\/device-run-sessions\/[^/]+\/stop(\?|$)/ },
};

const ENDPOINT_NAMES: Record<Endpoint, string> = {
  dispatch: 'POST /v2/workflows/dispatch',
  'run-read': 'GET /v2/workflows/runs/:id',
  create: 'POST /v2/device-run-sessions',
  'session-read': 'GET /v2/device-run-sessions/:id',
  stop: 'POST /v2/device-run-sessions/:id/stop',
};

const NOT_IDEMPOTENT: Endpoint[] = ['dispatch', 'create'];
const UNKNOWN_STATUSES = ['queued', 'starting', 'paused-by-operator', 'SUCCESS'];
const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>upstream connect error</p></body></html>\n';

export interface PlannedFault {
  endpoint: Endpoint;
  kind: FaultKindName;
  times: number;
  /** Whether the step can still reach its scenario's outcome (retried away) or must fail because of it. */
  effect: 'transient' | 'fatal';
  fault: Fault;
}

/** How a fault of `kind` applied `times` times in a row on `endpoint` affects the step (retry.ts's policy). */
export function faultEffect(endpoint: Endpoint, kind: FaultKindName, times: number): 'transient' | 'fatal' {
  if (kind === 'unknown status') return 'transient';
  if (kind === '4xx (401/403/404)') return 'fatal';
  // Six attempts in all (DEFAULT_RETRY_POLICY.maxAttempts): five failures in a row are retried away.
  if (kind.startsWith('429')) return times < 6 ? 'transient' : 'fatal';
  if (NOT_IDEMPOTENT.includes(endpoint)) return 'fatal';
  return times < 6 ? 'transient' : 'fatal';
}

function setData(json: unknown, change: (data: Record<string, unknown>) => void): unknown {
  const data = (json as { data?: unknown } | null)?.data;
  if (typeof data === 'object' && data !== null) change(data as Record<string, unknown>);
  return json;
}

function buildFault(
  endpoint: Endpoint,
  kind: FaultKindName,
  times: number,
  rng: Rng,
  requestTimeoutMs: number,
): PlannedFault {
  const match = { ...MATCHERS[endpoint], times };
  let fault: Fault;
  switch (kind) {
    case '5xx':
      fault = {
        ...match,
        kind: 'status',
        status: rng.pick([500, 502, 503, 504]),
        processed: rng.chance(0.5),
      };
      break;
    case 'reset before the response':
      fault = { ...match, kind: 'reset', processed: false };
      break;
    case 'reset after processing':
      fault = { ...match, kind: 'reset', processed: true };
      break;
    case 'partial body then reset':
      fault = { ...match, kind: 'partial' };
      break;
    case 'slower than the request timeout':
      fault = { ...match, kind: 'delay', ms: requestTimeoutMs * 2, processed: rng.chance(0.5) };
      break;
    case '429 without Retry-After':
      fault = {
        ...match,
        kind: 'status',
        status: 429,
        body: { errors: [{ code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests, slow down' }] },
      };
      break;
    case '429 with Retry-After':
      fault = {
        ...match,
        kind: 'status',
        status: 429,
        headers: { 'Retry-After': rng.pick(['0', '1']) },
        body: { errors: [{ code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests, slow down' }] },
      };
      break;
    case 'HTML error page':
      fault = { ...match, kind: 'body', status: rng.pick([200, 502, 503]), body: HTML_PAGE };
      break;
    case 'truncated JSON':
      fault = { ...match, kind: 'body', body: '{"data":{"id":"3f0c2a1e-7c1d-4b0e-9a55-', status: 200 };
      break;
    case 'malformed JSON':
      fault = { ...match, kind: 'body', body: "{data: {id: 'x', status: new,}}", status: 200 };
      break;
    case 'missing field': {
      const field =
        endpoint === 'dispatch' || endpoint === 'create'
          ? 'id'
          : endpoint === 'run-read'
            ? rng.pick(['status', 'jobs', 'id'])
            : rng.pick(['status', 'id']);
      fault = { ...match, kind: 'mutate', mutate: (json) => setData(json, (data) => delete data[field]) };
      break;
    }
    case 'unknown status': {
      const status = rng.pick(UNKNOWN_STATUSES);
      fault = { ...match, kind: 'mutate', mutate: (json) => setData(json, (data) => (data.status = status)) };
      break;
    }
    case '4xx (401/403/404)': {
      const status = rng.pick([401, 403, 404]);
      const code = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[status];
      fault = {
        ...match,
        kind: 'status',
        status,
        body: { errors: [{ code, message: `Simulated ${status} for the campaign` }] },
      };
      break;
    }
  }
  return { endpoint, kind, times, effect: faultEffect(endpoint, kind, times), fault };
}

// ---------------------------------------------------------------------------------------------
// Plans

export type RunScenario = 'success' | 'job fails' | 'run canceled' | 'approval' | 'no wait' | 'timeout';
export type SessionScenario =
  | 'ready'
  | 'config lags'
  | 'extra status'
  | 'session errors before ready'
  | 'session errors after ready'
  | 'readiness timeout'
  | 'no wait';

export interface SignalPlan {
  signal: 'SIGINT' | 'SIGTERM';
  /** After the spawn of the main step. */
  afterMs: number;
}

export interface Expected {
  /** Exit code of the main step when no signal reached it while it ran. */
  mainExit: 0 | 1;
  /** Values allowed for the `status` output; null: must be absent; undefined: not checked. */
  status?: string[] | null;
  postExit: 0 | 1;
  /** How the session the action knew ended (device sessions only). */
  sessionEnd?: Array<'stopped' | 'errored' | 'active'>;
  /** Text the main step's error must contain. */
  errorIncludes?: string;
}

export interface LifecyclePlan {
  index: number;
  seed: number;
  command: 'run-workflow' | 'start-device-session';
  scenario: RunScenario | SessionScenario;
  runtime: string;
  debug: boolean;
  /** Injected before the main step. */
  faults: PlannedFault[];
  /** Injected before the post step (after the main step's leftover faults are cleared). */
  postFaults: PlannedFault[];
  signal?: SignalPlan;
  inputs: Record<string, string>;
  expected: Expected;
}

export const REQUEST_TIMEOUT_MS = 1000;
const POLL = '0.05';
const TIMEOUT_MINUTES = '0.01'; // 600 ms

const RUN_SCENARIOS: RunScenario[] = [
  'success',
  'job fails',
  'run canceled',
  'approval',
  'no wait',
  'timeout',
];
const SESSION_SCENARIOS: SessionScenario[] = [
  'ready',
  'config lags',
  'extra status',
  'session errors before ready',
  'session errors after ready',
  'readiness timeout',
  'no wait',
];
const SESSION_TYPES = [
  ['agent-device', 'ios'],
  ['agent-device', 'android'],
  ['argent', 'ios'],
  ['appium', 'android'],
  ['serve-sim', 'ios'],
] as const;

function randomFault(endpoint: Endpoint, rng: Rng, allowFatal: boolean): PlannedFault {
  const kinds = FAULT_KINDS.filter(
    (kind) =>
      !(kind === 'unknown status' && endpoint === 'dispatch') &&
      (allowFatal || faultEffect(endpoint, kind, 1) === 'transient'),
  );
  const kind = rng.pick(kinds);
  let times = rng.pick([1, 1, 2, 3]);
  if (kind === '429 with Retry-After') times = rng.int(1, 2);
  else if (kind === 'slower than the request timeout') times = rng.int(1, 2);
  // Now and then a read that fails six times in a row: retries give up, the step must fail clearly.
  if (allowFatal && !NOT_IDEMPOTENT.includes(endpoint) && kind !== 'unknown status' && rng.chance(0.12))
    times = 6;
  return buildFault(endpoint, kind, times, rng, REQUEST_TIMEOUT_MS);
}

/** Plans lifecycle `index` of the campaign seeded with `seed`: the same arguments give the same plan. */
export function planLifecycle(seed: number, index: number, runtimes: readonly string[]): LifecyclePlan {
  const lifecycleSeed = (mulberry32(seed)() * 2 ** 32 + index * 0x9e3779b1) >>> 0;
  const rng = new Rng(lifecycleSeed);
  const command = rng.chance(0.5) ? 'run-workflow' : 'start-device-session';
  const runtime = rng.pick(runtimes);
  const debug = rng.chance(0.2);
  const signal: SignalPlan | undefined = rng.chance(0.22)
    ? { signal: rng.pick(['SIGINT', 'SIGTERM'] as const), afterMs: rng.int(20, 900) }
    : undefined;
  const faultCount = rng.pick([0, 1, 1, 2, 2, 3]);
  const plan = command === 'run-workflow' ? planRun(rng, faultCount) : planSession(rng, faultCount, signal);
  return { index, seed: lifecycleSeed, command, runtime, debug, signal, ...plan };
}

type PartialPlan = Pick<LifecyclePlan, 'scenario' | 'faults' | 'postFaults' | 'inputs' | 'expected'>;

function planRun(rng: Rng, faultCount: number): PartialPlan {
  const scenario = rng.pick(RUN_SCENARIOS);
  const faults: PlannedFault[] = [];
  for (let i = 0; i < faultCount; i++) {
    const endpoint: Endpoint = rng.chance(0.35) ? 'dispatch' : 'run-read';
    if (faults.some((f) => f.endpoint === endpoint)) continue; // one fault per endpoint keeps the order exact
    faults.push(randomFault(endpoint, rng, true));
  }
  const inputs: Record<string, string> = {
    command: 'run-workflow',
    workflow: scenario === 'approval' ? 'release.yml' : 'gate.yml',
    'git-ref': 'main',
    'poll-interval-seconds': POLL,
  };
  if (scenario === 'no wait') inputs.wait = 'false';
  if (scenario === 'timeout') inputs['timeout-minutes'] = TIMEOUT_MINUTES;

  const fatal = (endpoint: Endpoint): PlannedFault | undefined =>
    faults.find((f) => f.endpoint === endpoint && f.effect === 'fatal');
  let expected: Expected;
  if (fatal('dispatch')) {
    expected = { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Dispatching workflow gate.yml' };
    if (scenario === 'approval') expected.errorIncludes = 'Dispatching workflow release.yml';
  } else if (scenario === 'no wait') {
    expected = { mainExit: 0, status: null, postExit: 0 };
  } else if (scenario === 'timeout') {
    expected = { mainExit: 1, postExit: 0 };
  } else if (fatal('run-read')) {
    expected = { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Reading workflow run' };
  } else {
    const outcome = {
      success: 'success',
      approval: 'success',
      'job fails': 'failure',
      'run canceled': 'canceled',
    }[scenario];
    expected = { mainExit: outcome === 'success' ? 0 : 1, status: [outcome], postExit: 0 };
    if (outcome !== 'success') expected.errorIncludes = `ended with status ${outcome}`;
  }
  return { scenario, faults, postFaults: [], inputs, expected };
}

function planSession(rng: Rng, faultCount: number, signal: SignalPlan | undefined): PartialPlan {
  const scenario = rng.pick(SESSION_SCENARIOS);
  const [type, platform] = rng.pick(SESSION_TYPES);
  const faults: PlannedFault[] = [];
  for (let i = 0; i < faultCount; i++) {
    const endpoint: Endpoint = rng.chance(0.35) ? 'create' : 'session-read';
    if (faults.some((f) => f.endpoint === endpoint)) continue;
    faults.push(randomFault(endpoint, rng, true));
  }
  const inputs: Record<string, string> = {
    command: 'start-device-session',
    platform,
    type,
    name: `campaign ${scenario}`,
    'poll-interval-seconds': POLL,
  };
  if (scenario === 'no wait') inputs.wait = 'false';
  if (scenario === 'readiness timeout') inputs['timeout-minutes'] = TIMEOUT_MINUTES;

  const fatal = (endpoint: Endpoint): PlannedFault | undefined =>
    faults.find((f) => f.endpoint === endpoint && f.effect === 'fatal');
  const createStatus = faults.find((f) => f.endpoint === 'create' && f.kind === 'unknown status');
  let expected: Expected;
  let mainStops = false; // the main step itself stops the session (its failure paths)
  if (fatal('create')) {
    expected = { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Creating the device session' };
  } else if (scenario === 'no wait') {
    // The create answer's status is passed on as is (a newer service may say `queued`).
    const status = createStatus ? unknownStatusOf(createStatus) : 'new';
    expected = { mainExit: 0, status: [status], postExit: 0, sessionEnd: ['stopped'] };
  } else if (scenario === 'session errors before ready') {
    expected = { mainExit: 1, status: ['errored'], postExit: 0, sessionEnd: ['errored'] };
    if (fatal('session-read')) expected.status = ['errored', 'stopped'];
    if (fatal('session-read')) expected.sessionEnd = ['errored', 'stopped'];
  } else if (scenario === 'readiness timeout') {
    expected = { mainExit: 1, status: ['stopped'], postExit: 0, sessionEnd: ['stopped'] };
    mainStops = true;
  } else if (fatal('session-read')) {
    expected = {
      mainExit: 1,
      status: ['stopped'],
      postExit: 0,
      sessionEnd: ['stopped'],
      errorIncludes: 'Reading device session',
    };
    mainStops = true;
  } else {
    expected = {
      mainExit: 0,
      status: ['in-progress'],
      postExit: 0,
      sessionEnd: scenario === 'session errors after ready' ? ['errored'] : ['stopped'],
    };
  }

  const postFaults: PlannedFault[] = [];
  if (mainStops && !signal && rng.chance(0.5)) {
    // The stop made by the main step's failure path meets a transient fault.
    const stopFault = randomFault('stop', rng, false);
    if (stopFault.kind !== 'unknown status') faults.push(stopFault);
  }
  const postStops = !fatal('create') && expected.mainExit === 0;
  if (postStops && rng.chance(0.45)) {
    const refused = !signal && rng.chance(0.35);
    if (refused) {
      // The service refuses every stop (without stopping): six failures in a row exhaust the retries.
      const kind = rng.pick(['5xx', 'reset before the response', '429 without Retry-After'] as const);
      const stopFault = buildFault('stop', kind, 6, rng, REQUEST_TIMEOUT_MS);
      if (stopFault.fault.kind === 'status') stopFault.fault.processed = false;
      postFaults.push(stopFault);
      // Every stop attempt failed: the post step must fail and name the session; it may still run.
      expected.postExit = 1;
      expected.sessionEnd = scenario === 'session errors after ready' ? ['errored'] : ['active', 'stopped'];
    } else {
      postFaults.push(randomFault('stop', rng, false));
    }
  }
  return { scenario, faults, postFaults, inputs, expected };
}

function unknownStatusOf(planned: PlannedFault): string {
  const probe = { data: { status: 'new' } };
  (planned.fault as { mutate: (json: unknown) => unknown }).mutate(probe);
  return probe.data.status;
}

// ---------------------------------------------------------------------------------------------
// Running a lifecycle

const GATE = `name: Gate
on: workflow_dispatch
jobs:
  build:
    name: Build iOS
    type: build
    params:
      platform: ios
  test:
    name: Tests
    needs: [build]
    outputs:
      result: passed
`;

const RELEASE = `name: Release
on: workflow_dispatch
jobs:
  approve:
    type: require-approval
  release:
    needs: [approve]
    type: build
`;

export interface LifecycleResult {
  plan: LifecyclePlan;
  main?: ActionRun;
  post?: ActionRun;
  /** The signal reached the main step while it was still running. */
  signalled: boolean;
  correct: boolean;
  problems: string[];
  leaked: number;
  orphaned: number;
  refusedStops: number;
  duplicates: number;
  hung: number;
  stackTraces: number;
  runs: number;
  sessions: number;
}

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

export async function runLifecycle(plan: LifecyclePlan, repo: WorkflowRepo): Promise<LifecycleResult> {
  const sim = await startSimulator({ readinessDelayMs: 100, defaultJobDurationMs: 60, cancelDelayMs: 20 });
  const result: LifecycleResult = {
    plan,
    signalled: false,
    correct: false,
    problems: [],
    leaked: 0,
    orphaned: 0,
    refusedStops: 0,
    duplicates: 0,
    hung: 0,
    stackTraces: 0,
    runs: 0,
    sessions: 0,
  };
  const watchers: NodeJS.Timeout[] = [];
  try {
    const account = sim.addAccount({ name: 'campaign' });
    const project = sim.addProject({ account, repoPath: repo.path, name: 'app' });
    const token = sim.addToken({ account, role: 'developer', robot: true });
    const inputs = { ...plan.inputs, token, 'base-url': sim.url, 'app-id': project.id };
    const env: Record<string, string> = { SVC_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) };
    if (plan.debug) env.RUNNER_DEBUG = '1';
    setUpScenario(sim, plan, watchers);
    for (const planned of plan.faults) sim.injectFault(planned.fault);

    let killedByHarness = false;
    const main = await runAction({
      inputs,
      env,
      runtime: plan.runtime,
      timeoutMs: 30_000,
      onSpawn: plan.signal
        ? (child) =>
            deliverSignal(
              child,
              plan.signal!,
              (alive) => (result.signalled ||= alive),
              () => (killedByHarness = true),
            )
        : undefined,
    });
    result.main = main;
    if (main.signal === 'SIGKILL' || killedByHarness) result.hung += 1;

    sim.clearFaults();
    const knownId = main.state['session-id'];
    if (plan.scenario === 'session errors after ready' && knownId && main.exitCode === 0)
      sim.failSession(knownId);
    for (const planned of plan.postFaults) sim.injectFault(planned.fault);
    const post = await runPost(main, { inputs, env, runtime: plan.runtime, timeoutMs: 30_000 });
    result.post = post;
    if (post.signal === 'SIGKILL') result.hung += 1;

    for (const id of watchers) clearInterval(id);
    judge(result, sim, knownId);
  } finally {
    for (const id of watchers) clearInterval(id);
    await sim.close();
  }
  return result;
}

function setUpScenario(sim: Simulator, plan: LifecyclePlan, watchers: NodeJS.Timeout[]): void {
  switch (plan.scenario) {
    case 'job fails':
      sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'assertion failed in checkout.spec' });
      break;
    case 'run canceled':
      sim.setJobBehaviour('build', { durationMs: 3000 });
      watchers.push(
        setInterval(() => {
          for (const run of sim.runs()) if (run.status === 'in-progress') sim.cancelRun(run.id);
        }, 15),
      );
      break;
    case 'approval':
      watchers.push(
        setInterval(() => {
          for (const run of sim.runs()) if (run.status === 'action-required') sim.approve(run.id);
        }, 120),
      );
      break;
    case 'timeout':
      sim.setJobBehaviour('build', { durationMs: 20_000 });
      break;
    case 'config lags':
      sim.setSessionBehaviour({ remoteConfigLagMs: 200 });
      break;
    case 'extra status':
      sim.setSessionBehaviour({
        extraStatusBeforeReady: 'queued',
        extraRemoteConfigFields: {
          previewApiUrl: 'https://preview.example/api',
          webPreviewToken: 'wpt-secret-0001',
        },
      });
      break;
    case 'session errors before ready':
      sim.setSessionBehaviour({ errorAfterMs: 30, readinessDelayMs: 2000 });
      break;
    case 'readiness timeout':
      sim.setSessionBehaviour({ readinessDelayMs: 20_000 });
      break;
  }
}

/**
 * Delivers the planned signal as the runner does on cancellation: the signal, then SIGTERM 7.5 s later,
 * then a kill 2.5 s after that. A step that needs the kill hung.
 */
function deliverSignal(
  child: ChildProcess,
  plan: SignalPlan,
  onDelivered: (alive: boolean) => void,
  onKilled: () => void,
): void {
  const timers: NodeJS.Timeout[] = [];
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  timers.push(
    setTimeout(() => {
      if (!running()) return onDelivered(false);
      onDelivered(child.kill(plan.signal));
      timers.push(
        setTimeout(() => running() && child.kill('SIGTERM'), 7500),
        setTimeout(() => {
          if (!running()) return;
          onKilled();
          child.kill('SIGKILL');
        }, 10_000),
      );
    }, plan.afterMs),
  );
  child.on('exit', () => timers.forEach(clearTimeout));
}

function errorLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error'));
}

function judge(result: LifecycleResult, sim: Simulator, knownId: string | undefined): void {
  const { plan, main, post } = result;
  const expected = plan.expected;
  const problems = result.problems;
  if (!main || !post) return;

  result.runs = sim.runs().length;
  result.sessions = sim.sessions().length;
  result.duplicates = Math.max(0, result.runs - 1) + Math.max(0, result.sessions - 1);
  if (result.duplicates > 0) problems.push(`created ${result.runs} runs and ${result.sessions} sessions`);

  for (const [name, run] of [
    ['main', main],
    ['post', post],
  ] as const) {
    if (STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)) {
      result.stackTraces += 1;
      const trace = STACK_TRACE.test(run.stderr) ? run.stderr : run.stdout;
      problems.push(`${name} printed a stack trace: ${trace.slice(0, 400).replace(/\s+/g, ' ')}`);
    }
    if (run.stdout.includes('Unexpected error in the action')) problems.push(`${name}: unexpected error`);
    if (run.exitCode !== 0 && errorLines(run).length === 0 && run.signal === null)
      problems.push(`${name} failed without an error annotation`);
  }

  const mayHaveProcessed = main.stdout.includes('may have processed the request anyway');
  if (result.signalled) {
    // A cancelled step never reports success; the normal outcome is fine if it had finished its work.
    const finishedFirst = main.exitCode === 0 && !main.stdout.includes('Received SIG');
    if (main.exitCode === 0 && !finishedFirst) problems.push('main exited 0 after a cancellation');
    // A request cut short by the cancellation is reported as the cancellation, not as a network error.
    if (errorLines(main).some((line) => /network error: aborted/.test(line)))
      problems.push('a cancelled request is reported as a network error');
    if (post.exitCode !== 0) problems.push(`post exited ${post.exitCode} after a cancellation`);
  } else {
    if (main.exitCode !== expected.mainExit)
      problems.push(`main exited ${main.exitCode ?? main.signal}, expected ${expected.mainExit}`);
    if (expected.status === null && 'status' in main.outputs)
      problems.push(`status output ${main.outputs.status}, expected none`);
    if (expected.status && !expected.status.includes(main.outputs.status ?? '(none)'))
      problems.push(
        `status output ${main.outputs.status ?? '(none)'}, expected ${expected.status.join(' or ')}`,
      );
    if (expected.errorIncludes && !errorLines(main).some((line) => line.includes(expected.errorIncludes!)))
      problems.push(`main error does not mention "${expected.errorIncludes}"`);
    if (post.exitCode !== expected.postExit)
      problems.push(`post exited ${post.exitCode}, expected ${expected.postExit}`);
  }

  if (plan.command === 'start-device-session') {
    const known = knownId ? sim.getSession(knownId) : undefined;
    if (known && expected.sessionEnd && !result.signalled) {
      const end = known.status === 'stopped' || known.status === 'errored' ? known.status : 'active';
      if (!expected.sessionEnd.includes(end))
        problems.push(`session ended ${known.status}, expected ${expected.sessionEnd.join(' or ')}`);
    }
    if (!known && expected.sessionEnd && !result.signalled) problems.push('no session id saved in state');
    for (const session of sim.activeSessions()) {
      if (session.id !== knownId) {
        result.orphaned += 1;
        if (!mayHaveProcessed) {
          result.leaked += 1;
          problems.push(`session ${session.id} active, never reported`);
        }
      } else if (
        plan.postFaults.some((f) => f.effect === 'fatal') &&
        post.exitCode === 1 &&
        errorLines(post).some((line) => line.includes(session.id))
      ) {
        result.refusedStops += 1;
      } else {
        result.leaked += 1;
        problems.push(`session ${session.id} left active`);
      }
    }
  }
  result.correct = problems.length === 0;
}

// ---------------------------------------------------------------------------------------------
// The campaign

export interface CampaignOptions {
  seed: number;
  lifecycles: number;
  concurrency: number;
  runtimes?: readonly string[];
  /** Runs only these lifecycle indexes (replaying a failure with the same seed). */
  only?: number[];
  /** Called after each lifecycle (progress display). */
  onResult?: (result: LifecycleResult, done: number) => void;
}

export interface CampaignReport {
  seed: number;
  lifecycles: number;
  concurrency: number;
  runtimes: readonly string[];
  byCommand: Record<string, number>;
  byScenario: Record<string, number>;
  faultsByKind: Record<string, number>;
  faultsByEndpoint: Record<string, number>;
  faultedRequests: number;
  signals: Record<string, number>;
  signalsWhileRunning: number;
  correct: number;
  leaked: number;
  orphaned: number;
  refusedStops: number;
  duplicates: number;
  hung: number;
  stackTraces: number;
  durationMs: number;
  failures: LifecycleResult[];
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const runtimes = options.runtimes ?? RUNTIME_NAMES;
  const started = Date.now();
  const repo = await makeTempWorkflowRepo({ 'gate.yml': GATE, 'release.yml': RELEASE });
  const plans = Array.from({ length: options.lifecycles }, (_, index) =>
    planLifecycle(options.seed, index, runtimes),
  ).filter((plan) => !options.only || options.only.includes(plan.index));
  const results: LifecycleResult[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < plans.length) {
      const plan = plans[next++];
      const result = await runLifecycle(plan, repo);
      results.push(result);
      options.onResult?.(result, results.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    rmSync(repo.path, { recursive: true, force: true });
  }
  results.sort((a, b) => a.plan.index - b.plan.index);

  const count = (record: Record<string, number>, key: string, by = 1): void => {
    record[key] = (record[key] ?? 0) + by;
  };
  const report: CampaignReport = {
    seed: options.seed,
    lifecycles: results.length,
    concurrency: options.concurrency,
    runtimes,
    byCommand: {},
    byScenario: {},
    faultsByKind: Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])),
    faultsByEndpoint: {},
    faultedRequests: 0,
    signals: { SIGINT: 0, SIGTERM: 0 },
    signalsWhileRunning: 0,
    correct: 0,
    leaked: 0,
    orphaned: 0,
    refusedStops: 0,
    duplicates: 0,
    hung: 0,
    stackTraces: 0,
    durationMs: Date.now() - started,
    failures: [],
  };
  for (const result of results) {
    const { plan } = result;
    count(report.byCommand, plan.command);
    count(report.byScenario, `${plan.command}: ${plan.scenario}`);
    for (const planned of [...plan.faults, ...plan.postFaults]) {
      count(report.faultsByKind, planned.kind);
      count(report.faultsByEndpoint, planned.endpoint);
    }
    if (plan.signal) count(report.signals, plan.signal.signal);
    if (result.signalled) report.signalsWhileRunning += 1;
    if (result.correct) report.correct += 1;
    else report.failures.push(result);
    report.leaked += result.leaked;
    report.orphaned += result.orphaned;
    report.refusedStops += result.refusedStops;
    report.duplicates += result.duplicates;
    report.hung += result.hung;
    report.stackTraces += result.stackTraces;
  }
  return report;
}

/** Whether the campaign met its goals: every outcome correct, nothing leaked, duplicated, hung or traced. */
export function campaignPassed(report: CampaignReport): boolean {
  return (
    report.correct === report.lifecycles &&
    report.leaked === 0 &&
    report.duplicates === 0 &&
    report.hung === 0 &&
    report.stackTraces === 0
  );
}

export function renderTable(report: CampaignReport): string {
  const rows: Array<[string, string]> = [];
  const faults = Object.values(report.faultsByKind).reduce((a, b) => a + b, 0);
  rows.push(['lifecycles run', String(report.lifecycles)]);
  for (const [command, n] of Object.entries(report.byCommand).sort())
    rows.push([
      `  ${command === 'start-device-session' ? 'start-device-session + post' : `${command} + post`}`,
      String(n),
    ]);
  rows.push(['faults injected', String(faults)]);
  for (const kind of FAULT_KINDS) rows.push([`  ${kind}`, String(report.faultsByKind[kind] ?? 0)]);
  rows.push(['faults by endpoint', '']);
  for (const endpoint of Object.keys(MATCHERS) as Endpoint[])
    rows.push([`  ${ENDPOINT_NAMES[endpoint]}`, String(report.faultsByEndpoint[endpoint] ?? 0)]);
  const scenarioCount = (name: string): number =>
    Object.entries(report.byScenario)
      .filter(([key]) => key.endsWith(name))
      .reduce((a, [, n]) => a + n, 0);
  rows.push([
    '  session that errors (scenario)',
    String(scenarioCount('session errors before ready') + scenarioCount('session errors after ready')),
  ]);
  rows.push(['  run that is canceled (scenario)', String(scenarioCount('run canceled'))]);
  rows.push([
    'signals (SIGINT / SIGTERM), reaching a running step',
    `${report.signals.SIGINT} / ${report.signals.SIGTERM}, ${report.signalsWhileRunning}`,
  ]);
  rows.push(['outcomes correct', `${report.correct} / ${report.lifecycles}`]);
  rows.push(['sessions left active at the end', String(report.leaked)]);
  rows.push(['runs or sessions created twice', String(report.duplicates)]);
  rows.push(['steps that hung', String(report.hung)]);
  rows.push(['stack traces printed', String(report.stackTraces)]);
  rows.push(['(expected) create answer lost, step failed saying so; no id to stop', String(report.orphaned)]);
  rows.push([
    '(expected) every stop refused, post step failed naming the session',
    String(report.refusedStops),
  ]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const line = (label: string, value: string): string =>
    `| ${label.padEnd(width)} | ${value.padStart(valueWidth)} |`;
  return [
    `Fault campaign: seed ${report.seed}, ${report.lifecycles} lifecycles, concurrency ${report.concurrency}, runtimes ${report.runtimes.join(' + ')}, ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    line('measure', 'value'),
    `|${'-'.repeat(width + 2)}|${'-'.repeat(valueWidth + 2)}|`,
    ...rows.map(([label, value]) => line(label, value)),
  ].join('\n');
}

/** One line per wrong lifecycle, with what went wrong and how to replay it. */
export function describeFailures(report: CampaignReport): string {
  return report.failures
    .map((result) => {
      const { plan } = result;
      const faults = [...plan.faults, ...plan.postFaults]
        .map((f) => `${f.endpoint}:${f.kind}×${f.times}`)
        .join(', ');
      const signal = plan.signal ? ` ${plan.signal.signal}@${plan.signal.afterMs}ms` : '';
      return `#${plan.index} ${plan.command} "${plan.scenario}" on ${plan.runtime}${signal} [${faults || 'no faults'}]: ${result.problems.join('; ')}`;
    })
    .join('\n');
}
