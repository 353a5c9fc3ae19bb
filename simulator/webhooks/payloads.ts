/**
 * Webhook payloads, filled from the workflow run and job that completed: a build job gives the build
 * payload, a submission job the submission payload (the spec's two payload tables). Fields the
 * simulator has no source for (versions, resource classes, counters) get plausible fixed or derived
 * values.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { BuildPayload, SubmissionPayload, WebhookEvent } from '../../src/webhook/payloads.js';
import type { JobCompletedEvent } from '../workflows.js';

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

/** The webhook event and payload a completed job produces, or null for jobs that produce none. */
export function webhookPayload(event: JobCompletedEvent): PreparedDelivery | null {
  const webhookEvent = JOB_EVENT[event.job.type];
  const status = PAYLOAD_STATUS[event.job.status];
  if (!webhookEvent || !status) return null;
  // A job canceled before it started has no build or submission record, so nothing completes.
  if (webhookEvent === 'BUILD')
    return event.job.buildId ? { event: 'BUILD', payload: buildPayload(event) } : null;
  return event.job.submissionId ? { event: 'SUBMIT', payload: submissionPayload(event) } : null;
}

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
    // A build canceled in the queue was never provisioned nor on a worker: those points are null.
    provisioningStartedAt: event.startedAt ? iso(provisioning) : null,
    workerStartedAt: event.startedAt ? iso(worker) : null,
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
      // A submission canceled before it ran wrote no logs.
      ...(event.startedAt ? { logsUrl: `${origin}/logs/submissions/${id}` } : {}),
    },
    createdAt: iso(times.created),
    updatedAt: iso(times.completed),
    completedAt: iso(times.completed),
    maxRetryTimeMinutes: 1440,
  };
}
