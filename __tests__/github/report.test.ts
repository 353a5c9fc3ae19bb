/**
 * Every warning and notice of GitHub's side (src/github/report.ts): the pull-request comment's and
 * the commit statuses', each compared whole, so a changed word shows in review. The inputs are
 * explicit; no test here sends a request.
 */
import {
  COMMENT_HOLDS_SECRET,
  COMMENT_NOT_A_TOKEN,
  COMMENT_NO_NUMBER,
  COMMENT_NO_TOKEN,
  commentNotPostedWarning,
  commentNotPullRequestNotice,
  leftUnsetWarning,
  otherGitHubRunWarning,
  sharedContextsWarning,
  statusesNotPostedWarning,
} from '../../src/github/report.js';

const SHA = 'c'.repeat(40);

describe('the pull-request comment', () => {
  test('not a pull request, no token, not a token, a secret, no number', () => {
    expect(commentNotPullRequestNotice('push')).toBe(
      'comment: true, but this is a `push` event, not a pull request; no comment was posted.',
    );
    expect(commentNotPullRequestNotice('')).toBe(
      'comment: true, but this is not a GitHub event, not a pull request; no comment was posted.',
    );
    expect(COMMENT_NO_TOKEN).toBe(
      'comment: true, but there is no github-token (nor GITHUB_TOKEN); no comment was posted.',
    );
    expect(COMMENT_NOT_A_TOKEN).toBe(
      'comment: true, but `github-token` is not a token (it must be one word of printable ASCII, such as `${{ github.token }}` evaluates to); no comment was posted.',
    );
    expect(COMMENT_HOLDS_SECRET).toBe(
      'The pull request comment was not posted: its text would carry a secret this step registered (encoded, so no redaction found it). The job summary has the details.',
    );
    expect(COMMENT_NO_NUMBER).toBe(
      'comment: true, but the event payload has no pull request number; no comment was posted.',
    );
  });

  test('could not be posted, and what to do', () => {
    expect(
      commentNotPostedWarning(
        "GitHub's API at api.github.com could not be reached (no answer in time)",
        ' The next run of this step updates the comment.',
      ),
    ).toBe(
      "Could not post the pull request comment: GitHub's API at api.github.com could not be reached (no answer in time). The next run of this step updates the comment.",
    );
  });
});

describe('the commit statuses', () => {
  test('refused for good', () => {
    expect(statusesNotPostedWarning('GitHub answered 401: the github-token was refused.')).toBe(
      'Commit statuses were not posted: GitHub answered 401: the github-token was refused.',
    );
  });

  test('left unset when the step ends: pending ones for sync-statuses, the others for a re-run', () => {
    expect(
      leftUnsetWarning(
        SHA,
        [
          { context: 'svc/e2e', primary: true, state: 'failure', last: 'pending' },
          { context: 'svc/e2e/build', primary: false, state: 'failure' },
        ],
        'the time to post them ran out',
      ),
    ).toBe(
      `Commit statuses left unset on commit ${SHA}: \`svc/e2e\` (left pending), \`svc/e2e/build\` (never posted: a re-run posts it): the time to post them ran out. sync-statuses settles those left pending (on its schedule, or with \`commit: ${SHA}\`); a re-run of this job posts them all again.`,
    );
    expect(
      leftUnsetWarning(
        SHA,
        [{ context: 'svc/e2e', primary: true, state: 'failure', last: 'success' }],
        'the step was cancelled',
      ),
    ).toBe(
      `Commit statuses left unset on commit ${SHA}: \`svc/e2e\` (still success): the step was cancelled. A re-run of this job posts them again.`,
    );
  });

  test('a context another GitHub run posts too; contexts two steps of this run share', () => {
    expect(
      otherGitHubRunWarning(
        'svc/e2e',
        SHA,
        { githubRunId: '901', serviceRunId: 'run-a' },
        { githubRunId: '902', serviceRunId: 'run-b' },
      ),
    ).toBe(
      `Commit status \`svc/e2e\` on commit ${SHA} was also posted by GitHub run 901 (service run run-a); this step's (GitHub run 902, service run run-b) replaces it, so the context shows whichever of the two runs posts last. Give each workflow its own \`status-context\` if both should show.`,
    );
    expect(sharedContextsWarning('902', '1', ['svc/e2e', 'svc/e2e/build'])).toBe(
      'Another step of this GitHub run (run 902, attempt 1) posts the same commit statuses for another service run: `svc/e2e`, `svc/e2e/build` end in error. Give each step its own `status-context` (for example with the matrix values in it).',
    );
  });
});
