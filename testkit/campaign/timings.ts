/**
 * The campaign's clock. Requests get a shorter time limit than the action's own; the runner's
 * escalation after a cancellation and the post step's grace are the product's own figures
 * (src/runner/timings.ts): on the runner's real clock for the main step, scaled for the post step.
 */
import { POST_STOP_GRACE_MS, RUNNER_CANCEL, RUNNER_KILL_AFTER_SIGINT_MS } from '../../src/runner/timings.js';

/** The campaign's time scale: a request time limit of 1 s instead of the action's own, polls of 50 ms. */
export const REQUEST_TIMEOUT_MS = 1000;
/**
 * The action's own request time limit (its default of SVC_REQUEST_TIMEOUT_MS, src/runner/service-client.ts),
 * for the lifecycles where the real one matters.
 */
export const PRODUCTION_REQUEST_TIMEOUT_MS = 30_000;

/** A cancellation as the runner escalates it: delays from the first signal to SIGTERM and to the kill. */
export interface Escalation {
  termAfterMs: number;
  killAfterMs: number;
}

/** The runner's escalation after a cancellation (src/runner/timings.ts). */
export const RUNNER_ESCALATION: Escalation = {
  termAfterMs: RUNNER_CANCEL.sigtermAfterSigintMs,
  killAfterMs: RUNNER_KILL_AFTER_SIGINT_MS,
};

/**
 * The post step's grace can be scaled (SVC_CANCEL_GRACE_MS), so signals to the post step run on a
 * quarter of the runner's clock: its SIGTERM, its kill and the post step's grace (POST_STOP_GRACE_MS)
 * each a quarter of the real delay, in the same proportions. The main step's stop on cancellation
 * (STOP_ON_CANCEL_MS) has no such setting, so signals to the main step keep the runner's real pace.
 */
export const POST_SIGNAL_SCALE = 0.25;
/** The escalation that signals to the post step follow. */
export const POST_ESCALATION: Escalation = {
  termAfterMs: RUNNER_ESCALATION.termAfterMs * POST_SIGNAL_SCALE,
  killAfterMs: RUNNER_ESCALATION.killAfterMs * POST_SIGNAL_SCALE,
};
/** The post step's grace after a signal, on the same scaled clock (passed as SVC_CANCEL_GRACE_MS). */
export const POST_GRACE_MS = POST_STOP_GRACE_MS * POST_SIGNAL_SCALE;
