/**
 * Errors the service client raises. Each carries a message written for the person reading the
 * step's log: what failed, the service's own words where it gave some, and what to do next.
 * The `retryable` and `certainlyNotProcessed` flags feed the single retry policy in retry.ts.
 */

/** The service answered with a non-2xx status. */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly serviceMessage: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The request did not get a complete answer: refused, reset, timed out, DNS failure. */
export class NetworkError extends Error {
  constructor(
    message: string,
    /** True only when the request can not have reached the service (connection refused, DNS). */
    readonly certainlyNotProcessed: boolean,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** A 2xx answer whose body is not the JSON the spec describes (truncated, HTML, missing fields). */
export class ResponseFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResponseFormatError';
  }
}

/** Retrying gave up: carries the last failure so the message can say what kept going wrong. */
export class RetriesExhaustedError extends Error {
  constructor(
    message: string,
    readonly lastError: Error,
  ) {
    super(message);
    this.name = 'RetriesExhaustedError';
  }
}

const STATUS_HINTS: Record<number, string> = {
  400: 'The service rejected the request (400 Bad Request)',
  401: 'The access token was rejected (401 Unauthorized); check that the token is valid and not revoked',
  403: 'Permission denied (403 Forbidden); the token needs access to the project and a role that allows this operation (Developer or above for device sessions)',
  404: 'Not found (404)',
  429: 'Rate limited by the service (429 Too Many Requests)',
};

/** The message a user sees for a non-2xx answer. `serviceMessage` is already made safe by the caller. */
export function describeStatus(
  operation: string,
  status: number,
  code: string | undefined,
  serviceMessage: string,
): string {
  if (status === 400 && code === 'UNAUTHORIZED_ERROR') {
    return `${operation} failed: the service received no access token (400 UNAUTHORIZED_ERROR): ${serviceMessage}. Set the \`token\` input or the SVC_TOKEN environment variable.`;
  }
  const hint =
    STATUS_HINTS[status] ??
    (status >= 500 ? `The service failed (${status})` : `Unexpected answer (${status})`);
  const codePart = code ? ` [${code}]` : '';
  return `${operation} failed: ${hint}${codePart}: ${serviceMessage}`;
}
