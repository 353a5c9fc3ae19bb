/**
 * The one retry policy of the action (action-interface.md, "Retries"):
 * - reads (GET) and stop are idempotent: retried on network errors, malformed answers, 5xx and 429;
 * - create and dispatch are not: retried only when the request certainly never reached the service
 *   (connection refused or a DNS failure), so a retry can never start a second paid session or a
 *   second run. A 429 is not such a case: the spec does not say that a rate-limited request was not
 *   processed, so a create or dispatch answered 429 fails the step, saying to check the dashboard;
 * - exponential back-off with jitter, `Retry-After` honoured, never past the caller's deadline.
 */
import { NetworkError, ResponseFormatError, ServiceError } from './errors.js';

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * The shortest wait between two requests, whatever the service or the inputs say (`Retry-After: 0`,
 * a tiny `poll-interval-seconds`): the step never turns into a busy loop against the service.
 */
export const MIN_DELAY_MS = 50;

/** Whether `error` may be retried for a request of this kind. */
export function isRetryable(error: unknown, idempotent: boolean): boolean {
  if (error instanceof ServiceError) return idempotent && (error.status === 429 || error.status >= 500);
  if (error instanceof NetworkError) return !error.lasting && (idempotent || error.certainlyNotProcessed);
  if (error instanceof ResponseFormatError) return idempotent;
  return false;
}

/** Delay before attempt `attempt + 1` (attempt counts from 1): exponential with "equal jitter". */
export function backoffDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** Parses a `Retry-After` header: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfterMs(header: string | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The delay to wait after a failed attempt: the server's Retry-After when it gave one, else back-off. */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random?: () => number,
): number {
  const backoff = backoffDelayMs(attempt, policy, random);
  if (error instanceof ServiceError && error.retryAfterMs !== undefined)
    return Math.max(MIN_DELAY_MS, error.retryAfterMs);
  return Math.max(MIN_DELAY_MS, backoff);
}
