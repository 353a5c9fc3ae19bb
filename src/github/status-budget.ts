/**
 * How many commit statuses a step posts, and which first: GitHub allows about 80 content-creating
 * requests a minute and 500 an hour, and a service whose jobs flap between states must not turn
 * into thousands of posts. The run's context and final states go first; a context's first
 * `pending` and its intermediate states are paced and may wait or be skipped; a final state never
 * is while the budget lasts, since each context that shows `pending` keeps one post in reserve.
 */

export type StatusState = 'pending' | 'success' | 'failure' | 'error';

/** Posts one step may make: well under GitHub's 500 content-creating requests an hour. */
export const POST_BUDGET = 250;
/** First and intermediate posts in any minute at most: under GitHub's about 80 a minute. */
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
 * The contexts to post now, in order, given what was `spent` of the budget, how many posted
 * contexts show `pending`, the posts of the last minute, and whether the step is `ending` (then
 * every change is a final one); `budgetSkipped` when the reserve held a change back.
 */
export function chooseBatch(
  changes: readonly Change[],
  counts: { spent: number; pendingPosted: number; lastMinute: number; ending: boolean },
): { chosen: string[]; budgetSkipped: boolean } {
  let remaining = POST_BUDGET - counts.spent;
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
