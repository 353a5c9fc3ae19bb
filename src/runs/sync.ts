/**
 * sync-statuses: settles the `pending` commit statuses this action left (a `wait: false` dispatch,
 * or a waiting step that could not end them), by the same rules as a step that follows a run
 * (commit-statuses.ts): `success` only for a run of that exact commit that succeeded.
 *
 * Nothing is trusted that this action did not write: a status is acted on only when it is the
 * latest of its context on the commit, `pending`, ends with this action's marker (status-marker.ts)
 * and was posted by the github-token's own account; its run is read by id at `base-url`, once, and
 * trusted only when the status links to the `url` the service gives for that run.
 *
 * The fail-safe rule (sync-statuses/README.md): a status becomes `error` only on what a successful
 * read of its own run shows (sync-plan.ts); a run it cannot read, a context it cannot find, a post
 * GitHub refused leave the status `pending`, and the step says so.
 *
 * Here the order of the work: GitHub's reads (pull-statuses.ts, one GraphQL query per 100 open pull
 * requests), the runs' reads (sync-runs.ts), the plan (sync-plan.ts), the posts and read-backs
 * (sync-posts.ts); GitHub's answers are read by github-answers.ts through sync-github.ts.
 */
import type { ActionIO } from '../runner/io.js';
import { openPullsPage, viewerLogin, type SeenCommit, type SeenStatus } from '../github/pull-statuses.js';
import { statusesPage, type ListedStatus } from '../github/status-list.js';
import { answerWords } from '../github/github-answers.js';
import type { ServiceClient } from '../service/client.js';
import { hostOf } from '../service/base-url.js';
import { oneLine } from '../text/one-line.js';
import { byContext, planSync, runsToRead, type CommitFound, type SyncReport } from './sync-plan.js';
import { parseMarker } from '../github/status-marker.js';
import { checkAddress, readRuns } from './sync-runs.js';
import { GitHubRefusal, MAX_QUERIES, SyncGitHub, type GitHubRepo } from './sync-github.js';
import { postPlan } from './sync-posts.js';
import * as words from './report/sync-summary.js';

export type { SyncEntry, SyncReport } from './sync-plan.js';

/**
 * A call's place among the pending runs moves on by `max-runs` every SLOT_MS of its start time: with
 * no state between calls, a call on a five-minute schedule that cannot read every pending run starts
 * after where the previous one started, so each is read within ⌈pending runs / max-runs⌉ calls.
 */
export const SLOT_MS = 5 * 60_000;
/** Pages of the `commit` input's statuses read (100 each, newest first). */
const COMMIT_PAGES = 3;
/** Time kept at the end of a call for its read-backs and summary: no post starts after it. */
const END_MARGIN_MS = 30_000;

export interface SyncSettings {
  commit?: string;
  /** The event the step runs on (GITHUB_EVENT_NAME), for the `commit` warning's advice. */
  event?: string;
  maxRuns: number;
  /** Epoch ms on the step clock: when the call started, and its deadline. */
  start: number;
  deadline: number;
  baseUrl: string;
  signal?: AbortSignal;
}

/** How a call ended: its report, its warnings, and the failure the step ends with, if any. */
export interface SyncOutcome {
  report: SyncReport;
  warnings: string[];
  failure?: string;
}

export async function syncStatuses(
  io: ActionIO,
  client: ServiceClient,
  github: GitHubRepo & { apiUrl?: string },
  settings: SyncSettings,
): Promise<SyncOutcome> {
  const gh = new SyncGitHub(github, settings.signal);
  const listed = await listCommits(io, gh, settings.commit, github.apiUrl);
  if ('failure' in listed || 'stopped' in listed) {
    const outcome: SyncOutcome = { report: planSync([], new Map(), '', () => '').report, warnings: [] };
    if ('failure' in listed) outcome.failure = listed.failure;
    else outcome.warnings.push(listed.stopped);
    return outcome;
  }
  const { login, found, left } = listed;
  // A `commit` that carries no status of this action: the wrong expression (a pull request's merge
  // commit, `github.sha`), or a typo. Said, since it settles nothing and would say nothing else.
  const noneOfOurs =
    settings.commit &&
    found.every((one) => ![...one.latest.values()].some((status) => parseMarker(status.description)))
      ? words.noStatusOnCommitWarning(settings.commit, settings.event)
      : undefined;
  const candidates = runsToRead(found, login, Math.floor(settings.start / SLOT_MS) * settings.maxRuns);
  const reads = await readRuns(client, candidates, settings);
  const { posts, report } = planSync(
    found,
    reads.runs,
    login,
    (id) => reads.notRead.get(id) ?? 'not read',
    (text) => io.redact(text),
  );
  report.left.push(...left, ...reads.left);
  const outcome: SyncOutcome = { report, warnings: noneOfOurs ? [noneOfOurs] : [] };
  const where = oneLine(settings.baseUrl, 200);

  if (reads.tokenRefused) {
    outcome.failure = words.tokenRefusedMessage(where, reads.tokenRefused);
    for (const post of posts)
      report.pending.push({
        commit: post.commit,
        context: post.context,
        why: 'not posted: the service refused `token`',
      });
    report.settled = [];
    // Only the refusals that posted nothing stand: the others' `error` was not posted either.
    report.refused = report.refused.filter((entry) => entry.leftAlone);
    return outcome;
  }
  if (reads.read === 0 && reads.unreadable > 0 && !reads.unreachable) {
    const wrong = reads.notTheService
      ? { wrong: 'base-url' as const, why: reads.notTheService }
      : await checkAddress(client, settings);
    if (wrong?.wrong === 'base-url') outcome.failure = words.notTheServiceMessage(where, wrong.why);
    else if (wrong) outcome.failure = words.tokenRefusedMessage(where, wrong.why);
    else outcome.warnings.push(words.unreadableRunsWarning(reads.unreadable, hostOf(settings.baseUrl)));
  }
  if (reads.unreachable)
    outcome.warnings.push(
      words.unreachableWarning(hostOf(settings.baseUrl), reads.unreachable, reads.skipped),
    );

  outcome.warnings.push(
    ...(await postPlan(gh, posts, report, {
      login,
      deadline: settings.deadline - END_MARGIN_MS,
      redact: (text) => io.redact(text),
    })),
  );
  if (gh.stopped) {
    const { answer } = gh.stopped;
    if (answer.kind === 'token-refused' || answer.kind === 'permission')
      outcome.failure ??= words.gitHubRefusedMessage(answerWords(answer));
    else outcome.warnings.push(words.gitHubStoppedWarning(answerWords(answer, github.apiUrl)));
  }
  if (report.others.length > 0) outcome.warnings.push(words.othersWarning(report.others, login));
  io.info(
    `GitHub requests this call: ${gh.queries} GraphQL ${gh.queries === 1 ? 'query' : 'queries'}, ${gh.rest} REST (${gh.writes} ${gh.writes === 1 ? 'post' : 'posts'}).`,
  );
  return outcome;
}

type Listed =
  { login: string; found: CommitFound[]; left: string[] } | { failure: string } | { stopped: string };

/** The commits to look at (one, or the open pull requests' heads and queue entries) and the viewer. */
async function listCommits(
  io: ActionIO,
  gh: SyncGitHub,
  commit: string | undefined,
  apiUrl: string | undefined,
): Promise<Listed> {
  const seen: SeenCommit[] = [];
  const left: string[] = [];
  let login: string | undefined;
  try {
    if (commit) {
      login = await gh.send('query', 'statuses: read', ({ signal }) => viewerLogin(gh.repo, signal));
      // One commit: REST's list (newest first) has its latest statuses on the first pages.
      const statuses: SeenStatus[] = [];
      for (let page = 1; page <= COMMIT_PAGES; page++) {
        const read = await gh.send('read', 'statuses: read', ({ signal }) =>
          statusesPage(gh.repo, commit, page, signal),
        );
        statuses.push(...read.statuses.map(seenOf));
        if (!read.more) break;
      }
      seen.push({ commit, statuses });
    } else {
      let after: string | undefined;
      let pulls = 0;
      let total = 0;
      for (let query = 1; query <= MAX_QUERIES; query++) {
        const page = await gh.send('query', 'pull-requests: read', ({ signal }) =>
          openPullsPage(gh.repo, after, signal),
        );
        login ??= page.viewer;
        seen.push(...page.commits);
        pulls += page.pullRequests;
        total = page.totalCount;
        after = page.after;
        if (!after) break;
      }
      if (after)
        left.push(
          `${total - pulls} open pull requests past the oldest ${pulls} not looked at (at most ${MAX_QUERIES} GraphQL queries a call)`,
        );
      const commits = new Set(seen.map((one) => one.commit)).size;
      io.info(
        `Open pull requests: ${pulls}; commits to look at: ${commits} (heads and merge-queue entries).`,
      );
    }
  } catch (error) {
    if (!(error instanceof GitHubRefusal)) throw error;
    const { answer } = error;
    if (answer.kind === 'token-refused' || answer.kind === 'permission')
      return { failure: words.gitHubRefusedMessage(answerWords(answer)) };
    return {
      stopped: words.gitHubStoppedWarning(answerWords(answer, apiUrl)),
    };
  }
  if (!login) return { failure: words.UNKNOWN_TOKEN_ACCOUNT };
  const found: CommitFound[] = [];
  for (const one of seen)
    if (!found.some((other) => other.commit === one.commit))
      found.push({ commit: one.commit, latest: byContext(one.statuses) });
  return { login, found, left };
}

/** A status REST listed, as GraphQL would give it (its node id as its id). */
function seenOf(status: ListedStatus): SeenStatus {
  return {
    id: status.node_id ?? String(status.id),
    context: status.context,
    state: status.state,
    description: status.description ?? null,
    target_url: status.target_url ?? null,
    ...(status.created_at ? { created_at: status.created_at } : {}),
    creator: status.creator ?? null,
  };
}
