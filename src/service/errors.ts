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
    /** What a 404 says of the base URL, for callers that word the 404 themselves. */
    readonly baseUrlAdvice?: string,
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
    /** A fault of the set-up (the scheme, a certificate) that no retry mends. */
    readonly lasting = false,
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
  403: 'Permission denied (403 Forbidden); the token needs access to the project and a role that allows this operation',
  404: 'Not found (404)',
  429: 'Rate limited by the service (429 Too Many Requests)',
};

/**
 * Why a non-2xx answer failed, in words, without the operation (the caller names it once).
 * `serviceMessage` is already made safe by the caller; `meaning.notFound` replaces the generic 404
 * hint with what the spec says a 404 of the operation means, `meaning.forbidden` the generic 403
 * hint with what the spec says the operation's 403 needs.
 */
export function describeStatus(
  status: number,
  code: string | undefined,
  serviceMessage: string,
  meaning: { notFound?: string; forbidden?: string } = {},
  /** Whether this request carried an `Authorization` header. */
  tokenSent = false,
): string {
  if (status === 400 && code === 'UNAUTHORIZED_ERROR') {
    // The header was sent and still not received: something between the runner and the service dropped it.
    if (tokenSent)
      return (
        `the service received no access token (400 UNAUTHORIZED_ERROR): ${serviceMessage}. ` +
        'The `Authorization` header was sent but did not reach the service: ' +
        'a proxy or gateway between the runner and the service may strip it.'
      );
    return `the service received no access token (400 UNAUTHORIZED_ERROR): ${serviceMessage}. Set the \`token\` input or the SVC_TOKEN environment variable.`;
  }
  const hint =
    (status === 404 ? meaning.notFound : undefined) ??
    (status === 403 && meaning.forbidden
      ? `Permission denied (403 Forbidden); ${meaning.forbidden}`
      : undefined) ??
    STATUS_HINTS[status] ??
    (status >= 500 ? `The service failed (${status})` : `Unexpected answer (${status})`);
  const codePart = code ? ` [${code}]` : '';
  return `${hint}${codePart}: ${serviceMessage}`;
}

/** Why a connection failed before anything was sent, in words; the TLS cases are not worth a retry. */
const BEFORE_SENDING: Record<string, { words: string; lasting?: boolean }> = {
  ECONNREFUSED: { words: 'the connection was refused: nothing listens at that address and port' },
  ENOTFOUND: { words: 'the host name does not resolve (DNS): check its spelling' },
  EAI_AGAIN: { words: 'the host name could not be resolved for now (DNS)' },
  EHOSTUNREACH: { words: 'the host cannot be reached from this runner' },
  ENETUNREACH: { words: 'the network of the host cannot be reached from this runner' },
  WRONG_SCHEME: {
    words:
      'the server does not speak TLS there: the base URL probably says https:// where the server takes http://',
    lasting: true,
  },
  UNTRUSTED: {
    words:
      "the server's certificate is not trusted (self-signed, or signed by an authority this runner does not know; a private authority's certificate can be given to Node with NODE_EXTRA_CA_CERTS)",
    lasting: true,
  },
  EXPIRED: { words: "the server's certificate has expired or is not valid yet", lasting: true },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    words: "the server's certificate is for another host name (host name mismatch): use a host name it names",
    lasting: true,
  },
  TLS: { words: 'the TLS handshake failed', lasting: true },
};

const UNTRUSTED_CODES = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
];

/**
 * Whether OpenSSL's message says an https request met a server that speaks plain http ("wrong
 * version number", "packet length too long", "http request"). Read here only: Node gives that
 * failure the code of any TLS protocol error (EPROTO, or none), so its message is the one thing that
 * tells an `https://` base URL pointing at a plain-http port from another TLS failure.
 */
function saysPlainHttp(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /wrong version number|packet length too long|http request/i.test(message);
}

/**
 * A network error that certainly came before the request was sent (no connection, no TLS session),
 * in words: undefined for any other (reset, timeout), which may have followed a request the
 * service received. `host` is where the action tried to connect.
 */
export function beforeSending(
  error: unknown,
  host: string,
  /** The error's own text, made safe to show: kept for a failed connection, not for TLS. */
  detail: string,
): { reason: string; lasting: boolean } | undefined {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const key =
    code in BEFORE_SENDING
      ? code
      : saysPlainHttp(error)
        ? 'WRONG_SCHEME'
        : UNTRUSTED_CODES.includes(code)
          ? 'UNTRUSTED'
          : code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID'
            ? 'EXPIRED'
            : /^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(code)
              ? 'TLS'
              : undefined;
  if (key === undefined) return undefined;
  const { words, lasting = false } = BEFORE_SENDING[key];
  // OpenSSL's own text ("ssl3_get_record:wrong version number") says nothing to a user: its code does.
  const where = lasting
    ? `the secure connection (TLS) to ${host} could not be set up; ${words}${code ? ` (${code})` : ''}`
    : `could not reach ${host}; ${words} (${detail})`;
  return { reason: `nothing was sent: ${where}`, lasting };
}
