/**
 * Why a request to GitHub failed, in words for the warning, and when to try again: the gate's policy
 * for its commit statuses (statuses.ts) and the pull-request comment (comment.ts) on GitHub's answer
 * as github-answers.ts reads it (the one reading, which sync-statuses shares), so that none of
 * GitHub's answers (401, 403, 404, 422, a rate limit, a 5xx page, a reset connection, a time-out)
 * reaches the step as an unexpected error.
 */
import { hostOf } from '../service/base-url.js';
import { backoffDelayMs } from '../service/retry.js';
import { readAnswer } from './github-answers.js';

export const MINUTE_MS = 60_000;
const RETRY = { maxAttempts: Infinity, baseDelayMs: 1_000, maxDelayMs: 15_000 };

/** GITHUB_REPOSITORY names no `owner/name`: no request can be made, whatever GitHub would answer. */
export class NoRepository extends Error {
  constructor() {
    super('GITHUB_REPOSITORY does not name a repository');
  }
}

/** Why posting stopped or waits, in words for the warning. */
export interface Trouble {
  words: string;
  /** A refusal: posting again cannot help. */
  final: boolean;
  /** Earliest time to try again. */
  retryAt: number;
}

/**
 * What a call needs (its permission), what GitHub's 422 means for it, and what a refusal of its
 * permission adds (a status post: that the gate's own result decides the step).
 */
export interface GitHubCall {
  permission: string;
  refused: string;
  afterRefusal?: string;
}

/** What a status post needs, and what GitHub's 422 means for it. */
const STATUS_POST: GitHubCall = {
  permission: 'statuses: write',
  refused:
    'GitHub refused a status (422): the commit is not in this repository, or it has too many statuses.',
  afterRefusal: " The gate's own result decides the step.",
};

/** A secondary limit without `retry-after`: a minute, then longer each time, up to this. */
const SECONDARY_MAX_MS = 16 * MINUTE_MS;

/**
 * Why a request failed, and when to try again (`attempt`: failures in a row, from 1). The gate's own
 * policy: a back-off longer each time; `x-ratelimit-reset` waited for only when
 * `x-ratelimit-remaining` is 0 (the primary limit); a secondary limit (a 429, or a 403 with
 * `retry-after` or GitHub's rate-limit message) as its `retry-after` says, else a minute and longer
 * each time, never until a reset. An error without an answer is GitHub not reached (Octokit calls
 * it 500: it is not): a reset connection, a time-out. GitHub's own message is not repeated (it may
 * echo input, and a 5xx's may be a page of HTML). `call` says what the call needs (its permission, named on a
 * 403 or 404 unless GitHub's `x-accepted-github-permissions` names it) and what its 422 means.
 */
export function troubleOf(
  error: unknown,
  now: number,
  attempt: number,
  apiUrl: string | undefined,
  call: GitHubCall = STATUS_POST,
): Trouble {
  const backoff = now + backoffDelayMs(attempt, RETRY);
  if (error instanceof NoRepository)
    return { words: 'GITHUB_REPOSITORY does not name a repository.', final: true, retryAt: now };
  // One reading of GitHub's answers (github-answers.ts); what the gate does about each is its own.
  const answer = readAnswer(error, call.permission, now);
  switch (answer.kind) {
    case 'not-reached':
      return {
        words: `GitHub's API${apiUrl ? ` at ${hostOf(apiUrl)}` : ''} could not be reached (${answer.reason})`,
        final: false,
        retryAt: backoff,
      };
    case 'primary-limit':
      return {
        words: `GitHub's rate limit (${answer.status}) was reached`,
        final: false,
        retryAt: now + Math.max(1_000, (answer.resetAt ?? now + secondaryWait(attempt)) - now),
      };
    case 'secondary-limit':
      return {
        words: `GitHub's secondary rate limit (${answer.status}) was reached`,
        final: false,
        retryAt: now + Math.max(1_000, (answer.retryAt ?? now + secondaryWait(attempt)) - now),
      };
    case 'permission':
    case 'not-found': {
      const needs = answer.kind === 'permission' ? answer.permission : call.permission;
      return {
        words: `GitHub answered ${answer.status}: the github-token needs the \`${needs}\` permission (\`permissions: ${needs}\` in the workflow or job).${call.afterRefusal ?? ''}`,
        final: true,
        retryAt: now,
      };
    }
    case 'token-refused':
      return { words: 'GitHub answered 401: the github-token was refused.', final: true, retryAt: now };
    case 'validation':
      return { words: call.refused, final: true, retryAt: now };
    case 'failing':
      return {
        words: `GitHub answered ${answer.status}`,
        final: answer.status > 0 && answer.status < 500,
        retryAt: backoff,
      };
  }
}

/** A secondary limit's wait when GitHub gives none: at least a minute, then longer each time. */
function secondaryWait(attempt: number): number {
  return Math.min(SECONDARY_MAX_MS, MINUTE_MS * 2 ** Math.max(0, attempt - 1));
}
