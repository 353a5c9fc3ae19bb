/**
 * Webhook delivery: per project, webhooks with an event type (`BUILD` or `SUBMIT`), a URL and a signing
 * secret. When a build or submission job of a workflow run completes, the matching payload
 * (`./payloads.ts`) is POSTed, signed with the secret (`svc-signature`, the same implementation the
 * action verifies with). The control routes that configure webhooks are in `./routes.ts`.
 *
 * Delivery (attempts and intervals are "not shown" by the spec; this is the simulator's model): a status
 * in 200-399 acknowledges; any other status, a network error or no answer within `timeoutMs` leads to a
 * further attempt after `baseIntervalMs`, then twice that, and so on, up to `attempts` attempts in all.
 * Every attempt of a delivery sends the same bytes with the same signature, and every attempt is recorded.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertWebhookSecret, SIGNATURE_HEADER, signWebhookBody } from '../../src/webhook/signature.js';
import type { WebhookEvent } from '../../src/webhook/payloads.js';
import type { JobCompletedEvent } from '../workflows.js';
import { webhookPayload } from './payloads.js';

export interface WebhookConfig {
  id: string;
  projectId: string;
  event: WebhookEvent;
  url: string;
  secret: string;
}

/** A webhook as listed: everything but the secret. */
export type WebhookView = Omit<WebhookConfig, 'secret'>;

export interface AddWebhookOptions {
  projectId: string;
  event: WebhookEvent;
  url: string;
  /** At least 16 characters. */
  secret: string;
}

/** One attempt of one delivery. */
export interface DeliveryAttempt {
  /** Same for every attempt of one delivery. */
  deliveryId: string;
  webhookId: string;
  event: WebhookEvent;
  url: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** When the request was sent (ISO 8601 with milliseconds). */
  sentAt: string;
  /** The receiver's status; null when it did not answer. */
  status: number | null;
  /** Why there was no status (connection refused, timeout, ...). */
  error?: string;
  /** The status was in 200-399. */
  acknowledged: boolean;
  /** The raw JSON body sent (the same bytes on every attempt). */
  body: string;
  /** The `svc-signature` header sent. */
  signature: string;
  durationMs: number;
}

export interface WebhookDispatcherOptions {
  /** Attempts per delivery in all, the first included (default 5). */
  attempts?: number;
  /** Wait before the second attempt; doubled before each further one (default 1000 ms). */
  baseIntervalMs?: number;
  /** How long to wait for an answer before counting the attempt as failed (default 10000 ms). */
  timeoutMs?: number;
  /**
   * How the wait before a retry passes (default: real timers). A test gives its own, to see the
   * delays the dispatcher schedules and to pass them at once, whatever the machine's load.
   */
  clock?: DeliveryClock;
}

/** The dispatcher's only use of time between attempts: wait `ms`, or less once `signal` aborts. */
export interface DeliveryClock {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const REAL_CLOCK: DeliveryClock = {
  sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
};

export class WebhookDispatcher {
  private readonly webhooks = new Map<string, WebhookConfig>();
  private readonly attemptsLog: DeliveryAttempt[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** Aborted (and replaced) by close() and reset(): ends every wait between attempts at once. */
  private waiting = new AbortController();
  private readonly clock: DeliveryClock;
  private readonly inFlight = new Set<() => void>();
  private readonly attempts: number;
  private readonly baseIntervalMs: number;
  private readonly timeoutMs: number;
  private closed = false;
  /** Bumped by reset(): a delivery of an earlier generation makes no further attempt. */
  private generation = 0;
  /** Called with every attempt as it is recorded (the simulator's log). */
  onAttempt?: (attempt: DeliveryAttempt, attempts: number) => void;

  constructor(options: WebhookDispatcherOptions = {}) {
    this.attempts = positiveInteger(options.attempts, 5, 'attempts');
    this.baseIntervalMs = nonNegative(options.baseIntervalMs, 1000, 'baseIntervalMs');
    this.timeoutMs = nonNegative(options.timeoutMs, 10_000, 'timeoutMs');
    this.clock = options.clock ?? REAL_CLOCK;
  }

  /** Configures a webhook; throws on an invalid event, URL or a secret shorter than 16 characters. */
  add(options: AddWebhookOptions): WebhookView {
    if (options.event !== 'BUILD' && options.event !== 'SUBMIT') {
      throw new Error(`event must be BUILD or SUBMIT, not ${String(options.event)}`);
    }
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new Error('url must be an absolute http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error('url must be an http or https URL');
    if (typeof options.projectId !== 'string' || options.projectId === '')
      throw new Error('projectId is required');
    assertWebhookSecret(options.secret);
    const webhook: WebhookConfig = {
      id: randomUUID(),
      projectId: options.projectId,
      event: options.event,
      url: url.toString(),
      secret: options.secret,
    };
    this.webhooks.set(webhook.id, webhook);
    return view(webhook);
  }

  /** Every configured webhook (without secrets), optionally of one project. */
  list(projectId?: string): WebhookView[] {
    return [...this.webhooks.values()]
      .filter((w) => projectId === undefined || w.projectId === projectId)
      .map(view);
  }

  /** Removes a webhook; deliveries already under way still finish. False when there was none. */
  remove(id: string): boolean {
    return this.webhooks.delete(id);
  }

  /** Every attempt made so far, oldest first. */
  get deliveries(): readonly DeliveryAttempt[] {
    return this.attemptsLog;
  }

  /** Forgets the attempts made so far (for a reset); deliveries under way still record theirs. */
  clearDeliveries(): void {
    this.attemptsLog.length = 0;
  }

  /** Listener for the simulator's `job-completed` event: delivers to each webhook of the project and event. */
  onJobCompleted(event: JobCompletedEvent): void {
    if (this.closed) return;
    const prepared = webhookPayload(event);
    if (!prepared) return;
    for (const webhook of this.webhooks.values()) {
      if (webhook.projectId === event.project.id && webhook.event === prepared.event) {
        this.deliver(webhook, prepared.payload);
      }
    }
  }

  /** Sends `payload` to one webhook (signed, with retries) in the background; see idle(). */
  deliver(webhook: WebhookConfig, payload: unknown): void {
    const body = JSON.stringify(payload);
    const signature = signWebhookBody(body, webhook.secret);
    const task = this.run(webhook, body, signature).finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Resolves once no delivery is under way (all acknowledged, given up, or cancelled by close()). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * Removes every webhook, cancels waiting retries and requests in flight, and forgets the attempts
   * made (`POST /_sim/reset`): an old receiver gets nothing more. Unlike close(), later deliveries work.
   */
  reset(): void {
    this.generation++;
    this.webhooks.clear();
    this.cancelWaiting();
    this.attemptsLog.length = 0;
  }

  /** Cancels waiting retries and requests in flight; no further attempt is made. */
  close(): void {
    this.closed = true;
    this.cancelWaiting();
  }

  /** Ends every wait between attempts at once (the waits of the generation reset() or close() ends). */
  private cancelWaiting(): void {
    this.waiting.abort();
    this.waiting = new AbortController();
    for (const abort of [...this.inFlight]) abort();
  }

  private async run(webhook: WebhookConfig, body: string, signature: string): Promise<void> {
    const deliveryId = randomUUID();
    const generation = this.generation;
    const cancelled = (): boolean => this.closed || this.generation !== generation;
    const signal = this.waiting.signal;
    for (let attempt = 1; attempt <= this.attempts && !cancelled(); attempt++) {
      if (attempt > 1) {
        await this.clock.sleep(this.baseIntervalMs * 2 ** (attempt - 2), signal);
        if (cancelled()) return;
      }
      const sentAt = new Date().toISOString();
      const started = Date.now();
      const answer = await this.post(webhook.url, body, signature);
      // Reset while in flight: the attempt belongs to what the reset forgot.
      if (this.generation !== generation) return;
      const acknowledged = answer.status !== null && answer.status >= 200 && answer.status <= 399;
      const record: DeliveryAttempt = {
        deliveryId,
        webhookId: webhook.id,
        event: webhook.event,
        url: webhook.url,
        attempt,
        sentAt,
        status: answer.status,
        ...(answer.error !== undefined ? { error: answer.error } : {}),
        acknowledged,
        body,
        signature,
        durationMs: Date.now() - started,
      };
      this.attemptsLog.push(record);
      this.onAttempt?.(record, this.attempts);
      if (acknowledged) return;
    }
  }

  /** One POST on a fresh connection; resolves with the status, or null and the reason. */
  private post(
    url: string,
    body: string,
    signature: string,
  ): Promise<{ status: number | null; error?: string }> {
    return new Promise((resolve) => {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      let settled = false;
      const finish = (result: { status: number | null; error?: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(abort);
        resolve(result);
      };
      const req = send(target, {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'svc-simulator-webhooks/1',
          [SIGNATURE_HEADER]: signature,
        },
      });
      const abort = (): void => {
        req.destroy();
        finish({ status: null, error: 'cancelled: the dispatcher was closed' });
      };
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: null, error: `no answer within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
      this.inFlight.add(abort);
      req.on('response', (res: IncomingMessage) => {
        res.resume();
        finish({ status: res.statusCode ?? null });
      });
      req.on('error', (error: NodeJS.ErrnoException) =>
        finish({ status: null, error: error.code ?? error.message }),
      );
      req.end(body);
    });
  }
}

function view(webhook: WebhookConfig): WebhookView {
  return { id: webhook.id, projectId: webhook.projectId, event: webhook.event, url: webhook.url };
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}
