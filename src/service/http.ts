/**
 * The HTTP layer of the service client, on `@actions/http-client` (which also brings proxy support:
 * `https_proxy`, `http_proxy`, `no_proxy`): bearer auth, JSON, the `data` envelope, errors by status,
 * a per-attempt time limit, an answer size limit, abort on cancellation, and the retry policy of
 * retry.ts. One keep-alive HttpClient per step, so all requests of a step share one TCP connection.
 * It knows nothing of GitHub.
 */
import { HttpClient } from '@actions/http-client';
import type { IncomingMessage } from 'node:http';
import type { ZodMiniType } from 'zod/mini';
import { depthExceeds, readBody, readErrorBody, RequestPreparation } from './wire.js';
import {
  beforeSending,
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
import { isRecord } from '../text/json.js';
import { oneLine } from '../text/one-line.js';
import { baseUrlAdvice } from './base-url.js';
import { stepClock } from '../text/clock.js';

/** The default limit of one attempt, connect to last byte: also the comment's (github/comment.ts). */
export const REQUEST_TIMEOUT_MS = 30_000;

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
  onRetry?: (event: { operation: string; attempt: number; delayMs: number; reason: string }) => void;
}

interface RequestSpec<T> {
  /** What the request does, in words, for messages: "Reading workflow run 1f2e…". */
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** GET and stop: safe to repeat. Create and dispatch: not. */
  idempotent: boolean;
  /** The schema of the answer's `data`. */
  schema: ZodMiniType<T>;
  /** What a 404 means for this operation, when the generic "not found" says too little. */
  notFound?: string;
  /** What a 403 needs for this operation, where the spec says it (the device sessions' role). */
  forbidden?: string;
  /** Epoch ms after which no further attempt starts. */
  deadline?: number;
  /** Aborts waiting between attempts and the attempt in flight. */
  signal?: AbortSignal;
}

/** Deeper JSON than any resource of the spec is refused before anything walks it recursively. */
const MAX_JSON_DEPTH = 64;

export class ServiceHttp {
  private readonly client: HttpClient;
  private readonly preparation = new RequestPreparation();
  private readonly baseUrl: string;
  private readonly requestTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly retry: RetryPolicy;
  private readonly redact: (text: string) => string;

  constructor(private readonly settings: HttpSettings) {
    this.baseUrl = settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`;
    this.requestTimeoutMs = settings.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.maxResponseBytes = settings.maxResponseBytes ?? 16 * 1024 * 1024;
    this.retry = settings.retry ?? DEFAULT_RETRY_POLICY;
    this.redact = settings.redact ?? ((text) => text);
    this.client = new HttpClient(settings.userAgent ?? 'svc-action', [this.preparation], {
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
          const reason = `failed ${attempt} times in a row; last error: ${reasonOf(failure)}`;
          throw new RetriesExhaustedError(`${spec.operation} ${reason}`, failure, reason);
        }
        const delayMs = retryDelayMs(failure, attempt, this.retry);
        if (spec.deadline !== undefined && stepClock().now() + delayMs > spec.deadline) {
          const reason = `failed, and the time allowed ran out before another attempt; last error: ${reasonOf(failure)}`;
          throw new RetriesExhaustedError(`${spec.operation} ${reason}`, failure, reason);
        }
        this.settings.onRetry?.({
          operation: spec.operation,
          attempt,
          delayMs,
          reason: reasonOf(failure),
        });
        await stepClock().sleep(delayMs, spec.signal);
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
    const abort = spec.signal ? AbortSignal.any([timeout.signal, spec.signal]) : timeout.signal;
    const timedOut = (): boolean => timeout.signal.aborted && !spec.signal?.aborted;
    try {
      this.preparation.signal = abort;
      const sent = this.client.request(spec.method, url, payload as string, headers);
      this.preparation.signal = undefined;
      const response = await sent.catch((error: unknown) => {
        throw this.networkError(spec, error, timedOut());
      });
      const status = response.message.statusCode ?? 0;
      const body = await readBody(response.message, this.maxResponseBytes, abort).catch((error: unknown) => {
        if (error instanceof ResponseFormatError) throw formatError(spec, error.reason);
        throw this.networkError(spec, error, timedOut());
      });
      if (status < 200 || status >= 300) throw this.statusError(spec, status, body, response.message);
      return this.parseEnvelope(spec, body, response.message.headers['content-type']);
    } finally {
      this.preparation.signal = undefined;
      clearTimeout(timer);
    }
  }

  private networkError(spec: RequestSpec<unknown>, error: unknown, timedOut: boolean): NetworkError {
    if (spec.signal?.aborted) {
      const reason = 'the step was cancelled';
      return new NetworkError(`${spec.operation} was interrupted: ${reason}`, false, reason);
    }
    if (timedOut)
      return networkFailure(spec, `no complete answer within ${this.requestTimeoutMs / 1000} s`, false);
    const host = new URL(this.baseUrl).host;
    // Redacted before it is shortened: a cut must never leave part of a secret behind.
    const detail = oneLine(this.redact(error instanceof Error ? error.message : String(error)), 200);
    const before = beforeSending(error, host, detail);
    if (before)
      return new NetworkError(
        `${spec.operation} failed: ${before.reason}.`,
        true,
        before.reason,
        before.lasting,
      );
    return networkFailure(spec, `network error: ${detail}`, false);
  }

  private statusError(
    spec: RequestSpec<unknown>,
    status: number,
    body: string,
    message: IncomingMessage,
  ): ServiceError {
    const { code, text, serviceShape } = readErrorBody(body, String(message.headers['content-type'] ?? ''));
    const serviceMessage = oneLine(this.redact(text), 500);
    const retryAfter = message.headers['retry-after'];
    const retryAfterMs = parseRetryAfterMs(
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      Date.now(),
    );
    let reason = describeStatus(status, code, serviceMessage, spec, Boolean(this.settings.token));
    const advice = status === 404 ? baseUrlAdvice(new URL(this.baseUrl), serviceShape) : undefined;
    if (advice) reason += `. ${advice}`;
    return new ServiceError(
      `${spec.operation} failed: ${reason}`,
      status,
      code,
      serviceMessage,
      retryAfterMs,
      reason,
      advice,
    );
  }

  private parseEnvelope<T>(spec: RequestSpec<T>, body: string, contentType: string | undefined): T {
    let json: unknown;
    try {
      // A byte-order mark is not JSON, but some servers send one; it says nothing about the data.
      json = JSON.parse(body.replace(/^\uFEFF/, ''));
    } catch {
      throw formatError(
        spec,
        `the service's answer is not JSON (${oneLine(contentType ?? 'no content type', 100)}, ${body.length} bytes)`,
      );
    }
    if (typeof json !== 'object' || json === null || !('data' in json))
      throw formatError(spec, "the service's answer has no `data` field");
    const data = (json as { data: unknown }).data;
    const id = resourceIdOf(data);
    // The envelope is one level: its data may nest MAX_JSON_DEPTH levels below it.
    if (depthExceeds(body, MAX_JSON_DEPTH + 1))
      throw formatError(spec, `the service's answer is nested more than ${MAX_JSON_DEPTH} levels deep`, id);
    const parsed = spec.schema.safeParse(data);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      throw formatError(spec, `unexpected answer from the service (${oneLine(problems, 300)})`, id);
    }
    return parsed.data;
  }
}

function networkFailure(spec: RequestSpec<unknown>, reason: string, notProcessed: boolean): NetworkError {
  return new NetworkError(`${spec.operation} failed: ${reason}`, notProcessed, reason);
}

function formatError(spec: RequestSpec<unknown>, reason: string, resourceId?: string): ResponseFormatError {
  return new ResponseFormatError(`${spec.operation} failed: ${reason}`, reason, resourceId);
}

/** The cause of a failure without its operation, for messages that name the operation already. */
function reasonOf(error: Error): string {
  return 'reason' in error && typeof error.reason === 'string' ? error.reason : error.message;
}

/** `data.id` when it is a string: kept even when the rest of the answer is unusable. */
function resourceIdOf(data: unknown): string | undefined {
  const id = isRecord(data) ? data.id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A create or dispatch that failed in a way that does not prove it was not processed: say so, so
 * the user checks the dashboard instead of assuming nothing happened.
 */
function notRepeated(spec: RequestSpec<unknown>, failure: Error): Error {
  const ambiguous =
    failure instanceof ResponseFormatError ||
    (failure instanceof NetworkError && !failure.certainlyNotProcessed) ||
    (failure instanceof ServiceError && (failure.status === 429 || failure.status >= 500));
  if (spec.idempotent || !ambiguous) return failure;
  failure.message +=
    '. The service may have processed the request anyway; it was not repeated, so that nothing is created twice: check the dashboard.';
  return failure;
}
