/**
 * GitHub's side in words: the warnings and notices of the pull-request comment (comment.ts) and of
 * the commit statuses (statuses.ts, status-read-back.ts), in one place. Each is a function of
 * explicit values (no I/O), so a test compares the whole sentence; the logic only picks which one.
 */
import { oneLine } from '../text/one-line.js';
import type { Owed } from './status-ledger.js';

/** `comment: true` outside a pull request (`event`: GITHUB_EVENT_NAME, or '' outside GitHub). */
export function commentNotPullRequestNotice(event: string): string {
  return `comment: true, but this is ${event ? `a \`${oneLine(event, 40)}\` event` : 'not a GitHub event'}, not a pull request; no comment was posted.`;
}

/** `comment: true` on a pull request with no token to post with. */
export const COMMENT_NO_TOKEN =
  'comment: true, but there is no github-token (nor GITHUB_TOKEN); no comment was posted.';

/** `comment: true`, and `github-token` is not a token. */
export const COMMENT_NOT_A_TOKEN =
  'comment: true, but `github-token` is not a token (it must be one word of printable ASCII, such as `${{ github.token }}` evaluates to); no comment was posted.';

/** The comment's text would carry a secret in a form no redaction found. */
export const COMMENT_HOLDS_SECRET =
  'The pull request comment was not posted: its text would carry a secret this step registered (encoded, so no redaction found it). The job summary has the details.';

/** The event payload names no pull request number. */
export const COMMENT_NO_NUMBER =
  'comment: true, but the event payload has no pull request number; no comment was posted.';

/**
 * The comment could not be posted: `said` is why (status-trouble.ts's words, final dots removed);
 * `hint` what to do (a fork's read-only token, or the next run).
 */
export function commentNotPostedWarning(said: string, hint: string): string {
  return `Could not post the pull request comment: ${said}.${hint}`;
}

/** GitHub refused the statuses for good (`words`: status-trouble.ts's). */
export function statusesNotPostedWarning(words: string): string {
  return `Commit statuses were not posted: ${words}`;
}

/** Contexts named in the warning at most. */
const NAMED = 20;

/**
 * The one warning for the contexts `left` unset on `sha` when the step ends, and `why`: a context
 * posted `pending` is left pending, for sync-statuses (it finds it by its marker); one never posted
 * it cannot find, and a re-run posts it.
 */
export function leftUnsetWarning(sha: string, left: readonly Owed[], why: string): string {
  const shown = left.slice(0, NAMED).map(({ context, last }) => {
    const said =
      last === undefined
        ? 'never posted: a re-run posts it'
        : last === 'pending'
          ? 'left pending'
          : `still ${last}`;
    return `\`${context}\` (${said})`;
  });
  const more = left.length > NAMED ? `, … and ${left.length - NAMED} more` : '';
  const stillPending = left.some(({ last }) => last === 'pending');
  return (
    `Commit statuses left unset on commit ${sha}: ${shown.join(', ')}${more}: ${why}. ` +
    (stillPending
      ? `sync-statuses settles those left pending (on its schedule, or with \`commit: ${sha}\`); a re-run of this job posts them all again.`
      : 'A re-run of this job posts them again.')
  );
}

/** A context this step posts on `sha` that another GitHub run posted too: whichever posts last shows. */
export function otherGitHubRunWarning(
  context: string,
  sha: string,
  other: { githubRunId: string; serviceRunId: string },
  own: { githubRunId: string; serviceRunId: string },
): string {
  return (
    `Commit status \`${context}\` on commit ${sha} was also posted by GitHub run ${other.githubRunId} ` +
    `(service run ${other.serviceRunId}); this step's (GitHub run ${own.githubRunId}, service run ${own.serviceRunId}) replaces it, ` +
    'so the context shows whichever of the two runs posts last. Give each workflow its own `status-context` if both should show.'
  );
}

/** Another step of this GitHub run and attempt posts the same contexts for another service run. */
export function sharedContextsWarning(
  githubRunId: string,
  githubAttempt: string,
  contexts: readonly string[],
): string {
  return (
    `Another step of this GitHub run (run ${githubRunId}, attempt ${githubAttempt}) posts the same commit statuses for another service run: ` +
    `${contexts.map((context) => `\`${context}\``).join(', ')} end in error. ` +
    'Give each step its own `status-context` (for example with the matrix values in it).'
  );
}
