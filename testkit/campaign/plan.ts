/**
 * What a lifecycle of the campaign is, decided before it runs: the command and its entry, the scenario,
 * the faults, the signals, and the outcome that is correct. planLifecycle draws one from a seed.
 */
import type { LifecyclePlan, SignalPlan } from './plan-types.js';
import { planLostCreate, planPostSignal } from './cancellations.js';
import { mulberry32, Rng } from './random.js';
import { planRun, planSession } from './scenarios.js';
import { REQUEST_TIMEOUT_MS } from './timings.js';

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
