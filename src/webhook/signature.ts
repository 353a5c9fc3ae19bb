/**
 * The `svc-signature` header of webhook deliveries (service-interface.md, Authentication rule 6):
 * `sha1=` followed by the lowercase hex HMAC-SHA1 of the raw request body, keyed with the webhook's
 * signing secret. One implementation for both sides: the simulator signs with it, the action verifies
 * with it.
 *
 * Verification works on the bytes exactly as received (a Buffer, or a string taken as UTF-8), never on
 * re-serialised JSON: parsing and printing again changes white space, key order and number forms, and
 * with them the digest. The comparison is constant-time, and no message ever contains the expected
 * digest (it would let anyone forge the next delivery of the same body).
 */
import { UserFacingError } from '../errors.js';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the header that carries the signature. */
export const SIGNATURE_HEADER = 'svc-signature';
/** The service's minimum signing-secret length (service-interface.md, "Limits"). */
export const MIN_SECRET_LENGTH = 16;

const PREFIX = 'sha1=';
const DIGEST_HEX_LENGTH = 40;
const WELL_FORMED = /^sha1=[0-9a-f]{40}$/;

/** The body of a delivery: the raw bytes, or a string that stands for its UTF-8 encoding. */
type RawBody = Buffer | Uint8Array | string;

/** A signing secret that the service would refuse (empty, or shorter than 16 characters). */
export class WebhookSecretError extends UserFacingError {
  constructor(message: string) {
    super(message);
  }
}

/** Why a signature was not accepted; the message never contains the expected digest. */
type SignatureProblem = 'missing' | 'malformed' | 'mismatch';

type SignatureCheck = { valid: true } | { valid: false; problem: SignatureProblem; message: string };

/**
 * What is wrong with `secret` as a signing secret (the service's minimum length, the one place it is
 * checked), with `what` naming it; undefined when it will do.
 */
export function webhookSecretProblem(secret: string, what: string): string | undefined {
  if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) return undefined;
  const length = typeof secret === 'string' ? secret.length : 0;
  if (length === 0) return `${what} is empty; it must be at least ${MIN_SECRET_LENGTH} characters long.`;
  return `${what} must be at least ${MIN_SECRET_LENGTH} characters long (it has ${length}).`;
}

/** Throws WebhookSecretError unless `secret` is a string of at least 16 characters. */
export function assertWebhookSecret(secret: string): void {
  const problem = webhookSecretProblem(secret, 'The webhook signing secret');
  if (problem) throw new WebhookSecretError(problem);
}

function digest(body: RawBody, secret: string): Buffer {
  assertWebhookSecret(secret);
  return createHmac('sha1', secret)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
}

/** The `svc-signature` header value for `body`: `sha1=` + 40 lowercase hex digits. */
export function signWebhookBody(body: RawBody, secret: string): string {
  return PREFIX + digest(body, secret).toString('hex');
}

/**
 * The delivery key (interface v5): the SHA-256, in lowercase hex, of the event's identity written as
 * the JSON array `["<event>","<id>","<status>"]`. One completion of one build or submission is one
 * event; the spec does not promise that a redelivery carries the same bytes, so the key is made of
 * what identifies the event, not of the body. The README's relay computes the same key, so the relay
 * and the workflow agree on which deliveries repeat one another.
 */
export function deliveryKey(identity: { event: string; id: string; status: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([identity.event, identity.id, identity.status]))
    .digest('hex');
}

/**
 * Checks `header` (the `svc-signature` value as received) against `body`. The header's form is checked
 * first (it reveals nothing about the secret); the digests are then compared in constant time. Throws
 * WebhookSecretError for an unusable secret: that is a configuration error, not a bad delivery.
 */
export function checkWebhookSignature(
  body: RawBody,
  header: string | null | undefined,
  secret: string,
): SignatureCheck {
  const expected = digest(body, secret);
  const invalid = (problem: SignatureProblem, detail: string): SignatureCheck => ({
    valid: false,
    problem,
    message: `Invalid signature: ${detail}`,
  });
  if (header === undefined || header === null || header === '') {
    return invalid('missing', `the ${SIGNATURE_HEADER} header is missing or empty.`);
  }
  if (!WELL_FORMED.test(header)) {
    return invalid('malformed', describeMalformed(header));
  }
  const received = Buffer.from(header.slice(PREFIX.length), 'hex');
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return invalid(
      'mismatch',
      `the ${SIGNATURE_HEADER} header does not match the payload. The payload was changed after it was signed, ` +
        'it was not passed byte for byte, or it was signed with a different secret.',
    );
  }
  return { valid: true };
}

/** What is wrong with a header that is not `sha1=` + 40 lowercase hex digits (never echoing it). */
function describeMalformed(header: string): string {
  const form = `it must be \`${PREFIX}\` followed by ${DIGEST_HEX_LENGTH} lowercase hexadecimal digits`;
  if (!header.startsWith(PREFIX)) {
    const hint = header.toLowerCase().startsWith(PREFIX) ? ` (the prefix must be lowercase)` : '';
    return `the ${SIGNATURE_HEADER} header does not start with \`${PREFIX}\`${hint}; ${form}.`;
  }
  const hex = header.slice(PREFIX.length);
  if (hex.length !== DIGEST_HEX_LENGTH) {
    return `the ${SIGNATURE_HEADER} header has ${hex.length} characters after \`${PREFIX}\`; ${form}.`;
  }
  if (/^[0-9a-fA-F]+$/.test(hex)) {
    return `the ${SIGNATURE_HEADER} header contains uppercase hexadecimal digits, which the service never sends; ${form}.`;
  }
  return `the ${SIGNATURE_HEADER} header contains characters that are not hexadecimal digits; ${form}.`;
}

/**
 * What the body shows about why its signature did not match, for the message: base64 of a JSON body
 * (a relayed body never decoded), a line break at its
 * end (added by `echo` or a YAML `|` block), or white space between its JSON tokens, which the
 * service never sends (it sends compact JSON): the body was re-serialised or pretty-printed on the
 * way. '' when the body shows neither: then the cause cannot be told (a compact re-serialisation
 * that reordered keys or changed escapes, another body, or another secret).
 */
export function mismatchHint(body: Buffer): string {
  const text = body.toString('utf8');
  if (isBase64OfJson(text))
    return (
      " The payload is base64 text that decodes to a JSON body: it was encoded on the way (such as a relay's " +
      '`body_base64`) and not decoded. Decode it first (`base64 --decode`, as the relay recipe does) and pass the bytes it gives.'
    );
  if (hasWhiteSpaceBetweenTokens(text.trimEnd()))
    return (
      ' The payload has white space between its JSON tokens (line breaks, indentation), which the service never ' +
      'sends: it was re-serialised or pretty-printed on the way (`toJSON(...)`, `jq .`). Pass the raw body byte for byte.'
    );
  if (body.length > 0 && body[body.length - 1] === 0x0a)
    return (
      ' The payload ends with a line break: if one was added on the way (`echo`, a YAML `|` block), remove it; ' +
      'the signature covers the body byte for byte.'
    );
  return '';
}

/**
 * Whether `text` is base64 (or base64url, wrapped in lines as `base64` prints it) of a JSON object
 * or array: a relayed body that was never decoded.
 */
function isBase64OfJson(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  if (compact.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return false;
  const decoded = Buffer.from(compact, 'base64').toString('utf8');
  try {
    const value: unknown = JSON.parse(decoded);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** Whether `text` is JSON with white space outside its strings: not compact. One pass over it. */
function hasWhiteSpaceBetweenTokens(text: string): boolean {
  try {
    JSON.parse(text);
  } catch {
    return false;
  }
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const sign = text[at];
    if (inString) {
      if (sign === '\\') at++;
      else if (sign === '"') inString = false;
    } else if (sign === '"') inString = true;
    else if (sign === ' ' || sign === '\n' || sign === '\r' || sign === '\t') return true;
  }
  return false;
}
