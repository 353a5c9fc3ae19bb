/**
 * Why a request to GitHub's statuses failed, in words for the warning, and when to try again: the
 * one reading of GitHub's errors for the commit statuses (statuses.ts).
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

/**
 * Why a request failed, and when to try again. An error without an answer is GitHub not reached
 * (Octokit calls it 500: it is not); a 429, or a 403 with `retry-after` or a rate-limit message, is
 * a rate limit to wait out, never a missing permission. GitHub's own message is not repeated (it
 * may echo input).
 */
export function troubleOf(error: unknown, now: number, attempt: number, apiUrl: string | undefined): Trouble {
  const answer = (error ?? {}) as Answer;
  const backoff = now + backoffDelayMs(attempt, RETRY);
  if (error instanceof Error && error.message === 'GITHUB_REPOSITORY does not name a repository')
    return { words: 'GITHUB_REPOSITORY does not name a repository.', final: true, retryAt: now };
  if (!answer.response) {
    const cause = (answer.cause ?? error) as { code?: unknown; message?: unknown } | undefined;
    const code = typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? 'no answer');
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
  if (
    status === 429 ||
    (status === 403 &&
      (retryAfter !== undefined || header('x-ratelimit-remaining') === '0' || /rate limit/i.test(message)))
  ) {
    const reset = Number(header('x-ratelimit-reset'));
    const wait = retryAfter ?? (Number.isFinite(reset) && reset > 0 ? reset * 1000 - now : MINUTE_MS);
    return {
      words: `GitHub's rate limit (${status}) was reached`,
      final: false,
      retryAt: now + Math.max(1_000, wait),
    };
  }
  if (status === 403 || status === 404)
    return {
      words: `GitHub answered ${status}: the github-token needs the \`statuses: write\` permission (\`permissions: statuses: write\` in the workflow or job). The gate's own result decides the step.`,
      final: true,
      retryAt: now,
    };
  if (status === 401)
    return { words: 'GitHub answered 401: the github-token was refused.', final: true, retryAt: now };
  if (status === 422)
    return {
      words:
        'GitHub refused a status (422): the commit is not in this repository, or it has too many statuses.',
      final: true,
      retryAt: now,
    };
  return { words: `GitHub answered ${status}`, final: status > 0 && status < 500, retryAt: backoff };
}
