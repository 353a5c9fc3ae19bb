/**
 * The fault campaign: randomised lifecycles of the two API commands (run-workflow, and
 * start-device-session followed by its post step), each run through the built dist/ bundles exactly
 * as the runner runs them (the root action with `command:` or the command's own sub-action, at
 * random), against a fresh simulator with faults injected on every endpoint and, sometimes, a SIGINT
 * or SIGTERM at a random moment. Two lifecycles aim at the post step's promises (issue 11):
 * - a signal that reaches the post step while it is stopping a session (slow, refused or hung stops),
 *   followed by the runner's escalation (SIGTERM 7.5 s after SIGINT, a kill 2.5 s later, scaled by
 *   POST_SIGNAL_SCALE together with the post step's grace);
 * - a create whose answer is lost (reset after processing, an answer slower than the request timeout,
 *   a cancellation during a slow create, the main step killed during it).
 * Every lifecycle decides its correct outcome before it runs and compares. Seeded: the same seed plans
 * the same lifecycles.
 *
 * What counts as wrong (the goal for each is zero):
 * - an outcome that differs from the one decided up front (exit codes, `status` output, how the
 *   session ended, an error annotation on every failure, no "Unexpected error");
 * - a session left active after the post step whose id the action knew (saved in its state), unless
 *   the post step failed with an error annotation naming the session and its URL (every stop refused,
 *   or a signal cut the stop short);
 * - a session left active whose id the action never learned, unless the post step warned that a
 *   session may exist (its create answer was lost: expected, counted apart, not a leak);
 * - more than one run or session created by one lifecycle;
 * - a step the harness had to kill (the runner's SIGINT → SIGTERM → kill escalation, or a time limit),
 *   except where the plan kills it;
 * - a stack trace in stdout or stderr.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { makeTempWorkflowRepo, startSimulator, type Fault, type Simulator } from '../../simulator/index.js';
import type { WorkflowRepo } from '../../simulator/fixture.js';
import { PLATFORMS, SESSION_TYPES } from '../../src/service/contract.js';
import { readSettings } from '../../src/inputs/index.js';
import { DEFAULT_RUNTIME, runAction, runPost, type ActionRun } from '../runner.js';

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
  | 'no wait'
  | 'signal during post'
  | 'create answer lost';

export interface SignalPlan {
  signal: 'SIGINT' | 'SIGTERM';
  /** After the spawn of the main step. */
  afterMs: number;
}

/** How the post step's stop misbehaves when the signal reaches it. */
export type PostSignalVariant = 'slow stop' | 'refused stops' | 'hung stop';

/** A signal delivered to the post step while it is stopping the session, then the runner's escalation. */
export interface PostSignalPlan {
  variant: PostSignalVariant;
  signal: 'SIGINT' | 'SIGTERM';
  /** After the first stop request reached the service. */
  afterStopMs: number;
}

export type LostCreateVariant =
  | 'reset after processing'
  | 'answer after the request timeout'
  | 'cancelled during a slow create'
  | 'killed during a slow create';

/** A create the service processes whose answer never reaches the main step. */
export interface LostCreatePlan {
  variant: LostCreateVariant;
  signal?: 'SIGINT' | 'SIGTERM';
  /** After the create request reached the service (for the variants with a signal). */
  afterCreateMs: number;
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
  /** `main`: the root action with `command:`; else the command's sub-action bundle. */
  entry: 'main' | 'run-workflow' | 'start-device-session';
  scenario: RunScenario | SessionScenario;
  debug: boolean;
  /** Injected before the main step. */
  faults: PlannedFault[];
  /** Injected before the post step (after the main step's leftover faults are cleared). */
  postFaults: PlannedFault[];
  signal?: SignalPlan;
  postSignal?: PostSignalPlan;
  lostCreate?: LostCreatePlan;
  /** The per-attempt request time limit of each step (SVC_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: { main: number; post: number };
  inputs: Record<string, string>;
  expected: Expected;
}

/** The campaign's time scale: a request time limit of 1 s instead of 30 s, polls of 50 ms. */
export const REQUEST_TIMEOUT_MS = 1000;
/** The action's own request time limit, for the lifecycles where the real one matters. */
const PRODUCTION_REQUEST_TIMEOUT_MS = 30_000;
/** The runner's escalation after a cancellation: SIGTERM 7.5 s after SIGINT, a kill 2.5 s later. */
export const RUNNER_TERM_AFTER_MS = 7500;
export const RUNNER_KILL_AFTER_MS = 10_000;
/** How long the post step keeps stopping after a signal (src/post.ts, GRACE_AFTER_SIGNAL_MS). */
const POST_GRACE_MS = 8000;
/**
 * The post step's grace can be scaled (SVC_CANCEL_GRACE_MS), so signals to the post step run on a
 * quarter of the runner's clock: SIGTERM after 1.875 s, the kill after 2.5 s, a grace of 2 s; the
 * same proportions as the real 7.5 s, 10 s and 8 s. The main step's stop on cancellation has no such
 * setting, so signals to the main step keep the runner's real pace.
 */
export const POST_SIGNAL_SCALE = 0.25;
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
/**
 * Every session type of the contract on every platform the action's own input rules accept for it
 * (serve-sim is iOS only), so a type added to the contract joins the campaign by itself.
 */
export const SESSION_KINDS: ReadonlyArray<readonly [string, string]> = SESSION_TYPES.flatMap((type) =>
  PLATFORMS.map((platform) => [type, platform] as const),
).filter(([type, platform]) => {
  const inputs: Record<string, string> = {
    token: 'campaign-token',
    'base-url': 'http://127.0.0.1:1',
    'app-id': '00000000-0000-4000-8000-000000000000',
    type,
    platform,
  };
  try {
    readSettings('start-device-session', {
      input: (name) => inputs[name] ?? '',
      env: {},
      readFile: () => '',
    });
    return true;
  } catch {
    return false;
  }
});

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
export function planLifecycle(seed: number, index: number): LifecyclePlan {
  const lifecycleSeed = (mulberry32(seed)() * 2 ** 32 + index * 0x9e3779b1) >>> 0;
  const rng = new Rng(lifecycleSeed);
  const kind = rng.pick([
    'run',
    'run',
    'run',
    'run',
    'session',
    'session',
    'session',
    'post signal',
    'post signal',
    'lost create',
  ] as const);
  const command = kind === 'run' ? 'run-workflow' : 'start-device-session';
  const entry = rng.chance(0.5) ? 'main' : command;
  // This draw once chose the Node runtime (20 or 24; now always the 24 that action.yml declares). It
  // is still made, so that a seed plans the lifecycles it always did.
  rng.float();
  const debug = rng.chance(0.2);
  const timeouts = { main: REQUEST_TIMEOUT_MS, post: REQUEST_TIMEOUT_MS };
  const common = { index, seed: lifecycleSeed, command, entry, debug } as const;
  if (kind === 'post signal') return { ...common, ...planPostSignal(rng, timeouts) };
  if (kind === 'lost create') return { ...common, ...planLostCreate(rng, timeouts) };
  const signal: SignalPlan | undefined = rng.chance(0.22)
    ? { signal: rng.pick(['SIGINT', 'SIGTERM'] as const), afterMs: rng.int(20, 900) }
    : undefined;
  const faultCount = rng.pick([0, 1, 1, 2, 2, 3]);
  const plan = command === 'run-workflow' ? planRun(rng, faultCount) : planSession(rng, faultCount, signal);
  return { ...common, signal, requestTimeoutMs: timeouts, ...plan };
}

type PartialPlan = Pick<LifecyclePlan, 'scenario' | 'faults' | 'postFaults' | 'inputs' | 'expected'>;

function sessionInputs(rng: Rng, scenario: SessionScenario): Record<string, string> {
  const [type, platform] = rng.pick(SESSION_KINDS);
  return {
    command: 'start-device-session',
    platform,
    type,
    name: `campaign ${scenario}`,
    'poll-interval-seconds': POLL,
  };
}

/**
 * A session that becomes ready; then the post step's stop is slow (confirmed after a retry), refused
 * (every attempt fails) or hung (no answer, with the action's real 30 s request limit), and a signal
 * reaches the post step once its first stop request has arrived. The runner's escalation follows, on
 * the post step's scaled clock (POST_SIGNAL_SCALE).
 */
function planPostSignal(
  rng: Rng,
  timeouts: LifecyclePlan['requestTimeoutMs'],
): PartialPlan & Pick<LifecyclePlan, 'postSignal' | 'requestTimeoutMs'> {
  const scenario: SessionScenario = 'signal during post';
  const variant = rng.pick([
    'slow stop',
    'slow stop',
    'refused stops',
    'refused stops',
    'hung stop',
  ] as const);
  const postFaults: PlannedFault[] = [];
  const requestTimeoutMs = { ...timeouts };
  if (variant === 'slow stop') {
    postFaults.push(
      buildFault('stop', 'slower than the request timeout', rng.int(1, 2), rng, REQUEST_TIMEOUT_MS),
    );
  } else if (variant === 'refused stops') {
    const kind = rng.pick(['5xx', 'reset before the response', '429 without Retry-After'] as const);
    // More failures than attempts: the post step's retries run out.
    const stopFault = buildFault('stop', kind, 8, rng, REQUEST_TIMEOUT_MS);
    if (stopFault.fault.kind === 'status') stopFault.fault.processed = false;
    postFaults.push(stopFault);
  } else {
    requestTimeoutMs.post = PRODUCTION_REQUEST_TIMEOUT_MS;
    postFaults.push({
      endpoint: 'stop',
      kind: 'slower than the request timeout',
      times: 10,
      effect: 'fatal',
      fault: { ...MATCHERS.stop, times: 10, kind: 'delay', ms: 60_000, processed: false },
    });
  }
  return {
    scenario,
    faults: [],
    postFaults,
    inputs: sessionInputs(rng, scenario),
    // The post step's outcome is judged apart (judgePostSignal): stopped, or an error naming the session.
    expected: { mainExit: 0, status: ['in-progress'], postExit: 1 },
    postSignal: {
      variant,
      signal: rng.pick(['SIGINT', 'SIGTERM'] as const),
      afterStopMs: rng.int(0, 400),
    },
    requestTimeoutMs,
  };
}

/**
 * A create the service processes but whose answer the main step never gets: the connection reset
 * after processing, an answer later than the request limit, a cancellation during such a slow create,
 * or the main step killed during it (the runner's kill at the end of its grace, compressed: the create
 * cannot be abandoned, so the main step only waits meanwhile). The post step must warn that a session
 * may exist.
 */
function planLostCreate(
  rng: Rng,
  timeouts: LifecyclePlan['requestTimeoutMs'],
): PartialPlan & Pick<LifecyclePlan, 'lostCreate' | 'requestTimeoutMs'> {
  const scenario: SessionScenario = 'create answer lost';
  const variant = rng.pick([
    'reset after processing',
    'answer after the request timeout',
    'cancelled during a slow create',
    'killed during a slow create',
  ] as const);
  const requestTimeoutMs = { ...timeouts };
  const slowCreate = (ms: number): PlannedFault => ({
    endpoint: 'create',
    kind: 'slower than the request timeout',
    times: 1,
    effect: 'fatal',
    fault: { ...MATCHERS.create, times: 1, kind: 'delay', ms, processed: true },
  });
  let fault: PlannedFault;
  if (variant === 'reset after processing')
    fault = buildFault('create', 'reset after processing', 1, rng, REQUEST_TIMEOUT_MS);
  else if (variant === 'killed during a slow create') {
    requestTimeoutMs.main = PRODUCTION_REQUEST_TIMEOUT_MS;
    fault = slowCreate(5000);
  } else fault = slowCreate(REQUEST_TIMEOUT_MS * 2);
  const signalled = variant === 'cancelled during a slow create' || variant === 'killed during a slow create';
  return {
    scenario,
    faults: [fault],
    postFaults: [],
    inputs: sessionInputs(rng, scenario),
    expected: { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Creating the device session' },
    lostCreate: {
      variant,
      signal: signalled ? rng.pick(['SIGINT', 'SIGTERM'] as const) : undefined,
      afterCreateMs: rng.int(0, 300),
    },
    requestTimeoutMs,
  };
}

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
    // `status` is the dispatch answer's (issue 12): the run has just been created.
    expected = { mainExit: 0, status: ['new', 'in-progress'], postExit: 0 };
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
  const faults: PlannedFault[] = [];
  for (let i = 0; i < faultCount; i++) {
    const endpoint: Endpoint = rng.chance(0.35) ? 'create' : 'session-read';
    if (faults.some((f) => f.endpoint === endpoint)) continue;
    faults.push(randomFault(endpoint, rng, true));
  }
  const inputs = sessionInputs(rng, scenario);
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
  /** The signal reached the post step while it was still stopping the session. */
  postSignalled: boolean;
  correct: boolean;
  problems: string[];
  leaked: number;
  /** Sessions whose id the action never learned, and the post step warned may exist (expected). */
  lostCreates: number;
  refusedStops: number;
  /** Post steps a signal reached: the session ended stopped / the post step failed naming it. */
  postSignalStopped: number;
  postSignalReported: number;
  /** Observations, not failures: see renderTable. */
  cancelledPostWithoutAnnotation: number;
  needlessWarnings: number;
  duplicates: number;
  hung: number;
  stackTraces: number;
  runs: number;
  sessions: number;
}

const STACK_TRACE = /\n\s+at .+:\d+:\d+/;
/** The post step's warning that a create whose answer was lost may have started a session. */
const MAY_EXIST = /^::warning[^:]*::.*device session may (be running|exist)/im;

export async function runLifecycle(plan: LifecyclePlan, repo: WorkflowRepo): Promise<LifecycleResult> {
  const sim = await startSimulator({ readinessDelayMs: 100, defaultJobDurationMs: 60, cancelDelayMs: 20 });
  const result: LifecycleResult = {
    plan,
    signalled: false,
    postSignalled: false,
    correct: false,
    problems: [],
    leaked: 0,
    lostCreates: 0,
    refusedStops: 0,
    postSignalStopped: 0,
    postSignalReported: 0,
    cancelledPostWithoutAnnotation: 0,
    needlessWarnings: 0,
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
    const inputs: Record<string, string> = {
      ...plan.inputs,
      token,
      'base-url': sim.url,
      'app-id': project.id,
    };
    // A sub-action has no `command` input: its bundle is the command.
    if (plan.entry !== 'main') delete inputs.command;
    const env = (requestTimeoutMs: number): Record<string, string> => ({
      SVC_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      ...(plan.debug ? { RUNNER_DEBUG: '1' } : {}),
    });
    setUpScenario(sim, plan, watchers);
    for (const planned of plan.faults) sim.injectFault(planned.fault);

    let killedByHarness = false;
    const lost = plan.lostCreate;
    let onMainSpawn: ((child: ChildProcess) => void) | undefined;
    if (plan.signal)
      onMainSpawn = (child) =>
        setTimeout(
          () =>
            escalate(
              child,
              plan.signal!.signal,
              RUNNER_ESCALATION,
              (alive) => (result.signalled ||= alive),
              () => (killedByHarness = true),
            ),
          plan.signal!.afterMs,
        );
    else if (lost?.signal)
      onMainSpawn = (child) =>
        afterArrival(sim, 'create', child, lost.afterCreateMs, () =>
          escalate(
            child,
            lost.signal!,
            // Killed soon after the signal, as the runner would at the end of its grace: the create
            // cannot be abandoned, so the step only waits for its answer meanwhile.
            lost.variant === 'killed during a slow create'
              ? { termAfterMs: 150, killAfterMs: 300 }
              : RUNNER_ESCALATION,
            (alive) => (result.signalled ||= alive),
            () => (killedByHarness = lost.variant !== 'killed during a slow create'),
          ),
        );
    const main = await runAction({
      entry: plan.entry,
      inputs,
      env: env(plan.requestTimeoutMs.main),
      timeoutMs: 30_000,
      onSpawn: onMainSpawn,
    });
    result.main = main;
    if (killedByHarness || (main.signal === 'SIGKILL' && lost?.variant !== 'killed during a slow create'))
      result.hung += 1;

    sim.clearFaults();
    const knownId = main.state['session-id'];
    // Only the root action and start-device-session have a post step (run-workflow/action.yml has none).
    if (plan.entry === 'run-workflow') {
      for (const id of watchers) clearInterval(id);
      judge(result, sim, knownId);
      return result;
    }
    if (plan.scenario === 'session errors after ready' && knownId && main.exitCode === 0)
      sim.failSession(knownId);
    for (const planned of plan.postFaults) sim.injectFault(planned.fault);
    let postKilled = false;
    const postSignal = plan.postSignal;
    const post = await runPost(main, {
      inputs,
      env: {
        ...env(plan.requestTimeoutMs.post),
        SVC_CANCEL_GRACE_MS: String(POST_GRACE_MS * POST_SIGNAL_SCALE),
      },
      timeoutMs: 30_000,
      onSpawn: postSignal
        ? (child) =>
            afterArrival(sim, 'stop', child, postSignal.afterStopMs, () =>
              escalate(
                child,
                postSignal.signal,
                POST_ESCALATION,
                (alive) => (result.postSignalled ||= alive),
                () => (postKilled = true),
              ),
            )
        : undefined,
    });
    result.post = post;
    if (postKilled || post.signal === 'SIGKILL') result.hung += 1;

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

const RUNNER_ESCALATION = { termAfterMs: RUNNER_TERM_AFTER_MS, killAfterMs: RUNNER_KILL_AFTER_MS };
const POST_ESCALATION = {
  termAfterMs: RUNNER_TERM_AFTER_MS * POST_SIGNAL_SCALE,
  killAfterMs: RUNNER_KILL_AFTER_MS * POST_SIGNAL_SCALE,
};

/**
 * Delivers `signal` now as the runner does on cancellation, then SIGTERM and a kill at the given
 * delays. `onDelivered` says whether the step was still running; `onKilled` runs before the kill.
 */
function escalate(
  child: ChildProcess,
  signal: NodeJS.Signals,
  pace: { termAfterMs: number; killAfterMs: number },
  onDelivered: (alive: boolean) => void,
  onKilled: () => void,
): void {
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  if (!running()) return onDelivered(false);
  onDelivered(child.kill(signal));
  const timers = [
    setTimeout(() => running() && child.kill('SIGTERM'), pace.termAfterMs),
    setTimeout(() => {
      if (!running()) return;
      onKilled();
      child.kill('SIGKILL');
    }, pace.killAfterMs),
  ];
  child.on('exit', () => timers.forEach(clearTimeout));
}

/** Runs `then` `delayMs` after the first request to `endpoint` reached the simulator (while `child` runs). */
function afterArrival(
  sim: Simulator,
  endpoint: Endpoint,
  child: ChildProcess,
  delayMs: number,
  then: () => void,
): void {
  const from = sim.requests.length;
  const { method, path } = MATCHERS[endpoint];
  const matches = (request: { method: string; path: string; control?: boolean }): boolean =>
    !request.control &&
    request.method === method &&
    (typeof path === 'string' ? request.path.split('?')[0].startsWith(path) : path.test(request.path));
  let delayed: NodeJS.Timeout | undefined;
  const watcher = setInterval(() => {
    if (!sim.requests.slice(from).some(matches)) return;
    clearInterval(watcher);
    delayed = setTimeout(then, delayMs);
  }, 5);
  child.on('exit', () => {
    clearInterval(watcher);
    clearTimeout(delayed);
  });
}

function errorLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error'));
}

function judge(result: LifecycleResult, sim: Simulator, knownId: string | undefined): void {
  const { plan, main, post } = result;
  const expected = plan.expected;
  const problems = result.problems;
  if (!main) return;

  result.runs = sim.runs().length;
  result.sessions = sim.sessions().length;
  result.duplicates = Math.max(0, result.runs - 1) + Math.max(0, result.sessions - 1);
  if (result.duplicates > 0) problems.push(`created ${result.runs} runs and ${result.sessions} sessions`);

  for (const [name, run] of [
    ['main', main],
    ['post', post],
  ] as const) {
    if (!run) continue;
    if (STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)) {
      result.stackTraces += 1;
      const trace = STACK_TRACE.test(run.stderr) ? run.stderr : run.stdout;
      problems.push(`${name} printed a stack trace: ${trace.slice(0, 400).replace(/\s+/g, ' ')}`);
    }
    if (run.stdout.includes('Unexpected error in the action')) problems.push(`${name}: unexpected error`);
  }
  if (main.exitCode !== 0 && errorLines(main).length === 0 && main.signal === null)
    problems.push('main failed without an error annotation');
  const lost = plan.lostCreate;
  if (lost?.variant === 'killed during a slow create') {
    // Killed as planned: nothing of the main step to judge but the state it saved first.
    if (!main.state['create-in-flight'])
      problems.push('the killed main step saved no create-in-flight state');
  } else if (result.signalled) {
    // A cancelled step never reports success; the normal outcome is fine if it had finished its work.
    const finishedFirst = main.exitCode === 0 && !main.stdout.includes('Received SIG');
    if (main.exitCode === 0 && !finishedFirst) problems.push('main exited 0 after a cancellation');
    // A request cut short by the cancellation is reported as the cancellation, not as a network error.
    if (errorLines(main).some((line) => /network error: aborted/.test(line)))
      problems.push('a cancelled request is reported as a network error');
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
  }

  if (!post) {
    // A run-workflow sub-action step: no post step at all.
  } else if (plan.postSignal) judgePostSignal(result, sim, knownId);
  else {
    if (post.exitCode !== 0 && errorLines(post).length === 0 && post.signal === null)
      problems.push('post failed without an error annotation');
    if (result.signalled || lost?.signal) {
      if (post.exitCode !== 0) problems.push(`post exited ${post.exitCode} after a cancellation`);
    } else if (post.exitCode !== expected.postExit)
      problems.push(`post exited ${post.exitCode}, expected ${expected.postExit}`);
    // The root action's post step after a step that started no session says nothing above debug.
    const said = post.stdout
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^::(debug|add-mask)::/.test(line));
    if (plan.command === 'run-workflow' && said.length > 0)
      problems.push(`the post step of a run-workflow step printed: ${said.join(' / ').slice(0, 300)}`);
  }

  if (plan.command === 'start-device-session') {
    const known = knownId ? sim.getSession(knownId) : undefined;
    if (known && expected.sessionEnd && !result.signalled) {
      const end = known.status === 'stopped' || known.status === 'errored' ? known.status : 'active';
      if (!expected.sessionEnd.includes(end))
        problems.push(`session ended ${known.status}, expected ${expected.sessionEnd.join(' or ')}`);
    }
    if (!known && expected.sessionEnd && !result.signalled) problems.push('no session id saved in state');
    const warned = MAY_EXIST.test(post?.stdout ?? '');
    if (warned && sim.sessions().length === 0) result.needlessWarnings += 1;
    for (const session of sim.activeSessions()) {
      if (session.id !== knownId) {
        // The id never reached the action: only a warning from the post step can point at it.
        if (warned) result.lostCreates += 1;
        else {
          result.leaked += 1;
          problems.push(
            `session ${session.id} active, its id unknown to the action, and the post step did not warn`,
          );
        }
      } else if (plan.postSignal) {
        // Judged in judgePostSignal.
      } else if (
        post &&
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
    if (lost && !warned) problems.push('the post step did not warn that a session may exist');
  }
  result.correct = problems.length === 0;
}

/**
 * A signal reached the post step while it was stopping the session. Correct: the session ended
 * stopped (or errored), or the post step exited 1 with an error annotation naming the session and its
 * URL. Never silent: never killed by the runner's escalation, never exit 0 with the session running.
 */
function judgePostSignal(result: LifecycleResult, sim: Simulator, knownId: string | undefined): void {
  const { main, post, problems } = result;
  if (!main || !post) return;
  const session = knownId ? sim.getSession(knownId) : undefined;
  if (!session) {
    problems.push('no session id saved in state for the post step');
    return;
  }
  const url = main.state['session-url'] ?? '';
  if (session.status === 'stopped' || session.status === 'errored') {
    result.postSignalStopped += 1;
    if (post.exitCode !== 0 && errorLines(post).length === 0) result.cancelledPostWithoutAnnotation += 1;
    return;
  }
  const named = errorLines(post).some((line) => line.includes(session.id) && line.includes(url));
  if (post.exitCode === 1 && named) {
    result.postSignalReported += 1;
    return;
  }
  result.leaked += 1;
  problems.push(
    `session ${session.id} left ${session.status} after a ${result.plan.postSignal?.signal} during the post step's stop (${result.plan.postSignal?.variant}), ` +
      `post ${post.signal ? `killed by ${post.signal}` : `exited ${post.exitCode}`} ${named ? 'naming it' : 'without an error naming the session and its URL'}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The campaign

export interface CampaignOptions {
  seed: number;
  lifecycles: number;
  concurrency: number;
  /** Runs only these lifecycle indexes (replaying a failure with the same seed). */
  only?: number[];
  /** Called after each lifecycle (progress display). */
  onResult?: (result: LifecycleResult, done: number) => void;
}

export interface CampaignReport {
  seed: number;
  lifecycles: number;
  concurrency: number;
  byCommand: Record<string, number>;
  byScenario: Record<string, number>;
  faultsByKind: Record<string, number>;
  faultsByEndpoint: Record<string, number>;
  faultedRequests: number;
  signals: Record<string, number>;
  signalsWhileRunning: number;
  /** Lifecycles with a signal planned for the post step's stop, by variant; how many reached it. */
  postSignals: Record<string, number>;
  postSignalsWhileStopping: number;
  postSignalStopped: number;
  postSignalReported: number;
  /** Lifecycles whose create answer was lost, by variant. */
  lostCreatePlans: Record<string, number>;
  correct: number;
  leaked: number;
  lostCreates: number;
  refusedStops: number;
  cancelledPostWithoutAnnotation: number;
  needlessWarnings: number;
  duplicates: number;
  hung: number;
  stackTraces: number;
  durationMs: number;
  failures: LifecycleResult[];
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const repo = await makeTempWorkflowRepo({ 'gate.yml': GATE, 'release.yml': RELEASE });
  const plans = Array.from({ length: options.lifecycles }, (_, index) =>
    planLifecycle(options.seed, index),
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
    byCommand: {},
    byScenario: {},
    faultsByKind: Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])),
    faultsByEndpoint: {},
    faultedRequests: 0,
    signals: { SIGINT: 0, SIGTERM: 0 },
    signalsWhileRunning: 0,
    postSignals: {},
    postSignalsWhileStopping: 0,
    postSignalStopped: 0,
    postSignalReported: 0,
    lostCreatePlans: {},
    correct: 0,
    leaked: 0,
    lostCreates: 0,
    refusedStops: 0,
    cancelledPostWithoutAnnotation: 0,
    needlessWarnings: 0,
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
    if (plan.lostCreate?.signal) count(report.signals, plan.lostCreate.signal);
    if (result.signalled) report.signalsWhileRunning += 1;
    if (plan.postSignal) count(report.postSignals, `${plan.postSignal.variant}, ${plan.postSignal.signal}`);
    if (result.postSignalled) report.postSignalsWhileStopping += 1;
    if (plan.lostCreate) count(report.lostCreatePlans, plan.lostCreate.variant);
    if (result.correct) report.correct += 1;
    else report.failures.push(result);
    report.leaked += result.leaked;
    report.lostCreates += result.lostCreates;
    report.refusedStops += result.refusedStops;
    report.postSignalStopped += result.postSignalStopped;
    report.postSignalReported += result.postSignalReported;
    report.cancelledPostWithoutAnnotation += result.cancelledPostWithoutAnnotation;
    report.needlessWarnings += result.needlessWarnings;
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
      `  ${command === 'start-device-session' ? 'start-device-session + post' : `${command} (+ post, root action only)`}`,
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
    'signals to the main step (SIGINT / SIGTERM), reaching it running',
    `${report.signals.SIGINT} / ${report.signals.SIGTERM}, ${report.signalsWhileRunning}`,
  ]);
  const postSignals = Object.values(report.postSignals).reduce((a, b) => a + b, 0);
  rows.push([
    'signals to the post step during its stop, reaching it stopping',
    `${postSignals}, ${report.postSignalsWhileStopping}`,
  ]);
  for (const [variant, n] of Object.entries(report.postSignals).sort())
    rows.push([`  ${variant}`, String(n)]);
  rows.push(['  session ended stopped', String(report.postSignalStopped)]);
  rows.push([
    '  not confirmed: post failed naming the session and its URL',
    String(report.postSignalReported),
  ]);
  const lostPlans = Object.values(report.lostCreatePlans).reduce((a, b) => a + b, 0);
  rows.push(['creates whose answer was lost (planned)', String(lostPlans)]);
  for (const [variant, n] of Object.entries(report.lostCreatePlans).sort())
    rows.push([`  ${variant}`, String(n)]);
  rows.push(['outcomes correct', `${report.correct} / ${report.lifecycles}`]);
  rows.push(['sessions left active at the end', String(report.leaked)]);
  rows.push(['runs or sessions created twice', String(report.duplicates)]);
  rows.push(['steps that hung', String(report.hung)]);
  rows.push(['stack traces printed', String(report.stackTraces)]);
  rows.push([
    '(expected, not leaks) create answer lost: post step warned a session may exist',
    String(report.lostCreates),
  ]);
  rows.push([
    '(expected) every stop refused, post step failed naming the session',
    String(report.refusedStops),
  ]);
  rows.push([
    '(observed) post cancelled, session stopped, exit 1 without an error annotation',
    String(report.cancelledPostWithoutAnnotation),
  ]);
  rows.push([
    '(observed) post warned a session may exist; none did (the main step could not tell)',
    String(report.needlessWarnings),
  ]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const line = (label: string, value: string): string =>
    `| ${label.padEnd(width)} | ${value.padStart(valueWidth)} |`;
  return [
    `Fault campaign: seed ${report.seed}, ${report.lifecycles} lifecycles, concurrency ${report.concurrency}, on ${DEFAULT_RUNTIME}, ${(report.durationMs / 1000).toFixed(1)} s`,
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
      const postSignal = plan.postSignal
        ? ` post: ${plan.postSignal.signal} ${plan.postSignal.afterStopMs}ms after the stop arrived (${plan.postSignal.variant})`
        : '';
      const lost = plan.lostCreate
        ? ` create answer lost: ${plan.lostCreate.variant}${plan.lostCreate.signal ? ` (${plan.lostCreate.signal} ${plan.lostCreate.afterCreateMs}ms after the create arrived)` : ''}`
        : '';
      return `#${plan.index} (seed ${report.seed}) ${plan.command} via ${plan.entry === 'main' ? 'the root action' : 'its sub-action'} "${plan.scenario}"${signal}${postSignal}${lost} [${faults || 'no faults'}]: ${result.problems.join('; ')}`;
    })
    .join('\n');
}
