/**
 * What a lifecycle of the campaign is, decided before it runs: the command and its entry, the scenario,
 * the faults, the signals, and the outcome that is correct. planLifecycle draws one from a seed.
 */
import type { LifecyclePlan, SignalPlan } from './plan-types.js';
import { planLostCreate, planPostSignal } from './cancellations.js';
import { mulberry32, Rng } from './random.js';
import { planRun, planSession } from './scenarios.js';
import { PRODUCTION_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './timings.js';

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
  if (kind === 'post signal') return withLimits({ ...common, ...planPostSignal(rng, timeouts) });
  if (kind === 'lost create') return withLimits({ ...common, ...planLostCreate(rng, timeouts) });
  const signal: SignalPlan | undefined = rng.chance(0.22)
    ? { signal: rng.pick(['SIGINT', 'SIGTERM'] as const), afterMs: rng.int(20, 900) }
    : undefined;
  const faultCount = rng.pick([0, 1, 1, 2, 2, 3]);
  const plan = command === 'run-workflow' ? planRun(rng, faultCount) : planSession(rng, faultCount, signal);
  return withLimits({ ...common, signal, requestTimeoutMs: timeouts, ...plan });
}

/**
 * The steps' requests keep the campaign's short time limit (1 s) only when a fault of the lifecycle is
 * slower than it; otherwise the action's own (30 s), so that a busy machine's late answer to a request
 * no fault touches is never taken for a lost one (a main step without faults once failed its create
 * under a load average of 17). Both steps alike: the post step takes its limit from its main step's
 * state. No draw of the seed is involved: a seed plans the lifecycles it always did.
 */
function withLimits(plan: LifecyclePlan): LifecyclePlan {
  const slow = [...plan.faults, ...plan.postFaults].some(
    (planned) => planned.kind === 'slower than the request timeout',
  );
  if (slow) return plan;
  const limit = (ms: number): number => (ms === REQUEST_TIMEOUT_MS ? PRODUCTION_REQUEST_TIMEOUT_MS : ms);
  return {
    ...plan,
    requestTimeoutMs: { main: limit(plan.requestTimeoutMs.main), post: limit(plan.requestTimeoutMs.post) },
  };
}
