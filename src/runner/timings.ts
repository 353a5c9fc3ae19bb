/**
 * How the GitHub runner ends a cancelled step (field notes, "GitHub Actions runtime facts"): SIGINT
 * first, SIGTERM 7.5 s later, and a kill of the process tree 2.5 s after that. The post step, the
 * stop on cancellation, the fault campaign and the README all take these figures from here.
 */
export const RUNNER_CANCEL = {
  /** From SIGINT to SIGTERM. */
  sigtermAfterSigintMs: 7_500,
  /** From SIGTERM to the kill of the process tree. */
  killAfterSigtermMs: 2_500,
} as const;

/** From the first signal to the kill: everything after a cancellation must fit in it. */
export const RUNNER_KILL_AFTER_SIGINT_MS =
  RUNNER_CANCEL.sigtermAfterSigintMs + RUNNER_CANCEL.killAfterSigtermMs;

/**
 * How long the post step keeps stopping a session after a signal, before it reports what it knows:
 * 2 s before the kill, so the report is written while the process still may.
 */
export const POST_STOP_GRACE_MS = RUNNER_KILL_AFTER_SIGINT_MS - 2_000;

/**
 * How long the main step's stop on cancellation may take: it starts at SIGINT and must leave the
 * step time to report before SIGTERM's 2.5 s run out.
 */
export const STOP_ON_CANCEL_MS = RUNNER_CANCEL.sigtermAfterSigintMs - 1_500;
