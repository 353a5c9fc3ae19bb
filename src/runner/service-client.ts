/** Builds the service client for a step, wired to the step's log and secret redaction. */
import type { ActionIO } from './io.js';
import type { ApiSettings } from '../inputs/table.js';
import { ServiceClient } from '../service/client.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { DEFAULT_RETRY_POLICY, MIN_DELAY_MS, type RetryPolicy } from '../service/retry.js';

export const USER_AGENT = 'svc-github-action/1';

/**
 * A policy shorter than the step's default, for a caller that has other work and a next call to
 * leave a read to (sync-statuses: two attempts of 10 s, not six of 30 s).
 */
export interface ClientPolicy {
  retry: RetryPolicy;
  requestTimeoutMs: number;
}

export function createClient(api: ApiSettings, io: ActionIO, policy?: ClientPolicy): ServiceClient {
  return new ServiceClient({
    baseUrl: api.baseUrl,
    token: api.token,
    userAgent: USER_AGENT,
    redact: (text) => io.redact(text),
    requestTimeoutMs: envNumber('SVC_REQUEST_TIMEOUT_MS', policy?.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    // Back-off starts at half a poll interval (at most 1 s): never slower to retry a read than to poll.
    retry: policy?.retry ?? {
      ...DEFAULT_RETRY_POLICY,
      baseDelayMs: Math.min(DEFAULT_RETRY_POLICY.baseDelayMs, Math.max(MIN_DELAY_MS, api.pollIntervalMs / 2)),
    },
    onRetry: ({ operation, attempt, delayMs, reason }) =>
      io.info(
        `${operation}: attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s`,
      ),
  });
}

/** Test and tuning hook: a positive number from the environment, else the fallback. */
export function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
