/**
 * Webhook delivery: per project, webhooks with an event type (`BUILD` or `SUBMIT`), a URL and a signing
 * secret. When a build or submission job of a workflow run completes, the matching payload is built from
 * the run and POSTed, signed with the secret (`svc-signature`, the same implementation the action
 * verifies with).
 *
 * Delivery (attempts and intervals are "not shown" by the spec; this is the simulator's model): a status
 * in 200-399 acknowledges; any other status, a network error or no answer within `timeoutMs` leads to a
 * further attempt after `baseIntervalMs`, then twice that, and so on, up to `attempts` attempts in all.
 * Every attempt of a delivery sends the same bytes with the same signature, and every attempt is recorded.
 */
import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertWebhookSecret, SIGNATURE_HEADER, signWebhookBody } from '../src/webhook/signature.js';
import type { BuildPayload, SubmissionPayload, WebhookEvent } from '../src/webhook/payloads.js';
import { badRequest, notFound } from './errors.js';
import { ok, parseJsonBody, type Route } from './server.js';
import type { JobCompletedEvent } from './workflows.js';

export type { WebhookEvent };

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
}

/** What a completed job of type build/submission becomes (null when no webhook applies). */
export interface PreparedDelivery {
  event: WebhookEvent;
  payload: BuildPayload | SubmissionPayload;
}

const JOB_EVENT: Record<string, WebhookEvent> = { build: 'BUILD', submission: 'SUBMIT' };
const PAYLOAD_STATUS: Record<string, 'finished' | 'errored' | 'canceled'> = {
  success: 'finished',
  failure: 'errored',
  canceled: 'canceled',
};

export class WebhookDispatcher {
  private readonly webhooks = new Map<string, WebhookConfig>();
  private readonly attemptsLog: DeliveryAttempt[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly wakers = new Set<() => void>();
  private readonly inFlight = new Set<() => void>();
  private readonly attempts: number;
  private readonly baseIntervalMs: number;
  private readonly timeoutMs: number;
  private closed = false;

  constructor(options: WebhookDispatcherOptions = {}) {
    this.attempts = positiveInteger(options.attempts, 5, 'attempts');
    this.baseIntervalMs = nonNegative(options.baseIntervalMs, 1000, 'baseIntervalMs');
    this.timeoutMs = nonNegative(options.timeoutMs, 10_000, 'timeoutMs');
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
    const prepared = this.prepare(event);
    if (!prepared) return;
    for (const webhook of this.webhooks.values()) {
      if (webhook.projectId === event.project.id && webhook.event === prepared.event) {
        this.deliver(webhook, prepared.payload);
      }
    }
  }

  /** The payload a completed job produces, or null for jobs that produce none. */
  prepare(event: JobCompletedEvent): PreparedDelivery | null {
    const webhookEvent = JOB_EVENT[event.job.type];
    const status = PAYLOAD_STATUS[event.job.status];
    if (!webhookEvent || !status) return null;
    // A job canceled before it started has no build or submission record, so nothing completes.
    if (webhookEvent === 'BUILD')
      return event.job.buildId ? { event: 'BUILD', payload: buildPayload(event) } : null;
    return event.job.submissionId ? { event: 'SUBMIT', payload: submissionPayload(event) } : null;
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

  /** Cancels waiting retries and requests in flight; no further attempt is made. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const wake of [...this.wakers]) wake();
    for (const abort of [...this.inFlight]) abort();
  }

  private async run(webhook: WebhookConfig, body: string, signature: string): Promise<void> {
    const deliveryId = randomUUID();
    for (let attempt = 1; attempt <= this.attempts && !this.closed; attempt++) {
      if (attempt > 1) {
        await this.wait(this.baseIntervalMs * 2 ** (attempt - 2));
        if (this.closed) return;
      }
      const sentAt = new Date().toISOString();
      const started = Date.now();
      const answer = await this.post(webhook.url, body, signature);
      const acknowledged = answer.status !== null && answer.status >= 200 && answer.status <= 399;
      this.attemptsLog.push({
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
      });
      if (acknowledged) return;
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.timers.add(timer);
      this.wakers.add(done);
    });
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

// ---------------------------------------------------------------------------------------------------
// Payloads, filled from the run and job that completed. Fields the simulator has no source for
// (versions, resource classes, counters) get plausible fixed or derived values.

const DAY_MS = 24 * 60 * 60 * 1000;

interface Times {
  created: number;
  started: number;
  completed: number;
}

function timesOf(event: JobCompletedEvent): Times {
  const completed = Date.parse(event.completedAt);
  const started = event.startedAt ? Date.parse(event.startedAt) : completed;
  return { created: Math.min(started, completed), started: Math.min(started, completed), completed };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** `https://host/accounts/a/projects/p` from the run's dashboard URL (`.../workflows/<id>`). */
function projectPageUrl(event: JobCompletedEvent): string {
  const fromRun = event.run.url.replace(/\/workflows\/[^/]+$/, '');
  if (fromRun !== event.run.url) return fromRun;
  return `${new URL(event.run.url).origin}/accounts/${encodeURIComponent(event.project.accountName)}/projects/${encodeURIComponent(event.project.name)}`;
}

function platformOf(event: JobCompletedEvent): 'android' | 'ios' {
  return event.platform === 'ios' ? 'ios' : 'android';
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'app';
}

/** A number derived from an id, so that metrics differ between builds but are reproducible. */
function spread(id: string, min: number, max: number): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return min + (hash % (max - min + 1));
}

/** A UUID derived from a name: the simulator records no user or account ids in runs, but they must be stable. */
function nameUuid(name: string): string {
  const hex = createHash('sha1').update(`svc-simulator:${name}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `finished` / `errored` / `canceled` for a job that ended success / failure / canceled. */
function payloadStatus(event: JobCompletedEvent): 'finished' | 'errored' | 'canceled' {
  return PAYLOAD_STATUS[event.job.status] ?? 'errored';
}

/** The user who "dispatched" runs of the project (the simulator does not record one). */
function initiatingUserOf(event: JobCompletedEvent): string {
  return nameUuid(`user:${event.project.accountName}`);
}

/** The build payload of a completed build job (its `buildId` is the build's id). */
export function buildPayload(event: JobCompletedEvent): BuildPayload {
  const status = payloadStatus(event);
  const initiatingUserId = initiatingUserOf(event);
  const id = event.job.buildId ?? randomUUID();
  const platform = platformOf(event);
  const times = timesOf(event);
  const span = times.completed - times.started;
  const provisioning = times.started + Math.floor(span * 0.1);
  const worker = times.started + Math.floor(span * 0.2);
  const origin = new URL(event.run.url).origin;
  const profile = event.job.environment || 'production';
  const payload: BuildPayload = {
    id,
    accountName: event.project.accountName,
    projectName: event.project.name,
    buildDetailsPageUrl: `${projectPageUrl(event)}/builds/${id}`,
    appId: event.project.id,
    initiatingUserId,
    cancelingUserId: status === 'canceled' ? initiatingUserId : null,
    platform,
    status,
    artifacts: {
      ...(status === 'finished'
        ? {
            buildUrl: `${origin}/artifacts/builds/${id}/${slug(event.project.name)}.${platform === 'ios' ? 'ipa' : 'aab'}`,
          }
        : {}),
      logsS3KeyPrefix: `production/${event.project.id}/${id}`,
    },
    metadata: {
      appName: event.project.name,
      username: event.project.accountName,
      workflow: 'managed',
      appVersion: '1.0.0',
      appBuildVersion: '1',
      cliVersion: '16.17.0',
      sdkVersion: '54.0.0',
      buildProfile: profile,
      distribution: 'store',
      appIdentifier: `com.${slug(event.project.accountName)}.${slug(event.project.name)}`,
      gitCommitHash: event.run.gitCommitHash,
      gitCommitMessage: event.run.gitCommitMessage,
      runtimeVersion: '1.0.0',
      channel: profile,
      reactNativeVersion: '0.81.4',
      trackingContext: {
        platform,
        account_id: nameUuid(`account:${event.project.accountName}`),
        dev_client: false,
        project_id: event.project.id,
        tracking_id: nameUuid(`tracking:${id}`),
        project_type: 'managed',
        dev_client_version: '6.0.0',
      },
      credentialsSource: 'remote',
      isGitWorkingTreeDirty: false,
      message: `${event.job.name} (workflow run ${event.run.id})`,
      runFromCI: true,
    },
    metrics: {
      memory: spread(id, 2, 6) * 1024 ** 3,
      buildEndTimestamp: times.completed,
      totalDiskReadBytes: spread(id, 200, 900) * 1024 ** 2,
      buildStartTimestamp: worker,
      totalDiskWriteBytes: spread(id, 100, 600) * 1024 ** 2,
      cpuActiveMilliseconds: Math.max(1, Math.round(span * 1.6)),
      buildEnqueuedTimestamp: times.created,
      totalNetworkEgressBytes: spread(id, 5, 80) * 1024 ** 2,
      totalNetworkIngressBytes: spread(id, 300, 1200) * 1024 ** 2,
    },
    ...(status === 'errored'
      ? { error: { message: event.errorMessage ?? 'The build failed', errorCode: 'UNKNOWN_ERROR' } }
      : {}),
    createdAt: iso(times.created),
    enqueuedAt: iso(times.created),
    provisioningStartedAt: iso(provisioning),
    workerStartedAt: iso(worker),
    completedAt: iso(times.completed),
    updatedAt: iso(times.completed),
    expirationDate: iso(times.completed + 30 * DAY_MS),
    priority: 'normal',
    resourceClass: 'medium',
    actualResourceClass: platform === 'ios' ? 'ios-m-medium' : 'android-n2-1.3-12',
    maxRetryTimeMinutes: 1440,
  };
  return payload;
}

/** The submission payload of a completed submission job (its `submissionId` is the submission's id). */
export function submissionPayload(event: JobCompletedEvent): SubmissionPayload {
  const status = payloadStatus(event);
  const initiatingUserId = initiatingUserOf(event);
  const id = event.job.submissionId ?? randomUUID();
  const platform = platformOf(event);
  const times = timesOf(event);
  const origin = new URL(event.run.url).origin;
  // The build this submission submits: an upstream build job of the same run that produced one.
  const upstream = event.run.jobs.find(
    (job) => job.type === 'build' && job.buildId && event.job.requiredJobKeys.includes(job.key),
  );
  return {
    id,
    accountName: event.project.accountName,
    projectName: event.project.name,
    submissionDetailsPageUrl: `${projectPageUrl(event)}/submissions/${id}`,
    appId: event.project.id,
    archiveUrl: upstream?.buildId
      ? `${origin}/artifacts/builds/${upstream.buildId}/${slug(event.project.name)}.${platform === 'ios' ? 'ipa' : 'aab'}`
      : `${origin}/artifacts/uploads/${id}/${slug(event.project.name)}.${platform === 'ios' ? 'ipa' : 'aab'}`,
    initiatingUserId,
    cancelingUserId: status === 'canceled' ? initiatingUserId : null,
    ...(upstream?.buildId ? { turtleBuildId: upstream.buildId } : {}),
    platform,
    status,
    submissionInfo: {
      ...(status === 'errored'
        ? { error: { message: event.errorMessage ?? 'The submission failed', errorCode: 'UNKNOWN_ERROR' } }
        : {}),
      logsUrl: `${origin}/logs/submissions/${id}`,
    },
    createdAt: iso(times.created),
    updatedAt: iso(times.completed),
    completedAt: iso(times.completed),
    maxRetryTimeMinutes: 1440,
  };
}

// ---------------------------------------------------------------------------------------------------
// Control routes (the service's own HTTP endpoints for webhooks are "not shown"):
//   GET    /_sim/webhooks               the configured webhooks (without secrets)
//   POST   /_sim/webhooks               body: { projectId, event: BUILD|SUBMIT, url, secret } → the webhook
//   DELETE /_sim/webhooks/:id
//   GET    /_sim/webhook-deliveries     every delivery attempt, oldest first

export function webhookControlRoutes(
  dispatcher: WebhookDispatcher,
  hasProject: (id: string) => boolean,
): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/_sim\/webhooks\/?$/,
      handler: () => ok(dispatcher.list()),
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/webhooks\/?$/,
      handler(ctx) {
        const body = parseJsonBody(ctx);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw badRequest('The body must be a JSON object: { projectId, event, url, secret }');
        }
        const { projectId, event, url, secret } = body as Record<string, unknown>;
        if (typeof projectId !== 'string' || !hasProject(projectId))
          throw badRequest('projectId must be the id of a project');
        if (typeof url !== 'string' || typeof secret !== 'string')
          throw badRequest('url and secret must be strings');
        try {
          return ok(dispatcher.add({ projectId, event: event as WebhookEvent, url, secret }));
        } catch (error) {
          throw badRequest((error as Error).message);
        }
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/_sim\/webhooks\/([^/]+)\/?$/,
      handler(_ctx, [id]) {
        if (!dispatcher.remove(id)) throw notFound(`No webhook with id ${id}`);
        return ok({});
      },
    },
    {
      method: 'GET',
      pattern: /^\/_sim\/webhook-deliveries\/?$/,
      handler: () => ok(dispatcher.deliveries),
    },
  ];
}
