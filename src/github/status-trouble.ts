/**
 * Why a request to GitHub failed, in words for the warning, and when to try again: the one reading
 * of GitHub's errors for the gate's commit statuses (statuses.ts) and the pull-request comment
 * (comment.ts), so that none of GitHub's answers (401, 403, 404, 422, a rate limit, a 5xx page, a
 * reset connection, a time-out) reaches the step as an unexpected error.
 */
import { hostOf } from '../service/base-url.js';
import { backoffDelayMs, parseRetryAfterMs } from '../service/retry.js';
import { oneLine } from '../text/one-line.js';

export const MINUTE_MS = 60_000;
const RETRY = { maxAttempts: Infinity, baseDelayMs: 1_000, maxDelayMs: 15_000 };

/** Why posting stopped or waits, in words for the warning. */
export interface Trouble {
  words: string;
  /** A refusal: posting again cannot help. */
  final: boolean;
  /** Earliest time to try again. */
  retryAt: number;
}

type Answer = {
  status?: unknown;
  response?: { headers?: Record<string, unknown> };
  cause?: unknown;
  message?: unknown;
};

/** What a status post needs, and what GitHub's 422 means for it. */
const STATUS_POST = {
  permission: 'statuses: write',
  refused:
    'GitHub refused a status (422): the commit is not in this repository, or it has too many statuses.',
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
  call: { permission: string; refused: string } = STATUS_POST,
): Trouble {
  const answer = (error ?? {}) as Answer;
  const backoff = now + backoffDelayMs(attempt, RETRY);
  if (error instanceof Error && error.message === 'GITHUB_REPOSITORY does not name a repository')
    return { words: 'GITHUB_REPOSITORY does not name a repository.', final: true, retryAt: now };
  if (!answer.response) {
    const cause = (answer.cause ?? error) as
      { code?: unknown; message?: unknown; name?: unknown } | undefined;
    const code =
      typeof cause?.code === 'string'
        ? cause.code
        : cause?.name === 'TimeoutError'
          ? 'no answer in time'
          : String(cause?.message ?? 'no answer');
    const host = apiUrl ? ` at ${hostOf(apiUrl)}` : '';
    return {
      words: `GitHub's API${host} could not be reached (${oneLine(code, 80)})`,
      final: false,
      retryAt: backoff,
    };
  }
  const status = typeof answer.status === 'number' ? answer.status : 0;
  const headers = answer.response.headers ?? {};
  const header = (name: string): string | undefined =>
    typeof headers[name] === 'string' ? (headers[name] as string) : undefined;
  const retryAfter = parseRetryAfterMs(header('retry-after'), now);
  const message = typeof answer.message === 'string' ? answer.message : '';
  if ((status === 403 || status === 429) && header('x-ratelimit-remaining') === '0') {
    const reset = Number(header('x-ratelimit-reset'));
    const wait =
      Number.isFinite(reset) && reset > 0 ? reset * 1000 - now : (retryAfter ?? secondaryWait(attempt));
    return {
      words: `GitHub's rate limit (${status}) was reached`,
      final: false,
      retryAt: now + Math.max(1_000, wait),
    };
  }
  if (status === 429 || (status === 403 && (retryAfter !== undefined || /rate limit/i.test(message)))) {
    return {
      words: `GitHub's secondary rate limit (${status}) was reached`,
      final: false,
      retryAt: now + Math.max(1_000, retryAfter ?? secondaryWait(attempt)),
    };
  }
  const accepted = header('x-accepted-github-permissions');
  const needs = accepted ? oneLine(accepted, 80).replace(/=/g, ': ') : call.permission;
  if (status === 403 || status === 404)
    return {
      words: `GitHub answered ${status}: the github-token needs the \`${needs}\` permission (\`permissions: ${needs}\` in the workflow or job). The gate's own result decides the step.`,
      final: true,
      retryAt: now,
    };
  if (status === 401)
    return { words: 'GitHub answered 401: the github-token was refused.', final: true, retryAt: now };
  if (status === 422) return { words: call.refused, final: true, retryAt: now };
  return { words: `GitHub answered ${status}`, final: status > 0 && status < 500, retryAt: backoff };
}

/** A secondary limit's wait when GitHub gives none: at least a minute, then longer each time. */
function secondaryWait(attempt: number): number {
  return Math.min(SECONDARY_MAX_MS, MINUTE_MS * 2 ** Math.max(0, attempt - 1));
}
