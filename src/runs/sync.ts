/**
 * sync-statuses: settles the `pending` commit statuses this action left (a `wait: false` dispatch,
 * or a waiting step that could not end them), by the same rules as a step that follows a run
 * (commit-statuses.ts): `success` only for a run of that exact commit that succeeded.
 *
 * Nothing is trusted that this action did not write: a status is acted on only when it is the
 * latest of its context on the commit, `pending`, ends with this action's marker (status-marker.ts)
 * and was posted by the github-token's own account; its run is read by id at `base-url`, once, and
 * trusted only when the status links to the `url` the service gives for that run. A run of another
 * commit, or one the token cannot read, sets `error`; a run still going, or a read that failed for
 * a network fault, a 5xx or a 429, leaves the status for the next sync. Each context is read again
 * just before it is posted, so a newer verdict is never overwritten. Two syncs at once end alike.
 *
 * Here the reads and the posts; what to post is sync-plan.ts's, from what was read.
 */
import type { ActionIO } from '../runner/io.js';
import type { Octokit } from '../github/github-api.js';
import { commitStatuses, type ListedStatus } from '../github/status-list.js';
import { describe } from '../github/status-marker.js';
import type { ServiceClient } from '../service/client.js';
import { ServiceError } from '../service/errors.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { oneLine, withoutFinalDots } from '../text/one-line.js';
import { planSync, runsToRead, type CommitFound, type RunRead, type SyncReport } from './sync-plan.js';

export type { SyncEntry, SyncReport } from './sync-plan.js';

/**
 * GitHub requests one sync makes at most (the viewer, the open pull requests, each commit's
 * statuses read twice, the posts): the GITHUB_TOKEN has about 1,000 REST requests an hour.
 */
export const MAX_GITHUB_REQUESTS = 300;
/** Open pull requests looked at (one page). */
const MAX_PULL_REQUESTS = 100;
/** Pages of a commit's statuses read (100 each, newest first). */
const STATUS_PAGES = 3;

interface Repo {
  octokit: Octokit;
  owner: string;
  repo: string;
}

export async function syncStatuses(
  io: ActionIO,
  client: ServiceClient,
  github: Repo & { login: string },
  settings: { commit?: string; maxRuns: number; deadline: number; signal?: AbortSignal },
): Promise<SyncReport> {
  let requests = 1; // the viewer, read by the caller
  const request = () => ({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const spend = (): boolean => {
    if (requests >= MAX_GITHUB_REQUESTS) return false;
    requests++;
    return true;
  };
  const bound = `the bound of ${MAX_GITHUB_REQUESTS} GitHub requests a call`;
  const { octokit, owner, repo, login } = github;

  let commits: string[];
  if (settings.commit) commits = [settings.commit];
  else {
    spend();
    const pulls = await octokit.rest.pulls.list({
      owner,
      repo,
      state: 'open',
      per_page: MAX_PULL_REQUESTS,
      request: request(),
    });
    commits = [...new Set(pulls.data.map((pull) => pull.head.sha.toLowerCase()))];
    io.info(`Open pull requests: ${pulls.data.length}; head commits to look at: ${commits.length}.`);
  }

  /** The latest status of each context on `commit` (the list is newest first), within STATUS_PAGES pages. */
  const latestOf = async (commit: string): Promise<Map<string, ListedStatus>> => {
    const latest = new Map<string, ListedStatus>();
    for await (const status of commitStatuses(github, commit, STATUS_PAGES, spend))
      if (!latest.has(status.context)) latest.set(status.context, status);
    return latest;
  };

  const left: string[] = [];
  const found: CommitFound[] = [];
  for (const commit of commits) {
    if (!spend()) left.push(`commit ${commit}: ${bound}`);
    else found.push({ commit, latest: await latestOf(commit) });
  }

  const runs = new Map<string, RunRead>();
  for (const runId of runsToRead(found, login, settings.maxRuns))
    runs.set(runId, await readRun(client, runId, settings));
  const { posts, report } = planSync(found, runs, login, settings.maxRuns);
  report.left.push(...left);

  // Read again just before posting: a context that changed meanwhile (a newer verdict, another
  // sync) is left as it now is.
  for (const commit of commits) {
    const wanted = posts.filter((post) => post.commit === commit);
    if (wanted.length === 0) continue;
    if (!spend()) {
      report.left.push(`commit ${commit}: ${bound}`);
      continue;
    }
    const now = await latestOf(commit);
    for (const want of wanted) {
      const { context } = want;
      const current = now.get(context);
      if ((current?.id ?? undefined) !== (want.was?.id ?? undefined)) {
        if (want.state !== 'error' || want.was)
          report.pending.push({ commit, context, why: 'it changed while this sync ran' });
        continue;
      }
      if (!spend()) {
        report.pending.push({ commit, context, why: bound });
        continue;
      }
      const targetUrl = want.url ?? want.was?.target_url;
      await octokit.rest.repos.createCommitStatus({
        owner,
        repo,
        sha: commit,
        context,
        state: want.state,
        description: describe(want.words, want.poster),
        ...(targetUrl ? { target_url: targetUrl } : {}),
        request: request(),
      });
      if (!want.words.startsWith('Not trusted'))
        report.settled.push({ commit, context, why: want.words, state: want.state });
    }
  }
  return report;
}

/** One read of a run: what it says, or why it cannot be trusted, or why it waits for the next sync. */
async function readRun(
  client: ServiceClient,
  runId: string,
  settings: { deadline: number; signal?: AbortSignal },
): Promise<RunRead> {
  try {
    return {
      run: await client.getWorkflowRun(runId, { deadline: settings.deadline, signal: settings.signal }),
    };
  } catch (error) {
    return error instanceof ServiceError &&
      (error.status === 403 || error.status === 404 || error.status === 401)
      ? { refused: `the run cannot be read with this token (${error.status})` }
      : {
          later: `the run could not be read (${withoutFinalDots(oneLine(error instanceof Error ? error.message : String(error), 160))})`,
        };
  }
}
