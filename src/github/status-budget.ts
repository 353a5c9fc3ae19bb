/**
 * How many requests a step makes for its commit statuses, which first, and how fast: GitHub asks for
 * at least one second between writes, at most 80 content-creating requests a minute and 500 an hour,
 * and a service whose jobs flap between states must not turn into thousands of posts.
 *
 * - Writes go at least WRITE_SPACING_MS apart, final states included: at most 60 in any minute per
 *   step (statuses.ts waits on the step clock).
 * - A step's reads (the read-backs) and writes share one budget of REQUEST_BUDGET requests.
 * - The run's context and final states go first; a context's first `pending` and its intermediate
 *   states may wait or be skipped; a final state never is while the budget lasts, since each context
 *   that shows `pending` keeps one write in reserve, and READS_RESERVED reads are kept for the
 *   read-backs of the last batches.
 */

export type StatusState = 'pending' | 'success' | 'failure' | 'error';

/**
 * M, the requests (reads and writes) one step makes for its statuses at most: a 60-job run's 61
 * contexts need 122 writes (a first `pending` and a final state each) and about one read per batch;
 * 300 leaves room for intermediate states and stays within GitHub's 500 content-creating requests an
 * hour for one step (the hour is the repository's: see the README on posting fewer).
 */
export const REQUEST_BUDGET = 300;
/** The least time between two writes of one step (GitHub: "at least one second between each request"). */
export const WRITE_SPACING_MS = 1_000;
/** Reads kept out of the writes' share: the read-back before the last batch and the one after it. */
export const READS_RESERVED = 2;
/** First and intermediate posts in any minute at most (the spacing alone allows 60). */
export const PACE_PER_MINUTE = 60;
/** Of those, intermediate states (a pending context's next words, a flap) at most. */
export const PACE_INTERMEDIATE_PER_MINUTE = 30;

/** A context whose wanted state differs from what was last posted. */
export interface Change {
  context: string;
  /** The run's own context: before any job's. */
  primary: boolean;
  state: StatusState;
  /** The state last posted; undefined when none was. */
  last?: StatusState;
}

/**
 * The contexts to post now, in order, given the requests `spent`, how many posted contexts show
 * `pending`, the posts of the last minute, and whether the step is `ending` (then every change is a
 * final one); `budgetSkipped` when the reserve held a change back.
 */
export function chooseBatch(
  changes: readonly Change[],
  counts: { spent: number; pendingPosted: number; lastMinute: number; ending: boolean },
): { chosen: string[]; budgetSkipped: boolean } {
  let remaining = REQUEST_BUDGET - READS_RESERVED - counts.spent;
  let reserved = counts.pendingPosted;
  let paced = counts.lastMinute;
  let intermediate = 0;
  let budgetSkipped = false;
  const ranked = changes.map((change) => {
    const final = change.state !== 'pending' && (change.last === undefined || change.last === 'pending');
    // 0: a final state (or anything once the step ends), 1: a first post, 2: an intermediate one.
    const kind = counts.ending || final ? 0 : change.last === undefined ? 1 : 2;
    return { ...change, kind, order: (change.primary ? 0 : 3) + kind };
  });
  // The run's context first, then the jobs' final states, first posts, intermediate states.
  ranked.sort((a, b) => a.order - b.order);
  const chosen: string[] = [];
  for (const { context, kind, last, state } of ranked) {
    const settles = last === 'pending' && state !== 'pending' ? 1 : 0;
    const opens = last !== 'pending' && state === 'pending' ? 1 : 0;
    // A post that leaves a context pending must leave a post for its end.
    if (remaining - 1 < reserved - settles + opens) {
      budgetSkipped = true;
      continue;
    }
    if (kind === 1 && paced >= PACE_PER_MINUTE) continue;
    if (kind === 2 && (paced >= PACE_PER_MINUTE || intermediate >= PACE_INTERMEDIATE_PER_MINUTE)) continue;
    chosen.push(context);
    remaining--;
    reserved += opens - settles;
    if (kind > 0) paced++;
    if (kind === 2) intermediate++;
  }
  return { chosen, budgetSkipped };
}

/** Whether a read-back of one more page fits: the writes owed to pending contexts come first. */
export function readFits(spent: number, pendingPosted: number): boolean {
  return REQUEST_BUDGET - spent - 1 >= pendingPosted;
}

/** The least settle window after the verdict (what it was before pacing). */
export const SETTLE_MIN_MS = 60_000;
/** The longest settle window: 61 contexts at one a second, read-backs and a retry fit in it. */
export const SETTLE_CAP_MS = 180_000;
/** Room in the settle window beyond one second per context owed: read-backs and a retry. */
const SETTLE_SLACK_MS = 30_000;

/** How long the statuses may still be posted after the verdict when `owed` writes are left. */
export function settleWindowMs(owed: number): number {
  return Math.min(SETTLE_CAP_MS, Math.max(SETTLE_MIN_MS, owed * WRITE_SPACING_MS + SETTLE_SLACK_MS));
}
