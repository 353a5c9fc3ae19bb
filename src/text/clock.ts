/**
 * The step clock: the one source of time for everything a step schedules (the `timeout-minutes`
 * deadline, the poll's waits, the service client's back-off, the commit statuses' pacing, settle
 * window and back-off, sync-statuses' deadline). Real time in the bundle; an in-process test
 * replaces it (`replaceStepClock`) so that an hour of pacing or a 60-minute window passes in
 * milliseconds, whatever the machine's load.
 *
 * Not on it: the per-request socket time-out (a guard against a peer that never answers, which
 * only real time can show) and the log's own timestamps.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface StepClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`, or early (never rejecting) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const REAL_CLOCK: StepClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleepFor(Math.max(0, ms), undefined, { signal }).catch(() => undefined),
};

let current: StepClock = REAL_CLOCK;

/** The clock of the step running now. */
export function stepClock(): StepClock {
  return current;
}

/** Makes `clock` the step clock (a test of the sources in process); returns what puts the old one back. */
export function replaceStepClock(clock: StepClock): () => void {
  const before = current;
  current = clock;
  return () => {
    current = before;
  };
}
