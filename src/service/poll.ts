/**
 * The one polling loop, shared by the run and session commands. It reads a resource every
 * `intervalMs` until `isDone` says so, the deadline passes or the signal aborts. The first read
 * happens one interval after the start when the resource was just created (it cannot have changed
 * yet), at once when it already existed (wait-for-run, wait-for-device-session).
 * Reads that fail are retried inside the service client; a read that still fails ends the poll.
 */
import { stepClock, type StepClock } from '../text/clock.js';

/** The spec's pace of status reads (and of stop retries) where no input sets one. */
export const DEFAULT_POLL_INTERVAL_MS = 5_000;

export type PollOutcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'timeout'; last: T | undefined }
  | { kind: 'aborted'; last: T | undefined };

interface PollOptions<T> {
  read: (limits: { deadline: number; signal?: AbortSignal }) => Promise<T>;
  isDone: (value: T) => boolean;
  /** Called after every read, for progress lines. */
  onRead?: (value: T) => void;
  intervalMs: number;
  /** Default true: the first read waits one interval. */
  firstReadAfterInterval?: boolean;
  /** Epoch ms: no read starts after it. */
  deadline: number;
  signal?: AbortSignal;
  /** The step clock unless a test gives its own, to see the waits scheduled whatever the machine's load. */
  clock?: PollClock;
}

/** The poll's only use of time: what time it is, and a wait that a cancellation ends early. */
export type PollClock = StepClock;

export async function poll<T>(options: PollOptions<T>): Promise<PollOutcome<T>> {
  const clock = options.clock ?? stepClock();
  let last: T | undefined;
  let nextReadAt = clock.now() + (options.firstReadAfterInterval === false ? 0 : options.intervalMs);
  for (;;) {
    // The last read happens at the deadline itself, so a run that ends just in time is still seen.
    const readAt = Math.min(nextReadAt, options.deadline);
    // A cancellation ends the wait early; it is seen on the next line.
    await clock.sleep(Math.max(0, readAt - clock.now()), options.signal);
    if (options.signal?.aborted) return { kind: 'aborted', last };
    const readStartedAt = clock.now();
    try {
      last = await options.read({ deadline: options.deadline, signal: options.signal });
    } catch (error) {
      // A read cut short by the cancellation is the cancellation, not a failure of the service.
      if (options.signal?.aborted) return { kind: 'aborted', last };
      throw error;
    }
    options.onRead?.(last);
    if (options.isDone(last)) return { kind: 'done', value: last };
    if (options.signal?.aborted) return { kind: 'aborted', last };
    if (readAt >= options.deadline || clock.now() >= options.deadline) return { kind: 'timeout', last };
    // Reads start at least one interval apart, never faster than the user asked.
    nextReadAt = readStartedAt + options.intervalMs;
  }
}
