/**
 * Commit statuses as GitHub keeps them (docs.github.com/en/rest/commits/statuses):
 * - `context` is case-insensitive ("This field is case-insensitive", create-a-commit-status): the
 *   latest status of `Build` replaces `build`'s in the combined view and in GraphQL's `contexts`;
 * - a commit's statuses are listed newest first ("Users with pull access in a repository can view
 *   commit statuses for a given ref ... Statuses are returned in reverse chronological order");
 * - each has an id, a node id, `created_at`/`updated_at` and its creator.
 * What a post may not be (the 422s) is in status-rules.ts.
 */
import { nodeId, simpleUser, type PostedStatus } from './model.js';

/** The key GitHub compares contexts by. */
export const contextKey = (context: string): string => context.toLowerCase();

/** Whether `status` is of `repository` (`owner/repo`); a status pushed without one is of every one. */
export const ofRepository = (status: PostedStatus, repository: string): boolean =>
  status.repository === undefined || status.repository.toLowerCase() === repository.toLowerCase();

/** The statuses of `sha` in `repository`, newest first. */
export function statusesOf(all: readonly PostedStatus[], repository: string, sha: string): PostedStatus[] {
  return all.filter((status) => status.sha === sha && ofRepository(status, repository)).reverse();
}

/** The latest status of each context (compared case-insensitively), in the order each was first posted. */
export function latestPerContext(all: readonly PostedStatus[]): PostedStatus[] {
  const latest = new Map<string, PostedStatus>();
  for (const status of all) {
    const key = contextKey(status.context);
    if (latest.has(key)) latest.delete(key);
    latest.set(key, status);
  }
  return [...latest.values()];
}

/** The combined state of the latest statuses (docs: get-the-combined-status-for-a-specific-reference). */
export function combinedState(latest: readonly PostedStatus[]): string {
  const states = latest.map((status) => status.state);
  if (states.some((state) => state === 'failure' || state === 'error')) return 'failure';
  if (states.length === 0 || states.some((state) => state === 'pending')) return 'pending';
  return 'success';
}

/** A status's id, node id and time, also for one a test pushed without them (its place among all). */
export function identity(
  status: PostedStatus,
  all: readonly PostedStatus[],
  now: number,
): { id: number; node_id: string; created_at: string } {
  const id = status.id ?? all.indexOf(status) + 1;
  return {
    id,
    node_id: status.node_id ?? nodeId('SC', id),
    created_at: status.created_at ?? new Date(status.receivedAt ?? now).toISOString(),
  };
}

/** A status as REST gives it (the `status` schema of GitHub's description). */
export function restStatus(
  status: PostedStatus,
  all: readonly PostedStatus[],
  now: number,
  api: string,
  fallbackCreator: string,
): Record<string, unknown> {
  const { id, node_id, created_at } = identity(status, all, now);
  const repository = status.repository ?? 'acme/app';
  return {
    url: `${api}/repos/${repository}/statuses/${status.sha}`,
    avatar_url: null,
    id,
    node_id,
    state: status.state,
    description: status.description ?? null,
    target_url: status.target_url ?? null,
    context: status.context,
    created_at,
    updated_at: created_at,
    creator: simpleUser({ login: status.creator?.login ?? fallbackCreator }),
  };
}
