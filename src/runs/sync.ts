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
 */
import type { ActionIO } from '../runner/io.js';
import type { Octokit } from '../github/github-api.js';
import { commitStatuses, type ListedStatus } from '../github/status-list.js';
import { describe, parseMarker, type StatusPoster } from '../github/status-marker.js';
import type { StatusState } from '../github/statuses.js';
import { isRunTerminal, type WorkflowJob, type WorkflowRun } from '../service/contract.js';
import type { ServiceClient } from '../service/client.js';
import { ServiceError } from '../service/errors.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { oneLine, withoutFinalDots } from '../text/one-line.js';
import { jobContexts, jobState, MAX_JOB_STATUSES, STATES } from './status-words.js';

/**
 * GitHub requests one sync makes at most (the viewer, the open pull requests, each commit's
 * statuses read twice, the posts): the GITHUB_TOKEN has about 1,000 REST requests an hour.
 */
export const MAX_GITHUB_REQUESTS = 300;
/** Open pull requests looked at (one page). */
const MAX_PULL_REQUESTS = 100;
/** Pages of a commit's statuses read (100 each, newest first). */
const STATUS_PAGES = 3;

export interface SyncEntry {
  commit: string;
  context: string;
  why: string;
  /** The state a settled status was given. */
  state?: StatusState;
}

export interface SyncReport {
  settled: SyncEntry[];
  pending: SyncEntry[];
  refused: SyncEntry[];
  /** Why some of the work was left for the next call (max-runs, the request bound). */
  left: string[];
}

interface Repo {
  octokit: Octokit;
  owner: string;
  repo: string;
}

/** What a run read says, once per run id. */
type RunRead = { run: WorkflowRun } | { refused: string } | { later: string };

export async function syncStatuses(
  io: ActionIO,
  client: ServiceClient,
  github: Repo & { login: string },
  settings: { commit?: string; maxRuns: number; deadline: number; signal?: AbortSignal },
): Promise<SyncReport> {
  const report: SyncReport = { settled: [], pending: [], refused: [], left: [] };
  let requests = 1; // the viewer, read by the caller
  const request = () => ({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const spend = (): boolean => {
    if (requests >= MAX_GITHUB_REQUESTS) return false;
    requests++;
    return true;
  };
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

  const runs = new Map<string, RunRead>();
  const readRun = async (runId: string): Promise<RunRead> => {
    const known = runs.get(runId);
    if (known) return known;
    let read: RunRead;
    try {
      read = {
        run: await client.getWorkflowRun(runId, { deadline: settings.deadline, signal: settings.signal }),
      };
    } catch (error) {
      read =
        error instanceof ServiceError &&
        (error.status === 403 || error.status === 404 || error.status === 401)
          ? { refused: `the run cannot be read with this token (${error.status})` }
          : {
              later: `the run could not be read (${withoutFinalDots(oneLine(error instanceof Error ? error.message : String(error), 160))})`,
            };
    }
    runs.set(runId, read);
    return read;
  };

  for (const commit of commits) {
    if (!spend()) {
      report.left.push(`commit ${commit}: the bound of ${MAX_GITHUB_REQUESTS} GitHub requests a call`);
      continue;
    }
    const latest = await latestOf(commit);
    // This action's statuses on the commit, by the service run they name (any state: the run's
    // context tells the job contexts' prefix).
    const groups = new Map<string, { poster: StatusPoster; statuses: ListedStatus[] }>();
    for (const status of latest.values()) {
      const poster = parseMarker(status.description);
      if (!poster) continue;
      if (status.creator?.login?.toLowerCase() !== login.toLowerCase()) {
        if (status.state === 'pending')
          report.refused.push({
            commit,
            context: status.context,
            why: `posted by ${oneLine(status.creator?.login ?? 'an unknown account', 60)}, not this token's account: left alone`,
          });
        continue;
      }
      const group = groups.get(poster.serviceRunId) ?? { poster, statuses: [] };
      group.statuses.push(status);
      groups.set(poster.serviceRunId, group);
    }

    const wanted = new Map<
      string,
      { state: StatusState; words: string; poster: StatusPoster; was?: ListedStatus; url?: string }
    >();
    for (const [runId, group] of groups) {
      const pending = group.statuses.filter((status) => status.state === 'pending');
      if (pending.length === 0) continue;
      const entry = (status: ListedStatus, why: string): SyncEntry => ({
        commit,
        context: status.context,
        why,
      });
      if (!runs.has(runId) && runs.size >= settings.maxRuns) {
        for (const status of pending)
          report.pending.push(entry(status, `max-runs (${settings.maxRuns}) reached`));
        if (!report.left.some((why) => why.startsWith('max-runs')))
          report.left.push(`max-runs (${settings.maxRuns}) reached: runs not read this time`);
        continue;
      }
      const refuse = (status: ListedStatus, why: string) => {
        report.refused.push(entry(status, why));
        wanted.set(status.context, {
          state: 'error',
          words: `Not trusted: ${why}`,
          poster: group.poster,
          was: status,
        });
      };
      if (!/^[\w-]{1,64}$/.test(runId)) {
        for (const status of pending)
          report.refused.push(entry(status, 'its marker names no run id that can be read: left alone'));
        continue;
      }
      const read = await readRun(runId);
      if ('later' in read) {
        for (const status of pending) report.pending.push(entry(status, read.later));
        continue;
      }
      if ('refused' in read) {
        for (const status of pending) refuse(status, read.refused);
        continue;
      }
      const { run } = read;
      const trusted = pending.filter(
        (status) => status.target_url && run.url && status.target_url === run.url,
      );
      for (const status of pending)
        if (!trusted.includes(status)) refuse(status, "its link is not the run's own page");
      if (trusted.length === 0) continue;
      const runCommit = (run.gitCommitHash ?? '').trim().toLowerCase();
      if (runCommit !== commit) {
        for (const status of trusted)
          refuse(
            status,
            runCommit
              ? `the run is of commit ${oneLine(runCommit, 64)}, not this one`
              : 'the run does not name its commit',
          );
        continue;
      }
      if (!isRunTerminal(run)) {
        for (const status of trusted)
          report.pending.push(entry(status, `the run is still ${oneLine(run.status, 40)}`));
        continue;
      }
      // Among the statuses that link to the run: one that does not cannot name its contexts.
      const prefix = runContext(group.statuses.filter((status) => status.target_url === run.url));
      if (!prefix) {
        for (const status of trusted)
          refuse(status, "the run's own context is not among this commit's statuses");
        continue;
      }
      const ended = endedStates(prefix, run);
      for (const [context, [state, words]] of ended) {
        const was = latest.get(context);
        // Only a context this run left pending, or a job that appeared since; never another run's.
        if (was && !trusted.includes(was)) continue;
        wanted.set(context, { state, words, poster: group.poster, was, url: run.url ?? undefined });
      }
      for (const status of trusted)
        if (!ended.has(status.context))
          wanted.set(status.context, {
            state: 'error',
            words: 'The run no longer lists this job',
            poster: group.poster,
            was: status,
            url: run.url ?? undefined,
          });
    }
    if (wanted.size === 0) continue;

    // Read again just before posting: a context that changed meanwhile (a newer verdict, another
    // sync) is left as it now is.
    if (!spend()) {
      report.left.push(`commit ${commit}: the bound of ${MAX_GITHUB_REQUESTS} GitHub requests a call`);
      continue;
    }
    const now = await latestOf(commit);
    for (const [context, want] of wanted) {
      const current = now.get(context);
      if ((current?.id ?? undefined) !== (want.was?.id ?? undefined)) {
        if (want.state !== 'error' || want.was)
          report.pending.push({ commit, context, why: 'it changed while this sync ran' });
        continue;
      }
      if (!spend()) {
        report.pending.push({
          commit,
          context,
          why: `the bound of ${MAX_GITHUB_REQUESTS} GitHub requests a call`,
        });
        continue;
      }
      await octokit.rest.repos.createCommitStatus({
        owner,
        repo,
        sha: commit,
        context,
        state: want.state,
        description: describe(want.words, want.poster),
        ...((want.url ?? want.was?.target_url) ? { target_url: (want.url ?? want.was?.target_url)! } : {}),
        request: request(),
      });
      if (!want.words.startsWith('Not trusted'))
        report.settled.push({ commit, context, why: want.words, state: want.state });
    }
  }
  return report;
}

/** The run's own context among its statuses: the one every other is `<it>/…` of. */
function runContext(statuses: readonly ListedStatus[]): string | undefined {
  const contexts = statuses.map((status) => status.context);
  return contexts.find((candidate) =>
    contexts.every((other) => other === candidate || other.startsWith(`${candidate}/`)),
  );
}

/** The states of a run that ended: its context, then each job's (at most MAX_JOB_STATUSES). */
function endedStates(prefix: string, run: WorkflowRun): Map<string, [StatusState, string]> {
  const states = new Map<string, [StatusState, string]>();
  states.set(prefix, STATES[run.status] ?? ['error', `Ended ${oneLine(run.status, 40)}`]);
  const byKey = new Map<string, WorkflowJob>(run.jobs.map((job) => [job.key, job]));
  for (const [context, { job, ambiguous }] of [...jobContexts(prefix, run.jobs)].slice(0, MAX_JOB_STATUSES)) {
    const [state, words] = ambiguous ? (['error', `Ambiguous: ${ambiguous}`] as const) : jobState(job, byKey);
    // A job the run ended without: never left pending by a sync.
    states.set(
      context,
      state === 'pending'
        ? ['error', `The run ended while this job was ${oneLine(job.status, 40)}`]
        : [state, words],
    );
  }
  return states;
}
