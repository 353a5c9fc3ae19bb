/** Builds the service client for a step, wired to the step's log and secret redaction. */
import type { ActionIO } from './io.js';
import type { ApiSettings } from '../inputs/table.js';
import { ServiceClient } from '../service/client.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { DEFAULT_RETRY_POLICY, MIN_DELAY_MS } from '../service/retry.js';

export const USER_AGENT = 'svc-github-action/1';

export function createClient(api: ApiSettings, io: ActionIO): ServiceClient {
  return new ServiceClient({
    baseUrl: api.baseUrl,
    token: api.token,
    userAgent: USER_AGENT,
    redact: (text) => io.redact(text),
    requestTimeoutMs: envNumber('SVC_REQUEST_TIMEOUT_MS', REQUEST_TIMEOUT_MS),
    // Back-off starts at half a poll interval (at most 1 s): never slower to retry a read than to poll.
    retry: {
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
