/**
 * The HTTP layer of the service client: bearer auth, JSON, the `data` envelope, errors by status,
 * a per-request deadline, a response size limit, and the retry policy of retry.ts. One keep-alive
 * HttpClient per step, so all requests of a step share one TCP connection. It knows nothing of GitHub.
 */
import { HttpClient } from './transport.js';
import type { IncomingMessage } from 'node:http';
import type { ZodMiniType } from 'zod/mini';
import { loadSchemas, type Schemas } from './schemas.js';
import {
  describeStatus,
  NetworkError,
  ResponseFormatError,
  RetriesExhaustedError,
  ServiceError,
} from './errors.js';
import {
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseRetryAfterMs,
  retryDelayMs,
  type RetryPolicy,
} from './retry.js';
import { oneLine } from '../text.js';
import { sleep } from '../sleep.js';

export interface HttpSettings {
  baseUrl: string;
  token: string;
  /** Limit for one attempt, connect to last byte. */
  requestTimeoutMs?: number;
  maxResponseBytes?: number;
  retry?: RetryPolicy;
  userAgent?: string;
  /** Makes text safe to show: removes registered secrets. */
  redact?: (text: string) => string;
  /** Told before each retry wait, for a log line. */
  onRetry?: (event: { operation: string; attempt: number; delayMs: number; error: Error }) => void;
}

export interface RequestSpec<T> {
  /** What the request does, in words, for messages: "Reading workflow run 1f2e…". */
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** GET and stop: safe to repeat. Create and dispatch: not. */
  idempotent: boolean;
  /** Picks the schema of the answer's `data` (schemas load lazily, see schemas.ts). */
  schema: (schemas: Schemas) => ZodMiniType<T>;
  /** Epoch ms after which no further attempt starts. */
  deadline?: number;
  /** Aborts waiting between attempts and the attempt in flight. */
  signal?: AbortSignal;
}

const NOT_PROCESSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export class ServiceHttp {
  private readonly client: HttpClient;
  private readonly baseUrl: string;
  private readonly requestTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly retry: RetryPolicy;
  private readonly redact: (text: string) => string;

  constructor(private readonly settings: HttpSettings) {
    this.baseUrl = settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`;
    this.requestTimeoutMs = settings.requestTimeoutMs ?? 30_000;
    this.maxResponseBytes = settings.maxResponseBytes ?? 16 * 1024 * 1024;
    this.retry = settings.retry ?? DEFAULT_RETRY_POLICY;
    this.redact = settings.redact ?? ((text) => text);
    this.client = new HttpClient(settings.userAgent ?? 'svc-action', [], {
      keepAlive: true,
      allowRetries: false,
      allowRedirects: false,
      socketTimeout: this.requestTimeoutMs,
    });
  }

  /** Closes the kept-alive connection so the process can exit at once. */
  dispose(): void {
    this.client.dispose();
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(spec);
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        // Cancelled: never repeated; a create or dispatch cut short may still have been processed.
        if (spec.signal?.aborted) throw notRepeated(spec, failure);
        if (!isRetryable(failure, spec.idempotent)) throw notRepeated(spec, failure);
        if (attempt >= this.retry.maxAttempts) {
          if (attempt === 1) throw failure;
          throw new RetriesExhaustedError(
            `${spec.operation} failed ${attempt} times in a row; giving up. Last error: ${failure.message}`,
            failure,
          );
        }
        const delayMs = retryDelayMs(failure, attempt, this.retry);
        if (spec.deadline !== undefined && Date.now() + delayMs > spec.deadline) {
          throw new RetriesExhaustedError(
            `${spec.operation} failed and the time allowed for it ran out before another attempt. Last error: ${failure.message}`,
            failure,
          );
        }
        this.settings.onRetry?.({ operation: spec.operation, attempt, delayMs, error: failure });
        await sleep(delayMs, spec.signal);
      }
    }
  }

  private async attempt<T>(spec: RequestSpec<T>): Promise<T> {
    const url = new URL(spec.path.replace(/^\//, ''), this.baseUrl).toString();
    const headers: Record<string, string> = { Accept: 'application/json' };
    // No token, no header: the service then answers 400 UNAUTHORIZED_ERROR, which names the problem.
    if (this.settings.token) headers.Authorization = `Bearer ${this.settings.token}`;
    let payload: string | null = null;
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(spec.body);
    }

    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.requestTimeoutMs);
    const onAbort = (): void => timeout.abort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await abortable(
        this.client.request(spec.method, url, payload, headers),
        timeout.signal,
      ).catch((error: unknown) => {
        throw this.networkError(spec, error, timeout.signal.aborted && !spec.signal?.aborted);
      });
      const status = response.message.statusCode ?? 0;
      // zod loads while the body arrives: after the request is out, so it never delays it.
      const schemas = loadSchemas();
      const body = await readBody(response.message, this.maxResponseBytes, timeout.signal).catch(
        (error: unknown) => {
          if (error instanceof ResponseFormatError)
            throw new ResponseFormatError(`${spec.operation} failed: ${error.message}`);
          throw this.networkError(spec, error, timeout.signal.aborted && !spec.signal?.aborted);
        },
      );
      if (status < 200 || status >= 300) throw this.statusError(spec, status, body, response.message);
      return this.parseEnvelope(spec, await schemas, body, response.message.headers['content-type']);
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }
  }

  private networkError(spec: RequestSpec<unknown>, error: unknown, timedOut: boolean): NetworkError {
    if (spec.signal?.aborted)
      return new NetworkError(`${spec.operation} was interrupted: the step was cancelled`, false);
    if (timedOut) {
      return new NetworkError(
        `${spec.operation} failed: no complete answer within ${this.requestTimeoutMs / 1000} s`,
        false,
      );
    }
    const code = (error as { code?: string } | null)?.code;
    const detail = this.redact(oneLine(error instanceof Error ? error.message : String(error), 200));
    const notProcessed = code !== undefined && NOT_PROCESSED_CODES.has(code);
    const where = notProcessed ? ` (could not reach ${new URL(this.baseUrl).host})` : '';
    return new NetworkError(`${spec.operation} failed: network error${where}: ${detail}`, notProcessed);
  }

  private statusError(
    spec: RequestSpec<unknown>,
    status: number,
    body: string,
    message: IncomingMessage,
  ): ServiceError {
    const { code, text } = readErrorBody(body, String(message.headers['content-type'] ?? ''));
    const serviceMessage = this.redact(oneLine(text, 500));
    const retryAfter = message.headers['retry-after'];
    const retryAfterMs = parseRetryAfterMs(
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      Date.now(),
    );
    return new ServiceError(
      describeStatus(spec.operation, status, code, serviceMessage),
      status,
      code,
      serviceMessage,
      retryAfterMs,
    );
  }

  private parseEnvelope<T>(
    spec: RequestSpec<T>,
    schemas: Schemas,
    body: string,
    contentType: string | undefined,
  ): T {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new ResponseFormatError(
        `${spec.operation} failed: the service's answer is not JSON (${contentType ?? 'no content type'}, ${body.length} bytes)`,
      );
    }
    if (typeof json !== 'object' || json === null || !('data' in json)) {
      throw new ResponseFormatError(`${spec.operation} failed: the service's answer has no \`data\` field`);
    }
    const parsed = spec.schema(schemas).safeParse((json as { data: unknown }).data);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      throw new ResponseFormatError(
        `${spec.operation} failed: unexpected answer from the service (${oneLine(problems, 300)})`,
      );
    }
    return parsed.data;
  }
}

/**
 * A create or dispatch that failed in a way that does not prove it was not processed: say so, so
 * the user checks the dashboard instead of assuming nothing happened.
 */
function notRepeated(spec: RequestSpec<unknown>, failure: Error): Error {
  const ambiguous =
    failure instanceof ResponseFormatError ||
    (failure instanceof NetworkError && !failure.certainlyNotProcessed) ||
    (failure instanceof ServiceError && failure.status >= 500);
  if (spec.idempotent || !ambiguous) return failure;
  failure.message +=
    '. The service may have processed the request anyway; it was not repeated, so that nothing is created twice: check the dashboard.';
  return failure;
}

/** The error body's shape is "not shown" in the spec: read the common shapes, fall back to a summary. */
function readErrorBody(body: string, contentType: string): { code?: string; text: string } {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const first = Array.isArray(json.errors)
      ? (json.errors[0] as Record<string, unknown> | undefined)
      : undefined;
    const nested =
      typeof json.error === 'object' && json.error !== null
        ? (json.error as Record<string, unknown>)
        : undefined;
    const source = first ?? nested ?? json;
    const text = [source.message, json.message, json.error].find((v): v is string => typeof v === 'string');
    const code = [source.code, json.code].find((v): v is string => typeof v === 'string');
    return { code, text: text ?? 'no message given' };
  } catch {
    return { text: `non-JSON answer (${contentType || 'no content type'}, ${body.length} bytes)` };
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function readBody(message: IncomingMessage, limit: number, signal: AbortSignal): Promise<string> {
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
