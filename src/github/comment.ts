/**
 * The opt-in pull-request comment (`comment: true` with a `github-token`): one sticky comment per
 * kind and subject (comment-body.ts: a workflow file, a gate, a device session name), found again
 * by the hidden marker it starts with and updated in place on every run, so a pull request never
 * collects a pile of comments. Only a comment that starts with the marker and was written by the
 * token's own identity is ever updated: anyone can copy the marker into a comment of their own (the
 * pull request's author first of all), and another workflow's comment, written by the same
 * GITHUB_TOKEN account, may quote it. A body that still holds a registered secret in any form is
 * never posted.
 *
 * `@actions/github` (Octokit) is loaded only when a comment is posted (github-api.ts), so the
 * default path neither loads nor parses it. A comment that cannot be posted is a warning, never a
 * failure: the step's own result is what gates the pull request.
 */
import { isPullRequestEvent } from './event.js';
import { credential, InputProblem } from '../inputs/parsers.js';
import type { ActionIO } from '../runner/io.js';
import { withoutFinalDots } from '../text/one-line.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { gitHubApi, tokenLogin } from './github-api.js';
import { USER_AGENT } from '../runner/service-client.js';
import { renderComment, type CommentReport } from './comment-body.js';
import { troubleOf } from './status-trouble.js';
import {
  COMMENT_HOLDS_SECRET,
  COMMENT_NOT_A_TOKEN,
  COMMENT_NO_NUMBER,
  COMMENT_NO_TOKEN,
  commentNotPostedWarning,
  commentNotPullRequestNotice,
} from './report.js';
import { stepClock } from '../text/clock.js';

/** `comment: true` and the token to post the comment with. */
interface CommentSettings {
  githubToken: string;
}

/**
 * Whether a comment's author is the token's account. Logins compare ignoring case, and exactly
 * otherwise: `viewer` names an app's bot as REST does (`github-actions[bot]`), and a user `x` and
 * an app's bot `x[bot]` are different accounts.
 */
function writtenBy(user: { login?: string } | null | undefined, viewer: string): boolean {
  return user?.login?.toLowerCase() === viewer.toLowerCase();
}

/** Creates or updates the sticky comment; skipped (with a notice) outside pull-request events. */
export async function commentOnPullRequest(
  settings: CommentSettings,
  report: CommentReport,
  io: ActionIO,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const event = env.GITHUB_EVENT_NAME ?? '';
  if (!isPullRequestEvent(event)) {
    io.notice(commentNotPullRequestNotice(event));
    return;
  }
  // Outside a pull request the notice above says enough; here the token is needed.
  if (!settings.githubToken) {
    io.warning(COMMENT_NO_TOKEN);
    return;
  }
  // Checked only here, where it is used: an unused github-token never fails a step.
  if (!isCredential(settings.githubToken)) {
    io.warning(COMMENT_NOT_A_TOKEN);
    return;
  }
  const body = renderComment(report, io, env);
  // The second line of defence: a secret left in the body in any form is never posted.
  if (io.holdsSecret(body)) {
    io.warning(COMMENT_HOLDS_SECRET);
    return;
  }
  let dispose = (): void => {};
  try {
    const github = await gitHubApi(settings.githubToken, USER_AGENT);
    dispose = github.dispose;
    const { octokit, context } = github;
    const number = (context.payload.pull_request as { number?: unknown } | undefined)?.number;
    if (typeof number !== 'number') {
      io.warning(COMMENT_NO_NUMBER);
      return;
    }
    const { owner, repo } = context.repo;
    const request = () => ({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    // The body's first line, as rendered from the redacted report.
    const marker = body.slice(0, body.indexOf('\n'));

    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
      request: request(),
    });
    // Only a comment that starts with the marker: one that merely quotes it is someone else's.
    const marked = comments.filter((comment) => comment.body?.startsWith(marker));
    const login = marked.length > 0 ? await tokenLogin(octokit, request) : undefined;
    const existing = login ? marked.find((comment) => writtenBy(comment.user, login)) : undefined;
    if (marked.length > 0 && !login)
      io.info('Could not tell which account the github-token belongs to; posting a new comment.');
    if (existing) {
      await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: existing.id,
        body,
        request: request(),
      });
      io.info(`Updated the pull request comment: ${existing.html_url}`);
    } else {
      const created = await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body,
        request: request(),
      });
      io.info(`Commented on pull request #${number}: ${created.data.html_url}`);
    }
  } catch (error) {
    // One attempt: the comment is told, never retried, and never the step's result.
    const { words, final } = troubleOf(error, stepClock().now(), 1, env.GITHUB_API_URL, {
      permission: 'pull-requests: write',
      refused: 'GitHub refused the comment (422).',
    });
    const status = (error as { status?: unknown }).status;
    const hint =
      final && (status === 403 || status === 404)
        ? ' Pull requests from forks get a read-only token.'
        : final
          ? ''
          : ' The next run of this step updates the comment.';
    const said = withoutFinalDots(words);
    io.warning(commentNotPostedWarning(said, hint));
  } finally {
    dispose();
  }
}

/** The input parsers' rule for a token (one word of printable ASCII), as a test. */
function isCredential(value: string): boolean {
  try {
    credential(value, 'github-token');
    return true;
  } catch (error) {
    if (error instanceof InputProblem) return false;
    throw error;
  }
}
