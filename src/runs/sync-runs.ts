/**
 * sync-statuses' reads of runs, with the service's answers read for what they say of the sync's own
 * settings (`token`, `base-url`): a 401 is `token` refused where it was sent, so no more runs are
 * read; a 403 or 404 is one run this token cannot read (another project's, a deleted one), left
 * pending, at most MAX_UNREADABLE of them a call so that such runs cannot take every place; a read
 * that fails for the network or keeps answering 5xx means the service is not reachable now, so no
 * more runs are read this call. Only a run read successfully counts toward `max-runs`.
 */
import type { ServiceClient } from '../service/client.js';
import { NetworkError, RetriesExhaustedError, ServiceError } from '../service/errors.js';
import { stepClock } from '../text/clock.js';
import { oneLine, withoutFinalDots } from '../text/one-line.js';
import type { RunRead } from './sync-plan.js';

/** Runs a call tries that turn out unreadable (403, 404), at most: the others keep their places. */
export const MAX_UNREADABLE = 5;

/**
 * The sync's own policy for run reads: two attempts of at most 10 s each, one second apart, where a
 * step following its run makes six of 30 s. A sync has other runs to read and a next call to leave
 * this one to; an unreachable service costs it about 21 s, not minutes.
 */
export const SYNC_READ_POLICY = {
  retry: { maxAttempts: 2, baseDelayMs: 1_000, maxDelayMs: 1_000 },
  requestTimeoutMs: 10_000,
};

/** What the reads of one call showed. */
export interface RunReads {
  runs: Map<string, RunRead>;
  /** Why each run not read was not read. */
  notRead: Map<string, string>;
  /** Runs read successfully, and runs that answered 403 or 404. */
  read: number;
  unreadable: number;
  /** The service refused `token` (401): the message of the read that showed it. */
  tokenRefused?: string;
  /** The service could not be reached: why, once. */
  unreachable?: string;
  /** A 404 that did not come from the service (its advice on `base-url`). */
  notTheService?: string;
  /** Why some runs were left for the next call, with how many. */
  left: string[];
  /** Runs not read this call. */
  skipped: number;
}

const reasonOf = (error: unknown): string =>
  withoutFinalDots(
    oneLine(
      error instanceof Error && 'reason' in error && typeof error.reason === 'string'
        ? error.reason
        : error instanceof Error
          ? error.message
          : String(error),
      160,
    ),
  );

function refusesToken(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError &&
    (error.status === 401 || (error.status === 400 && error.code === 'UNAUTHORIZED_ERROR'))
  );
}

/** The service not reachable now: no answer, or only 5xx (or 429) through every attempt. */
function unreachable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof RetriesExhaustedError) return unreachable(error.lastError);
  return error instanceof ServiceError && (error.status >= 500 || error.status === 429);
}

/** Reads `ids` in order, within `maxRuns` and the rules above. */
export async function readRuns(
  client: ServiceClient,
  ids: readonly string[],
  settings: { maxRuns: number; deadline: number; signal?: AbortSignal },
): Promise<RunReads> {
  const reads: RunReads = {
    runs: new Map(),
    notRead: new Map(),
    read: 0,
    unreadable: 0,
    left: [],
    skipped: 0,
  };
  const skipped = new Map<string, number>();
  // `left`: the words of the list of work left for the next call; none for a refused token and an
  // unreachable service, which have a message of their own.
  const skip = (id: string, why: string, left?: string) => {
    reads.notRead.set(id, why);
    if (left !== undefined) skipped.set(left, (skipped.get(left) ?? 0) + 1);
  };
  for (const id of ids) {
    if (reads.tokenRefused) skip(id, 'the service refused `token`');
    else if (reads.unreachable) skip(id, 'the service could not be reached');
    else if (settings.signal?.aborted) skip(id, 'the step was cancelled', 'the step was cancelled');
    else if (reads.read >= settings.maxRuns)
      skip(id, `max-runs (${settings.maxRuns}) reached`, `max-runs (${settings.maxRuns}) reached`);
    else if (reads.unreadable >= MAX_UNREADABLE)
      skip(
        id,
        `${MAX_UNREADABLE} runs this token cannot read were tried`,
        `${MAX_UNREADABLE} unreadable runs tried`,
      );
    else if (stepClock().now() >= settings.deadline)
      skip(id, 'the time allowed ran out', 'the time allowed ran out');
    else await readOne(client, id, settings, reads);
  }
  for (const [why, count] of skipped)
    reads.left.push(`${why}: ${count} ${count === 1 ? 'run' : 'runs'} not read this time`);
  reads.skipped = reads.notRead.size;
  return reads;
}

async function readOne(
  client: ServiceClient,
  id: string,
  settings: { deadline: number; signal?: AbortSignal },
  reads: RunReads,
): Promise<void> {
  try {
    reads.runs.set(id, { run: await client.getWorkflowRun(id, settings) });
    reads.read++;
  } catch (error) {
    if (refusesToken(error)) {
      reads.tokenRefused = reasonOf(error);
      reads.runs.set(id, { later: 'the service refused `token`' });
    } else if (error instanceof ServiceError && (error.status === 403 || error.status === 404)) {
      reads.unreadable++;
      if (error.status === 404 && error.baseUrlAdvice) reads.notTheService ??= error.baseUrlAdvice;
      reads.runs.set(id, { later: `run ${id} cannot be read with this token (${error.status})` });
    } else if (unreachable(error)) {
      reads.unreachable = reasonOf(error);
      reads.runs.set(id, { later: `the service could not be reached (${reads.unreachable})` });
    } else reads.runs.set(id, { later: `the run could not be read (${reasonOf(error)})` });
  }
}

/**
 * Every run read answered 403 or 404: is `base-url` the service, and does it accept `token`? As the
 * dry run checks (dry-run.ts): one read of a run by an id that is not a UUID, which the spec answers
 * 400 (a random UUID's 404 is what any server that answers every path 404 sends; this 400 is the
 * service's own). Undefined: the service answered it so, so `token` is accepted and may belong to
 * another project; else what is wrong, `token` (401, 403, 400 UNAUTHORIZED_ERROR) or `base-url`
 * (a 404 there, or any other answer).
 */
export async function checkAddress(
  client: ServiceClient,
  settings: { deadline: number; signal?: AbortSignal },
): Promise<{ wrong: 'token' | 'base-url'; why: string } | undefined> {
  try {
    await client.readRunByIdNotAUuid(settings);
    return {
      wrong: 'base-url',
      why: 'it answered a read of a run by an id that is not a UUID with a run, where the service answers 400',
    };
  } catch (error) {
    if (refusesToken(error) || (error instanceof ServiceError && error.status === 403))
      return { wrong: 'token', why: reasonOf(error) };
    if (error instanceof ServiceError && error.status === 400) return undefined;
    return { wrong: 'base-url', why: reasonOf(error) };
  }
}
