/**
 * Errors the service client raises. Each carries a message written for the person reading the
 * step's log: what failed, the service's own words where it gave some, and what to do next.
 * The `retryable` and `certainlyNotProcessed` flags feed the single retry policy in retry.ts.
 */
import { UserFacingError } from '../errors.js';

/** The service answered with a non-2xx status. */
export class ServiceError extends UserFacingError {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly serviceMessage: string,
    readonly retryAfterMs: number | undefined,
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** The request did not get a complete answer: refused, reset, timed out, DNS failure. */
export class NetworkError extends UserFacingError {
  constructor(
    message: string,
    /** True only when the request can not have reached the service (connection refused, DNS). */
    readonly certainlyNotProcessed: boolean,
    /** The cause alone, without the operation: for retry lines that name the operation once. */
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** A 2xx answer whose body is not the JSON the spec describes (truncated, HTML, missing fields). */
export class ResponseFormatError extends UserFacingError {
  constructor(
    message: string,
    readonly reason: string = message,
    /**
     * The resource's id when the answer was unusable but still named it: a create whose answer
     * cannot be read must still be able to stop the session it started.
     */
    readonly resourceId?: string,
  ) {
    super(message);
  }
}

/** Retrying gave up: carries the last failure so the message can say what kept going wrong. */
export class RetriesExhaustedError extends UserFacingError {
  constructor(
    message: string,
    readonly lastError: Error,
    readonly reason: string = message,
  ) {
    super(message);
  }
}

const STATUS_HINTS: Record<number, string> = {
  400: 'The service rejected the request (400 Bad Request)',
  401: 'The access token was rejected (401 Unauthorized); check that the token is valid and not revoked',
  403: 'Permission denied (403 Forbidden); the token needs access to the project and a role that allows this operation (Developer or above for device sessions)',
  404: 'Not found (404)',
  429: 'Rate limited by the service (429 Too Many Requests)',
};

/**
 * Why a non-2xx answer failed, in words, without the operation (the caller names it once).
 * `serviceMessage` is already made safe by the caller; `notFound` replaces the generic 404 hint
 * where the operation knows better what a 404 means.
 */
export function describeStatus(
  status: number,
  code: string | undefined,
  serviceMessage: string,
  notFound?: string,
  /** Whether this request carried an `Authorization` header. */
  tokenSent = false,
): string {
  if (status === 400 && code === 'UNAUTHORIZED_ERROR') {
    // The header was sent and still not received: something between the runner and the service dropped it.
    if (tokenSent)
      return `the service received no access token (400 UNAUTHORIZED_ERROR): ${serviceMessage}. The \`Authorization\` header was sent but did not reach the service: a proxy or gateway between the runner and the service may strip it.`;
    return `the service received no access token (400 UNAUTHORIZED_ERROR): ${serviceMessage}. Set the \`token\` input or the SVC_TOKEN environment variable.`;
  }
  const hint =
    (status === 404 ? notFound : undefined) ??
    STATUS_HINTS[status] ??
    (status >= 500 ? `The service failed (${status})` : `Unexpected answer (${status})`);
  const codePart = code ? ` [${code}]` : '';
  return `${hint}${codePart}: ${serviceMessage}`;
}
