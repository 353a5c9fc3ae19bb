/**
 * sync-statuses' posts: one per context settled, at least one second apart on the step clock
 * (GitHub's "wait at least one second between each request" for writes), within the call's bound
 * and deadline; then one read-back of each commit posted on. The read-back keeps the newest word:
 * when a status of this action, posted by the sync's own account for another run (a re-run's
 * step), came between the sync's read of a context and its post, the sync posts that status again
 * on top. A newer status of another account is never posted as the sync's own: a warning names it.
 */
import { describe, parseMarker } from '../github/status-marker.js';
import { sameLogin } from '../github/pull-statuses.js';
import { statusesPage, type ListedStatus } from '../github/status-list.js';
import { answerWords } from '../github/github-answers.js';
import { stepClock } from '../text/clock.js';
import { oneLine } from '../text/one-line.js';
import { GitHubRefusal, MAX_REST, MAX_WRITES, type SyncGitHub } from './sync-github.js';
import { contextKey, type Post, type SyncReport } from './sync-plan.js';
import { anotherAccountDuringPostWarning, newerStatusUnderWarning } from './report/sync-summary.js';

/** Pages of a commit's statuses one read-back reads at most (100 each, newest first). */
const READ_BACK_PAGES = 3;
/** GitHub's spacing of writes. */
export const WRITE_SPACING_MS = 1_000;

interface Posting {
  gh: SyncGitHub;
  report: SyncReport;
  login: string;
  deadline: number;
  redact: (text: string) => string;
  /** Warnings for the step, each once. */
  warnings: string[];
  lastWrite?: number;
  /** Posts not made for the call's bound, by commit: for the warning's count. */
  leftPosts: number;
}

/** Posts `posts` (grouped by commit, in the plan's order), then reads each commit back once. */
export async function postPlan(
  gh: SyncGitHub,
  posts: readonly Post[],
  report: SyncReport,
  options: { login: string; deadline: number; redact: (text: string) => string },
): Promise<string[]> {
  const posting: Posting = { gh, report, ...options, warnings: [], leftPosts: 0 };
  const commits = [...new Set(posts.map((post) => post.commit))];
  for (const commit of commits)
    await postOn(
      posting,
      commit,
      posts.filter((post) => post.commit === commit),
    );
  if (posting.leftPosts > 0)
    report.left.push(
      `the bound of ${MAX_REST} GitHub REST requests (${MAX_WRITES} posts) a call, or the time allowed: ${posting.leftPosts} ${posting.leftPosts === 1 ? 'status' : 'statuses'} not posted this time`,
    );
  return posting.warnings;
}

/** Moves a post that was not made to the pending list (a refusal's entry included). */
function notPosted(posting: Posting, post: Post, why: string): void {
  const { report } = posting;
  if (!post.settles)
    report.refused = report.refused.filter(
      (entry) => !(entry.commit === post.commit && contextKey(entry.context) === contextKey(post.context)),
    );
  report.pending.push({ commit: post.commit, context: post.context, why });
}

/** Waits for the next write's turn; false when it would come after the deadline. */
async function writeTurn(posting: Posting): Promise<boolean> {
  const clock = stepClock();
  const at = Math.max(clock.now(), (posting.lastWrite ?? -Infinity) + WRITE_SPACING_MS);
  if (at >= posting.deadline) return false;
  if (at > clock.now()) await clock.sleep(at - clock.now());
  posting.lastWrite = clock.now();
  return true;
}

async function postOn(posting: Posting, commit: string, posts: readonly Post[]): Promise<void> {
  const { gh } = posting;
  const stopped = (): GitHubRefusal | undefined => gh.stopped;
  // Room for the posts, one read-back and one post again on top (newerWord).
  const room = Math.max(0, Math.min(MAX_WRITES - gh.writes - 1, MAX_REST - gh.rest - 2));
  const made: Array<{ post: Post; id: number }> = [];
  for (const [index, post] of posts.entries()) {
    const stop = stopped();
    if (stop || index >= room || !(await writeTurn(posting))) {
      if (stop) notPosted(posting, post, answerWords(stop.answer));
      else {
        posting.leftPosts++;
        notPosted(
          posting,
          post,
          'left for the next call (the bound of GitHub requests a call, or the time allowed)',
        );
      }
      continue;
    }
    try {
      const answer = await gh.send('write', 'statuses: write', ({ signal }) =>
        gh.repo.octokit.rest.repos.createCommitStatus({
          owner: gh.repo.owner,
          repo: gh.repo.repo,
          sha: commit,
          context: post.context,
          state: post.state,
          description: describe(posting.redact(post.words), post.poster),
          ...((post.url ?? post.was?.target_url) ? { target_url: (post.url ?? post.was?.target_url)! } : {}),
          request: { signal },
        }),
      );
      made.push({ post, id: answer.data.id });
      if (post.settles)
        posting.report.settled.push({ commit, context: post.context, why: post.words, state: post.state });
    } catch (error) {
      if (!(error instanceof GitHubRefusal)) throw error;
      notPosted(posting, post, `GitHub refused the post: ${answerWords(error.answer)}`);
      // A 404 or 422 is about this commit: its other posts would meet it too.
      if (!error.stops) {
        for (const rest of posts.slice(index + 1))
          notPosted(posting, rest, `GitHub refused a post on this commit: ${answerWords(error.answer)}`);
        return;
      }
    }
  }
  if (made.length > 0 && !stopped()) await readBack(posting, commit, made);
}

/** The statuses of `commit` newest first, until each post made and the status beneath it are seen. */
async function readBack(
  posting: Posting,
  commit: string,
  made: ReadonlyArray<{ post: Post; id: number }>,
): Promise<void> {
  const { gh } = posting;
  const listed: ListedStatus[] = [];
  const beneathSeen = () =>
    made.every(({ id, post }) => {
      const index = listed.findIndex((status) => status.id === id);
      return (
        index >= 0 &&
        listed.slice(index + 1).some((status) => contextKey(status.context) === contextKey(post.context))
      );
    });
  try {
    for (let page = 1; page <= READ_BACK_PAGES; page++) {
      const read = await gh.send('read', 'statuses: read', ({ signal }) =>
        statusesPage(gh.repo, commit, page, signal),
      );
      listed.push(...read.statuses);
      if (!read.more || beneathSeen()) break;
    }
  } catch (error) {
    if (!(error instanceof GitHubRefusal)) throw error;
    return;
  }
  for (const { post, id } of made) {
    const ofContext = listed.filter((status) => contextKey(status.context) === contextKey(post.context));
    const index = ofContext.findIndex((status) => status.id === id);
    // Not found, or a newer status already on top: the newest word stands as it is.
    if (index !== 0) continue;
    const beneath = ofContext[1];
    if (!beneath || isStatusRead(beneath, post)) continue;
    await newerWord(posting, commit, post, beneath);
  }
}

/** Whether `status` is the one the sync read before posting `post`. */
function isStatusRead(status: ListedStatus, post: Post): boolean {
  const was = post.was;
  if (!was) return false;
  if (status.node_id && was.id) return status.node_id === was.id;
  return (
    status.created_at === was.created_at &&
    status.state === was.state &&
    status.description === was.description
  );
}

/** A status that came between the sync's read of a context and its post: posted again on top, or named. */
async function newerWord(posting: Posting, commit: string, post: Post, newer: ListedStatus): Promise<void> {
  const { gh, report } = posting;
  const poster = parseMarker(newer.description);
  const by = oneLine(newer.creator?.login ?? 'an unknown account', 60);
  if (
    poster &&
    poster.serviceRunId === post.poster.serviceRunId &&
    sameLogin(newer.creator?.login, posting.login)
  )
    return;
  if (!poster || !sameLogin(newer.creator?.login, posting.login)) {
    posting.warnings.push(anotherAccountDuringPostWarning(post.context, commit, by));
    return;
  }
  const settled = report.settled.findIndex(
    (entry) => entry.commit === commit && contextKey(entry.context) === contextKey(post.context),
  );
  if (settled >= 0) report.settled.splice(settled, 1);
  const words = `the newer status of run ${poster.serviceRunId}, posted while this sync ran, was posted again on top`;
  if (!gh.room(1, 1) || !(await writeTurn(posting))) {
    posting.warnings.push(newerStatusUnderWarning(post.context, commit, poster.serviceRunId));
    return;
  }
  try {
    await gh.send('write', 'statuses: write', ({ signal }) =>
      gh.repo.octokit.rest.repos.createCommitStatus({
        owner: gh.repo.owner,
        repo: gh.repo.repo,
        sha: commit,
        context: newer.context,
        state: newer.state as Post['state'],
        ...(newer.description ? { description: newer.description } : {}),
        ...(newer.target_url ? { target_url: newer.target_url } : {}),
        request: { signal },
      }),
    );
    const entry = { commit, context: post.context, why: words, state: newer.state as Post['state'] };
    if (newer.state === 'pending') report.pending.push(entry);
    else report.settled.push(entry);
  } catch (error) {
    if (!(error instanceof GitHubRefusal)) throw error;
    report.pending.push({
      commit,
      context: post.context,
      why: `${words}: GitHub refused it (${answerWords(error.answer)})`,
    });
  }
}
