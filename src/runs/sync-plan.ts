/**
 * sync-statuses' plan, pure: given the latest statuses found on each commit and what each run read
 * said, what to post and what to report. No request is made here; sync.ts reads GitHub and the
 * service, hands the plan what it found and posts what the plan says. So every rule of trust can be
 * read in one place, and tested without a server.
 */
import type { ListedStatus } from '../github/status-list.js';
import { parseMarker, type StatusPoster } from '../github/status-marker.js';
import type { StatusState } from '../github/statuses.js';
import { isRunTerminal, type WorkflowJob, type WorkflowRun } from '../service/contract.js';
import { oneLine } from '../text/one-line.js';
import { jobContexts, jobState, MAX_JOB_STATUSES, STATES } from './status-words.js';

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

/** What a run read says, once per run id. */
export type RunRead = { run: WorkflowRun } | { refused: string } | { later: string };

/** One commit as found: the latest status of each context (the list is newest first). */
export interface CommitFound {
  commit: string;
  latest: Map<string, ListedStatus>;
}

/** One status to post: what the plan wants a context to say, and what it said when read. */
export interface Post {
  commit: string;
  context: string;
  state: StatusState;
  words: string;
  poster: StatusPoster;
  /** The status read when planning: a context that no longer shows it is left as it now is. */
  was?: ListedStatus;
  url?: string;
}

/** A run id a marker may name and a read may use. */
const READABLE_ID = /^[\w-]{1,64}$/;

/** This action's statuses on one commit that the token's account posted, by the run they name. */
interface Group {
  runId: string;
  poster: StatusPoster;
  statuses: ListedStatus[];
}

/** The groups of one commit, and the pending statuses of other accounts (refused, left alone). */
function groupsOf(found: CommitFound, login: string, report: SyncReport): Group[] {
  const groups = new Map<string, Group>();
  for (const status of found.latest.values()) {
    const poster = parseMarker(status.description);
    if (!poster) continue;
    if (status.creator?.login?.toLowerCase() !== login.toLowerCase()) {
      if (status.state === 'pending')
        report.refused.push({
          commit: found.commit,
          context: status.context,
          why: `posted by ${oneLine(status.creator?.login ?? 'an unknown account', 60)}, not this token's account: left alone`,
        });
      continue;
    }
    const group = groups.get(poster.serviceRunId) ?? { runId: poster.serviceRunId, poster, statuses: [] };
    group.statuses.push(status);
    groups.set(poster.serviceRunId, group);
  }
  return [...groups.values()];
}

/**
 * The runs to read, in the order their commits and statuses were found: each run that has a
 * pending status of this action, once, at most `maxRuns` of them.
 */
export function runsToRead(found: readonly CommitFound[], login: string, maxRuns: number): string[] {
  const ids: string[] = [];
  for (const commit of found)
    for (const group of groupsOf(commit, login, emptyReport()))
      if (
        group.statuses.some((status) => status.state === 'pending') &&
        READABLE_ID.test(group.runId) &&
        !ids.includes(group.runId) &&
        ids.length < maxRuns
      )
        ids.push(group.runId);
  return ids;
}

export function emptyReport(): SyncReport {
  return { settled: [], pending: [], refused: [], left: [] };
}

/**
 * What to post on each commit, and the report's entries so far (sync.ts adds what posting shows):
 * by the rules of sync.ts's header, from the statuses `found` and the run reads `runs` (a run
 * absent from it was not read: max-runs).
 */
export function planSync(
  found: readonly CommitFound[],
  runs: ReadonlyMap<string, RunRead>,
  login: string,
  maxRuns: number,
): { posts: Post[]; report: SyncReport } {
  const report = emptyReport();
  const posts: Post[] = [];
  for (const { commit, latest } of found) {
    const wanted = new Map<string, Post>();
    for (const group of groupsOf({ commit, latest }, login, report)) {
      const pending = group.statuses.filter((status) => status.state === 'pending');
      if (pending.length === 0) continue;
      const entry = (status: ListedStatus, why: string): SyncEntry => ({
        commit,
        context: status.context,
        why,
      });
      const want = (status: { context: string }, post: Omit<Post, 'commit' | 'context' | 'poster'>) =>
        wanted.set(status.context, { commit, context: status.context, poster: group.poster, ...post });
      const refuse = (status: ListedStatus, why: string) => {
        report.refused.push(entry(status, why));
        want(status, { state: 'error', words: `Not trusted: ${why}`, was: status });
      };
      if (!READABLE_ID.test(group.runId)) {
        for (const status of pending)
          report.refused.push(entry(status, 'its marker names no run id that can be read: left alone'));
        continue;
      }
      const read = runs.get(group.runId);
      if (!read) {
        for (const status of pending) report.pending.push(entry(status, `max-runs (${maxRuns}) reached`));
        if (!report.left.some((why) => why.startsWith('max-runs')))
          report.left.push(`max-runs (${maxRuns}) reached: runs not read this time`);
        continue;
      }
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
      const url = run.url ?? undefined;
      const ended = endedStates(prefix, run);
      for (const [context, [state, words]] of ended) {
        const was = latest.get(context);
        // Only a context this run left pending, or a job that appeared since; never another run's.
        if (was && !trusted.includes(was)) continue;
        want({ context }, { state, words, was, url });
      }
      for (const status of trusted)
        if (!ended.has(status.context))
          want(status, { state: 'error', words: 'The run no longer lists this job', was: status, url });
    }
    posts.push(...wanted.values());
  }
  return { posts, report };
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
