/**
 * The bytes on the wire: the last adjustment of a request before it is sent, and the reading of an
 * answer (the body within a size limit, the service's error shape, a depth check that walks no JSON
 * recursively). http.ts decides what a request is and what an answer means.
 */
import type { RequestHandler } from '@actions/http-client/lib/interfaces';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { ResponseFormatError } from './errors.js';
import { isRecord } from '../text/json.js';

/**
 * Adjusts each request just before @actions/http-client sends it (its own extension point):
 * an IPv6 literal host loses the brackets a URL has but a socket address must not, and the
 * request carries the abort signal of its attempt, so a time limit or a cancellation destroys
 * the request itself instead of leaving it running. `signal` is set right before each request:
 * the library calls prepareRequest synchronously inside request().
 */
export class RequestPreparation implements RequestHandler {
  signal: AbortSignal | undefined;

  prepareRequest(options: RequestOptions): void {
    if (typeof options.host === 'string' && /^\[.*\]$/.test(options.host))
      options.host = options.host.slice(1, -1);
    if (this.signal) options.signal = this.signal;
  }

  canHandleAuthentication(): boolean {
    return false;
  }

  handleAuthentication(): never {
    throw new Error('not used');
  }
}

/**
 * The error body's shape is "not shown" in the spec beyond a code and a message: read the common
 * shapes, fall back to a summary. `serviceShape` says whether it was one of them (a JSON object
 * with a message or a code): a 404 without it came from something else at that address.
 */
export function readErrorBody(
  body: string,
  contentType: string,
): { code?: string; text: string; serviceShape: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {
      text: `non-JSON answer (${contentType || 'no content type'}, ${body.length} bytes)`,
      serviceShape: false,
    };
  }
  if (!isRecord(json))
    return { text: `JSON answer that is not an object (${body.length} bytes)`, serviceShape: false };
  const entries = Array.isArray(json.errors) ? json.errors.filter(isRecord) : [];
  const nested = isRecord(json.error) ? json.error : undefined;
  const source = entries[0] ?? nested ?? json;
  // Every entry's message: a 400 may list several problems, and advice must not hang on the first.
  const listed = entries.map((entry) => entry.message).filter((v): v is string => typeof v === 'string');
  const text =
    listed.length > 1
      ? listed.join('; ')
      : [source.message, json.message, json.error].find((v): v is string => typeof v === 'string');
  const code = [source.code, json.code].find((v): v is string => typeof v === 'string');
  return { code, text: text ?? 'no message given', serviceShape: text !== undefined || code !== undefined };
}

/**
 * Whether JSON text nests deeper than `limit`, by counting brackets outside strings: one pass over
 * the text, no recursion (so it cannot overflow the stack) and nothing allocated.
 */
export function depthExceeds(json: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

export function readBody(message: IncomingMessage, limit: number, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // The first outcome wins: destroying the socket below also fires 'aborted' and 'close'.
    const settle = (error: Error | undefined, body?: string): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error) {
        reject(error);
        message.destroy();
      } else resolve(body ?? '');
    };
    const onAbort = (): void => settle(new Error('aborted'));
    if (signal.aborted) return settle(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    message.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(new ResponseFormatError(`the service's answer is larger than ${limit} bytes`));
      else chunks.push(chunk);
    });
    message.on('end', () => settle(undefined, Buffer.concat(chunks).toString('utf8')));
    message.on('error', (error) => settle(error));
    message.on('aborted', () => settle(new Error('connection closed before the answer was complete')));
    message.on('close', () => {
      if (!message.complete) settle(new Error('connection closed before the answer was complete'));
    });
  });
}
