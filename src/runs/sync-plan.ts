/**
 * sync-statuses' plan, pure: given the latest statuses found on each commit and what each run read
 * said, what to post and what to report. No request is made here; sync.ts reads GitHub and the
 * service, hands the plan what it found and posts what the plan says. So every rule of trust can be
 * read in one place, and tested without a server.
 */
import { sameLogin, type SeenStatus } from '../github/pull-statuses.js';
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
  /** A refusal that posted nothing (another account's status, a marker naming no readable run). */
  leftAlone?: true;
}

export interface SyncReport {
  settled: SyncEntry[];
  pending: SyncEntry[];
  refused: SyncEntry[];
  /** Why some of the work was left for the next call (max-runs, the request bound), with how much. */
  left: string[];
  /** The accounts whose pending statuses with this action's marker were left alone. */
  others: string[];
}

/**
 * What a run read says, once per run id: the run, or why it cannot be read now. A run that cannot
 * be read leaves its statuses pending: only a successful read of a status's own run may set it to
 * `error` (the fail-safe rule, sync-statuses/README.md).
 */
export type RunRead = { run: WorkflowRun } | { later: string };

/** One commit as found: the latest status of each context, keyed by contextKey. */
export interface CommitFound {
  commit: string;
  latest: Map<string, SeenStatus>;
}

/** One status to post: what the plan wants a context to say, and what it said when read. */
export interface Post {
  commit: string;
  context: string;
  state: StatusState;
  words: string;
  poster: StatusPoster;
  /** The status read when planning: what the read-back tells a newer one from. */
  was?: SeenStatus;
  url?: string;
  /** False for an `error` on a status not trusted: it is counted as refused, not settled. */
  settles: boolean;
}

/** GitHub compares a status's context case-insensitively (create-a-commit-status): so does the sync. */
export const contextKey = (context: string): string => context.toLowerCase();

/** `statuses` (latest first) by contextKey, the latest of each. */
export function byContext(statuses: readonly SeenStatus[]): Map<string, SeenStatus> {
  const latest = new Map<string, SeenStatus>();
  for (const status of statuses)
    if (!latest.has(contextKey(status.context))) latest.set(contextKey(status.context), status);
  return latest;
}

/** A run id a marker may name and a read may use. */
const READABLE_ID = /^[\w-]{1,64}$/;

/** This action's statuses on one commit that the token's account posted, by the run they name. */
interface Group {
  runId: string;
  poster: StatusPoster;
  statuses: SeenStatus[];
}

/** The groups of one commit; other accounts' pending statuses go to `report` (left alone). */
function groupsOf(found: CommitFound, login: string, report: SyncReport): Group[] {
  const groups = new Map<string, Group>();
  for (const status of found.latest.values()) {
    const poster = parseMarker(status.description);
    if (!poster) continue;
    if (!sameLogin(status.creator?.login, login)) {
      if (status.state !== 'pending') continue;
      const other = oneLine(status.creator?.login ?? 'an unknown account', 60);
      if (!report.others.includes(other)) report.others.push(other);
      report.refused.push({
        commit: found.commit,
        context: status.context,
        why: `posted by ${other}, not this token's account: left alone`,
        leftAlone: true,
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
 * The runs to read: each run that has a pending status of this action, once, in the order found,
 * starting at `start` (modulo their number) and going round: a call that cannot read them all
 * starts where its start time says (sync.ts), so that no run waits behind the same others forever.
 */
export function runsToRead(found: readonly CommitFound[], login: string, start: number): string[] {
  const ids: string[] = [];
  for (const commit of found)
    for (const group of groupsOf(commit, login, emptyReport()))
      if (
        group.statuses.some((status) => status.state === 'pending') &&
        READABLE_ID.test(group.runId) &&
        !ids.includes(group.runId)
      )
        ids.push(group.runId);
  const at = ids.length === 0 ? 0 : ((start % ids.length) + ids.length) % ids.length;
  return [...ids.slice(at), ...ids.slice(0, at)];
}

export function emptyReport(): SyncReport {
  return { settled: [], pending: [], refused: [], left: [], others: [] };
}

/**
 * What to post on each commit, and the report's entries so far (sync.ts adds what posting shows),
 * from the statuses `found` and the run reads `runs`; a run absent from `runs` was not read this
 * call, for the reason `notRead` gives.
 */
export function planSync(
  found: readonly CommitFound[],
  runs: ReadonlyMap<string, RunRead>,
  login: string,
  notRead: (runId: string) => string,
  redact: (text: string) => string = (text) => text,
): { posts: Post[]; report: SyncReport } {
  const report = emptyReport();
  const posts: Post[] = [];
  for (const { commit, latest } of found) {
    const wanted = new Map<string, Post>();
    for (const group of groupsOf({ commit, latest }, login, report)) {
      const pending = group.statuses.filter((status) => status.state === 'pending');
      if (pending.length === 0) continue;
      const entry = (status: SeenStatus, why: string): SyncEntry => ({
        commit,
        context: status.context,
        why,
      });
      const want = (context: string, post: Omit<Post, 'commit' | 'context' | 'poster'>) =>
        wanted.set(contextKey(context), { commit, context, poster: group.poster, ...post });
      // Only on what a successful read of the status's own run shows.
      const refuse = (status: SeenStatus, why: string) => {
        report.refused.push(entry(status, why));
        want(status.context, { state: 'error', words: `Not trusted: ${why}`, was: status, settles: false });
      };
      if (!READABLE_ID.test(group.runId)) {
        for (const status of pending)
          report.refused.push({
            ...entry(status, 'its marker names no run id that can be read: left alone'),
            leftAlone: true,
          });
        continue;
      }
      const read = runs.get(group.runId);
      if (!read || 'later' in read) {
        const why = read ? read.later : notRead(group.runId);
        for (const status of pending) report.pending.push(entry(status, why));
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
      // Among the statuses that link to the run: one that does not cannot name its contexts. Not
      // found: nothing the run shows says `error`, so the statuses wait (a later post may show it).
      const prefix = runContext(group.statuses.filter((status) => status.target_url === run.url));
      if (!prefix) {
        for (const status of trusted)
          report.pending.push(entry(status, "the run's own context is not among this commit's statuses"));
        continue;
      }
      const url = run.url ?? undefined;
      const ended = endedStates(prefix, run, redact);
      for (const [context, [state, words]] of ended) {
        const was = latest.get(contextKey(context));
        // Only a context this run left pending, or a job that appeared since; never another run's.
        if (was && !trusted.includes(was)) continue;
        want(was?.context ?? context, { state, words, was, url, settles: true });
      }
      const endedKeys = new Set([...ended.keys()].map(contextKey));
      for (const status of trusted)
        if (!endedKeys.has(contextKey(status.context)))
          want(status.context, {
            state: 'error',
            words: 'The run no longer lists this job',
            was: status,
            url,
            settles: true,
          });
    }
    posts.push(...wanted.values());
  }
  return { posts, report };
}

/** The run's own context among its statuses: the one every other is `<it>/…` of. */
function runContext(statuses: readonly SeenStatus[]): string | undefined {
  const contexts = statuses.map((status) => contextKey(status.context));
  const found = contexts.findIndex((candidate) =>
    contexts.every((other) => other === candidate || other.startsWith(`${candidate}/`)),
  );
  return found < 0 ? undefined : statuses[found].context;
}

/** The states of a run that ended: its context, then each job's (at most MAX_JOB_STATUSES). */
function endedStates(
  prefix: string,
  run: WorkflowRun,
  redact: (text: string) => string,
): Map<string, [StatusState, string]> {
  const states = new Map<string, [StatusState, string]>();
  states.set(prefix, STATES[run.status] ?? ['error', `Ended ${oneLine(run.status, 40)}`]);
  const byKey = new Map<string, WorkflowJob>(run.jobs.map((job) => [job.key, job]));
  for (const [context, { job, ambiguous }] of [...jobContexts(prefix, run.jobs, redact)].slice(
    0,
    MAX_JOB_STATUSES,
  )) {
    const [state, words] = ambiguous ? (['error', `Ambiguous: ${ambiguous}`] as const) : jobState(job, byKey);
    // A job the run ended without: never left pending by a sync.
    states.set(
      context,
      state === 'pending'
        ? ['error', `The run ended while this job was ${oneLine(job.status, 40)}`]
        : [state, words],
    );
  }
  // Two contexts that differ only in case are one on GitHub: neither job's state may stand for it.
  const seen = new Map<string, string>();
  for (const context of [...states.keys()]) {
    const first = seen.get(contextKey(context));
    if (first === undefined) seen.set(contextKey(context), context);
    else {
      states.delete(context);
      states.set(first, [
        'error',
        `Ambiguous: ${oneLine(first, 60)} and ${oneLine(context, 60)} are one context`,
      ]);
    }
  }
  return states;
}
