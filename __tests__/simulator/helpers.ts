/** Shared helpers for the simulator tests (not a test file itself). */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import type { Simulator } from '../../simulator/index.js';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed body (undefined when it is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  token?: string;
  /** JSON-encoded unless `raw` is given. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Default: a fresh connection per request (agent: false). */
  agent?: Agent;
}

/** One HTTP request over loopback with node:http. */
export function call(sim: Simulator, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${sim.url}${path}`, { method, headers, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Polls `fn` until it returns a value, or throws after `timeoutMs`: a safety net ten times and more
 * what the simulator's waits here take on a busy machine (the wait ends as soon as it holds).
 */
export async function waitFor<T>(
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** First error message of an error reply (throws if the body is not an error envelope). */
export function errorMessages(reply: Reply): string {
  const errors = (reply.json as { errors?: Array<{ code: string; message: string }> })?.errors;
  if (!Array.isArray(errors) || errors.length === 0) throw new Error(`not an error body: ${reply.text}`);
  return errors.map((e) => e.message).join(' | ');
}

export function errorCodes(reply: Reply): string[] {
  return ((reply.json as { errors: Array<{ code: string }> }).errors ?? []).map((e) => e.code);
}

/** A page's visible text, roughly: style and tags dropped, the five escaped characters decoded. */
export const visible = (page: string): string =>
  page
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
