/**
 * The two lifecycles aimed at the post step's promises (issue 11): a signal that reaches the post step
 * while it stops the session, and a create whose answer is lost.
 */
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js';
import { buildFault, MATCHERS, type PlannedFault } from './faults.js';
import type { LifecyclePlan, PartialPlan, SessionScenario } from './plan-types.js';
import type { Rng } from './random.js';
import { sessionInputs } from './scenarios.js';
import { PRODUCTION_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './timings.js';

/**
 * A session that becomes ready; then the post step's stop is slow (confirmed after a retry), refused
 * (every attempt fails) or hung (no answer, with the action's real request limit), and a signal
 * reaches the post step once its first stop request has arrived. The runner's escalation follows, on
 * the post step's scaled clock (POST_SIGNAL_SCALE).
 */
export function planPostSignal(
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
    const stopFault = buildFault('stop', kind, DEFAULT_RETRY_POLICY.maxAttempts + 2, rng, REQUEST_TIMEOUT_MS);
    if (stopFault.fault.kind === 'status') stopFault.fault.processed = false;
    postFaults.push(stopFault);
  } else {
    // The post step's request limit is its main step's (it ignores a later step's environment).
    requestTimeoutMs.main = requestTimeoutMs.post = PRODUCTION_REQUEST_TIMEOUT_MS;
    postFaults.push({
      endpoint: 'stop',
      kind: 'slower than the request timeout',
      times: 10,
      effect: 'fatal',
      fault: {
        ...MATCHERS.stop,
        times: 10,
        kind: 'delay',
        ms: PRODUCTION_REQUEST_TIMEOUT_MS * 2,
        processed: false,
      },
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
export function planLostCreate(
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
