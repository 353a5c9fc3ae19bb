/**
 * The faults the campaign injects on the service's endpoints, and how each affects a step under the
 * action's retry policy (src/service/retry.ts): retried away (transient) or the step's failure (fatal).
 */
import type { Fault } from '../../simulator/index.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js';
import type { Rng } from './random.js';
import { REQUEST_TIMEOUT_MS } from './timings.js';

export const FAULT_KINDS = [
  '5xx',
  'reset before the response',
  'reset after processing',
  'partial body then reset',
  'slower than the request timeout',
  '429 without Retry-After',
  '429 with Retry-After',
  'HTML error page',
  'truncated JSON',
  'malformed JSON',
  'missing field',
  'unknown status',
  '4xx (401/403/404)',
] as const;
export type FaultKindName = (typeof FAULT_KINDS)[number];

export type Endpoint = 'dispatch' | 'run-read' | 'create' | 'session-read' | 'stop';

/** The requests of each endpoint, as the simulator's faults match them. */
export const MATCHERS: Record<Endpoint, { method: string; path: string | RegExp }> = {
  dispatch: { method: 'POST', path: '/v2/workflows/dispatch' },
  'run-read': { method: 'GET', path: '/v2/workflows/runs/' },
  create: { method: 'POST', path: /^\/v2\/device-run-sessions(\?|$)/ },
  'session-read': { method: 'GET', path: '/v2/device-run-sessions/' },
  stop: { method: 'POST', path: /^\/v2\/device-run-sessions\/[^/]+\/stop(\?|$)/ },
};

export const ENDPOINT_NAMES: Record<Endpoint, string> = {
  dispatch: 'POST /v2/workflows/dispatch',
  'run-read': 'GET /v2/workflows/runs/:id',
  create: 'POST /v2/device-run-sessions',
  'session-read': 'GET /v2/device-run-sessions/:id',
  stop: 'POST /v2/device-run-sessions/:id/stop',
};

/** Never retried once they may have been processed (retry.ts), so a retry cannot create twice. */
const NOT_IDEMPOTENT: Endpoint[] = ['dispatch', 'create'];
const UNKNOWN_STATUSES = ['queued', 'starting', 'paused-by-operator', 'SUCCESS'];
const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>upstream connect error</p></body></html>\n';

export interface PlannedFault {
  endpoint: Endpoint;
  kind: FaultKindName;
  times: number;
  /** Whether the step can still reach its scenario's outcome (retried away) or must fail because of it. */
  effect: 'transient' | 'fatal';
  fault: Fault;
}

/** How a fault of `kind` applied `times` times in a row on `endpoint` affects the step (retry.ts's policy). */
export function faultEffect(endpoint: Endpoint, kind: FaultKindName, times: number): 'transient' | 'fatal' {
  if (kind === 'unknown status') return 'transient';
  if (kind === '4xx (401/403/404)') return 'fatal';
  // DEFAULT_RETRY_POLICY.maxAttempts attempts in all: one failure fewer in a row is retried away.
  const retriedAway = times < DEFAULT_RETRY_POLICY.maxAttempts;
  // A create or dispatch is repeated only when it certainly never reached the service (not on 429).
  if (NOT_IDEMPOTENT.includes(endpoint)) return 'fatal';
  return retriedAway ? 'transient' : 'fatal';
}

function setData(json: unknown, change: (data: Record<string, unknown>) => void): unknown {
  const data = (json as { data?: unknown } | null)?.data;
  if (typeof data === 'object' && data !== null) change(data as Record<string, unknown>);
  return json;
}

export function buildFault(
  endpoint: Endpoint,
  kind: FaultKindName,
  times: number,
  rng: Rng,
  requestTimeoutMs: number,
): PlannedFault {
  const match = { ...MATCHERS[endpoint], times };
  let fault: Fault;
  switch (kind) {
    case '5xx':
      fault = {
        ...match,
        kind: 'status',
        status: rng.pick([500, 502, 503, 504]),
        processed: rng.chance(0.5),
      };
      break;
    case 'reset before the response':
      fault = { ...match, kind: 'reset', processed: false };
      break;
    case 'reset after processing':
      fault = { ...match, kind: 'reset', processed: true };
      break;
    case 'partial body then reset':
      fault = { ...match, kind: 'partial' };
      break;
    case 'slower than the request timeout':
      fault = { ...match, kind: 'delay', ms: requestTimeoutMs * 2, processed: rng.chance(0.5) };
      break;
    case '429 without Retry-After':
      fault = {
        ...match,
        kind: 'status',
        status: 429,
        body: { errors: [{ code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests, slow down' }] },
      };
      break;
    case '429 with Retry-After':
      fault = {
        ...match,
        kind: 'status',
        status: 429,
        headers: { 'Retry-After': rng.pick(['0', '1']) },
        body: { errors: [{ code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests, slow down' }] },
      };
      break;
    case 'HTML error page':
      fault = { ...match, kind: 'body', status: rng.pick([200, 502, 503]), body: HTML_PAGE };
      break;
    case 'truncated JSON':
      fault = { ...match, kind: 'body', body: '{"data":{"id":"3f0c2a1e-7c1d-4b0e-9a55-', status: 200 };
      break;
    case 'malformed JSON':
      fault = { ...match, kind: 'body', body: "{data: {id: 'x', status: new,}}", status: 200 };
      break;
    case 'missing field': {
      const field =
        endpoint === 'dispatch' || endpoint === 'create'
          ? 'id'
          : endpoint === 'run-read'
            ? rng.pick(['status', 'jobs', 'id'])
            : rng.pick(['status', 'id']);
      fault = { ...match, kind: 'mutate', mutate: (json) => setData(json, (data) => delete data[field]) };
      break;
    }
    case 'unknown status': {
      const status = rng.pick(UNKNOWN_STATUSES);
      fault = { ...match, kind: 'mutate', mutate: (json) => setData(json, (data) => (data.status = status)) };
      break;
    }
    case '4xx (401/403/404)': {
      const status = rng.pick([401, 403, 404]);
      const code = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[status];
      fault = {
        ...match,
        kind: 'status',
        status,
        body: { errors: [{ code, message: `Simulated ${status} for the campaign` }] },
      };
      break;
    }
  }
  return { endpoint, kind, times, effect: faultEffect(endpoint, kind, times), fault };
}

/** A fault of a random kind for `endpoint`; `allowFatal` false: only kinds the step retries away. */
export function randomFault(endpoint: Endpoint, rng: Rng, allowFatal: boolean): PlannedFault {
  const kinds = FAULT_KINDS.filter(
    (kind) =>
      !(kind === 'unknown status' && endpoint === 'dispatch') &&
      (allowFatal || faultEffect(endpoint, kind, 1) === 'transient'),
  );
  const kind = rng.pick(kinds);
  let times = rng.pick([1, 1, 2, 3]);
  if (kind === '429 with Retry-After') times = rng.int(1, 2);
  else if (kind === 'slower than the request timeout') times = rng.int(1, 2);
  // Now and then a read that fails on every attempt: retries give up, the step must fail clearly.
  if (allowFatal && !NOT_IDEMPOTENT.includes(endpoint) && kind !== 'unknown status' && rng.chance(0.12))
    times = DEFAULT_RETRY_POLICY.maxAttempts;
  return buildFault(endpoint, kind, times, rng, REQUEST_TIMEOUT_MS);
}
