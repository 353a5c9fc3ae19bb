/**
 * GitHub's answers as sync-statuses reads them: every failed request (an Octokit `RequestError`, a
 * GraphQL answer with `errors`, a request that never got an answer) becomes one of a few kinds, each
 * with what the sync does about it and the words it says. Read here only, so that no answer of
 * GitHub's reaches the step as "Unexpected error". (The gate reads its statuses' answers in
 * status-trouble.ts, with its own back-off; the two are to be one reader.)
 *
 * GitHub's documentation: rest/using-the-rest-api/rate-limits-for-the-rest-api (primary limits:
 * 403 or 429 with `x-ratelimit-remaining: 0`, wait for `x-ratelimit-reset`; secondary limits: 403
 * or 429, honour `retry-after`), rest/authentication/permissions-required-for-github-apps
 * (`x-accepted-github-permissions`), graphql/overview/rate-limits-and-query-limits-for-the-graphql-api.
 */
import { hostOf } from '../service/base-url.js';
import { parseRetryAfterMs } from '../service/retry.js';
import { oneLine } from '../text/one-line.js';

/** The permission a call needs, in a workflow's `permissions:` words. */
export type Permission = 'pull-requests: read' | 'statuses: read' | 'statuses: write';

/** What GitHub's answer was, as the sync acts on it. */
export type GitHubAnswer =
  /** 401: the token itself is refused (invalid, expired, revoked). */
  | { kind: 'token-refused'; status: number }
  /** 403 for a permission the token lacks (or a GraphQL `FORBIDDEN`). */
  | { kind: 'permission'; status: number; permission: string }
  /** The hour's budget is spent: nothing helps before `resetAt` (epoch ms, when GitHub says). */
  | { kind: 'primary-limit'; status: number; resetAt?: number }
  /** Too much at once: try again at `retryAt` (epoch ms) when GitHub says, else later. */
  | { kind: 'secondary-limit'; status: number; retryAt?: number }
  | { kind: 'not-found'; status: number }
  | { kind: 'validation'; status: number }
  /** GitHub answered, but failing (a 5xx, often with an HTML page) or with a status the sync does not expect. */
  | { kind: 'failing'; status: number }
  /** No answer: a reset connection, a refused one, a time-out. */
  | { kind: 'not-reached'; reason: string };

type Failed = {
  status?: unknown;
  message?: unknown;
  cause?: unknown;
  name?: unknown;
  response?: { headers?: Record<string, unknown>; data?: unknown };
  headers?: Record<string, unknown>;
  errors?: unknown;
};

/** How `error`, thrown by a call that needs `need`, reads; `now` places `retry-after` in time. */
export function readAnswer(error: unknown, need: Permission | (string & {}), now: number): GitHubAnswer {
  const failed = (error ?? {}) as Failed;
  const headers = failed.response?.headers ?? failed.headers ?? {};
  const header = (name: string): string | undefined => {
    const value = headers[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  };
  const reset = Number(header('x-ratelimit-reset'));
  const resetAt = Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;

  // A GraphQL answer of 200 whose `errors` say why (Octokit's GraphqlResponseError).
  if (Array.isArray(failed.errors) && failed.errors.length > 0) {
    const types = failed.errors.map((each) => String((each as { type?: unknown }).type ?? ''));
    if (types.includes('RATE_LIMITED')) return { kind: 'primary-limit', status: 200, resetAt };
    if (types.includes('FORBIDDEN')) return { kind: 'permission', status: 200, permission: need };
    if (types.includes('NOT_FOUND')) return { kind: 'not-found', status: 200 };
    return { kind: 'failing', status: 200 };
  }

  const status = typeof failed.status === 'number' ? failed.status : 0;
  // Octokit calls a request without an answer a 500: it is not one.
  if (!failed.response) return { kind: 'not-reached', reason: noAnswerReason(error) };
  const message =
    messageOf(failed.response.data) ?? (typeof failed.message === 'string' ? failed.message : '');
  if (status === 403 || status === 429) {
    const retryAfter = parseRetryAfterMs(header('retry-after'), now);
    if (header('x-ratelimit-remaining') === '0' && retryAfter === undefined)
      return { kind: 'primary-limit', status, resetAt };
    if (retryAfter !== undefined || status === 429 || saysSecondaryLimit(message))
      return {
        kind: 'secondary-limit',
        status,
        ...(retryAfter !== undefined ? { retryAt: now + retryAfter } : {}),
      };
    return { kind: 'permission', status, permission: acceptedPermission(header) ?? need };
  }
  if (status === 401) return { kind: 'token-refused', status };
  if (status === 404) return { kind: 'not-found', status };
  if (status === 422) return { kind: 'validation', status };
  return { kind: 'failing', status };
}

/**
 * Whether GitHub's message is its secondary-limit one ("You have exceeded a secondary rate limit").
 * Read here only: a 403 of a secondary limit may come without `retry-after` and with requests left
 * in the hour, and then its message is the one thing that tells it from a missing permission (the
 * rate-limit documentation shows no header of its own for it).
 */
function saysSecondaryLimit(message: string): boolean {
  return /secondary rate limit|abuse detection/i.test(message);
}

/** `x-accepted-github-permissions` (`pull_requests=read; contents=read`) as a workflow writes it. */
function acceptedPermission(header: (name: string) => string | undefined): string | undefined {
  const accepted = header('x-accepted-github-permissions');
  // `;` separates sets GitHub accepts, `,` the permissions of one set: the first set is enough.
  const first = accepted?.split(';')[0]?.trim();
  if (!first) return undefined;
  const words = first
    .split(',')
    .map((one) => one.trim().match(/^([a-z_]{1,40})=([a-z]{1,10})$/))
    .filter((found): found is RegExpMatchArray => found !== null)
    .map(([, name, level]) => `${name.replace(/_/g, '-')}: ${level}`);
  return words.length > 0 ? words.join(', ') : undefined;
}

function messageOf(data: unknown): string | undefined {
  const message = (data as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** Why no answer came: the network error's code, or a time-out. */
function noAnswerReason(error: unknown): string {
  const failed = error as Failed;
  const cause = (failed?.cause ?? error) as { code?: unknown; name?: unknown; message?: unknown } | undefined;
  if (cause?.name === 'TimeoutError' || failed?.name === 'TimeoutError') return 'no answer in time';
  if (typeof cause?.code === 'string') return oneLine(cause.code, 40);
  return oneLine(String(cause?.message ?? 'no answer'), 80);
}

/** When a limit ends, as GitHub said (a primary limit's reset, a secondary limit's retry-after), if it said. */
function limitEndsAt(answer: GitHubAnswer): number | undefined {
  if (answer.kind === 'primary-limit') return answer.resetAt;
  if (answer.kind === 'secondary-limit') return answer.retryAt;
  return undefined;
}

/**
 * How long to wait before trying once more, when that is worth it: a limit that ends within
 * `maxWaitMs` (its `retry-after`, or for a spent hour `x-ratelimit-reset`). Undefined: not a limit,
 * or one that lasts longer (the sync then stops its GitHub work until its next call).
 */
export function waitWithin(answer: GitHubAnswer, now: number, maxWaitMs: number): number | undefined {
  const until = limitEndsAt(answer);
  if (until === undefined) return undefined;
  const wait = Math.max(1_000, until - now);
  return wait <= maxWaitMs ? wait : undefined;
}

/** The time a limit ends, in UTC, or "later" words when GitHub did not say. */
export function whenLimitEnds(answer: GitHubAnswer): string {
  const until = limitEndsAt(answer);
  if (until === undefined)
    return answer.kind === 'secondary-limit'
      ? 'GitHub gave no time; it asks to wait at least a minute'
      : 'GitHub gave no reset time';
  const time = new Date(until).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return answer.kind === 'secondary-limit' ? `try again after ${time}` : `it resets at ${time}`;
}

/** The answer in words, for a warning, an error or a summary row; `apiUrl` names an unreachable host. */
export function answerWords(answer: GitHubAnswer, apiUrl?: string): string {
  switch (answer.kind) {
    case 'token-refused':
      return 'GitHub refused `github-token` (401: it is not a valid token, or it expired)';
    case 'permission':
      return `GitHub answered ${answer.status === 200 ? 'FORBIDDEN' : answer.status}: \`github-token\` needs \`${answer.permission}\` (\`permissions:\` of the workflow or job)`;
    case 'primary-limit':
      return `GitHub's rate limit for \`github-token\` is spent (${answer.status === 200 ? 'RATE_LIMITED' : answer.status}; ${whenLimitEnds(answer)})`;
    case 'secondary-limit':
      return `GitHub's secondary rate limit was reached (${answer.status}; ${whenLimitEnds(answer)})`;
    case 'not-found':
      return `GitHub answered ${answer.status === 200 ? 'NOT_FOUND' : 404} (no such commit or repository for \`github-token\`)`;
    case 'validation':
      return 'GitHub refused the status as invalid (422: a commit this repository does not have, or too many statuses)';
    case 'failing':
      return `GitHub's API failed (${answer.status})`;
    case 'not-reached':
      return `GitHub's API${apiUrl ? ` at ${hostOf(apiUrl)}` : ''} could not be reached (${answer.reason})`;
  }
}
