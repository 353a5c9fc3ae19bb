/**
 * A commit's statuses as GitHub lists them (`GET /repos/{owner}/{repo}/commits/{ref}/statuses`):
 * newest first, in pages of 100, the whole history of every context. The step's read-back
 * (statuses.ts) reads them here; sync-statuses reads them back page by page (runs/sync-posts.ts).
 */
import type { Octokit } from './github-api.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';

/** A status as listed: what the read-back and the sync look at. */
export interface ListedStatus {
  id: number;
  context: string;
  state: string;
  description?: string | null;
  target_url?: string | null;
  creator?: { login?: string } | null;
  /** GraphQL's id of the status (a StatusContext's `id`): the sync's read-back compares it. */
  node_id?: string;
  created_at?: string;
}

/**
 * The statuses of `sha`, newest first, from at most `pages` pages; `another` is asked before each
 * page after the first (a caller's request budget) and stops the listing when it says no.
 */
export async function* commitStatuses(
  github: { octokit: Octokit; owner: string; repo: string },
  sha: string,
  pages: number,
  another: () => boolean = () => true,
): AsyncGenerator<ListedStatus> {
  const { octokit, owner, repo } = github;
  let read = 0;
  for await (const page of octokit.paginate.iterator(octokit.rest.repos.listCommitStatusesForRef, {
    owner,
    repo,
    ref: sha,
    per_page: 100,
    request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
  })) {
    yield* page.data as ListedStatus[];
    if (++read >= pages || !another()) return;
  }
}

/** One page (from 1) of `sha`'s statuses, 100 newest first, and whether another follows. */
export async function statusesPage(
  github: { octokit: Octokit; owner: string; repo: string },
  sha: string,
  page: number,
  signal: AbortSignal,
): Promise<{ statuses: ListedStatus[]; more: boolean }> {
  const { octokit, owner, repo } = github;
  const answer = await octokit.rest.repos.listCommitStatusesForRef({
    owner,
    repo,
    ref: sha,
    per_page: 100,
    page,
    request: { signal },
  });
  const statuses = answer.data as ListedStatus[];
  return { statuses, more: /\brel="next"/.test(answer.headers.link ?? '') };
}
