/**
 * The fields of a verified payload that the step passes on and shows, read the same way for both
 * events (service-interface.md, "Build webhook payload" and "Submission webhook payload"):
 *
 * - the error: `error` of a build, `submissionInfo.error` of a submission (conditional: failed ones);
 * - the artifact: `artifacts.buildUrl` of a build (conditional: successful builds), `archiveUrl` of a
 *   submission (the archive it submitted); the build payload has no other archive URL;
 * - the page on the service: `buildDetailsPageUrl` / `submissionDetailsPageUrl`;
 * - the logs: `submissionInfo.logsUrl` of a submission. A build payload gives only
 *   `artifacts.logsS3KeyPrefix`, a storage key rather than a URL, so a build has none.
 */
import type { WebhookEvent, WebhookPayload } from './payloads.js';

export interface WebhookFields {
  event: WebhookEvent;
  /** `build` or `submission`, for sentences. */
  kind: 'build' | 'submission';
  id: string;
  status: string;
  platform: string;
  appId: string;
  accountName: string;
  projectName: string;
  detailsUrl: string;
  artifactUrl?: string;
  logsUrl?: string;
  error?: { errorCode: string; message: string };
  /** The build or submission that this one retries. */
  parentId?: string;
  /** The build a submission submits (`turtleBuildId`). */
  submittedBuildId?: string;
  /** The payload's timestamps, as sent (a submission has only `createdAt` and `completedAt`). */
  times: {
    createdAt: string;
    enqueuedAt?: string;
    provisioningStartedAt?: string;
    workerStartedAt?: string;
    completedAt: string;
  };
}

export function webhookFields(webhook: WebhookPayload): WebhookFields {
  const { payload } = webhook;
  const common = {
    id: payload.id,
    status: payload.status,
    platform: payload.platform,
    appId: payload.appId,
    accountName: payload.accountName,
    projectName: payload.projectName,
  };
  if (webhook.event === 'BUILD') {
    const build = webhook.payload;
    return {
      event: 'BUILD',
      kind: 'build',
      ...common,
      detailsUrl: build.buildDetailsPageUrl,
      artifactUrl: build.artifacts.buildUrl,
      error: build.error && { errorCode: build.error.errorCode, message: build.error.message },
      parentId: build.parentBuildId,
      times: {
        createdAt: build.createdAt,
        enqueuedAt: build.enqueuedAt ?? undefined,
        provisioningStartedAt: build.provisioningStartedAt ?? undefined,
        workerStartedAt: build.workerStartedAt ?? undefined,
        completedAt: build.completedAt,
      },
    };
  }
  const submission = webhook.payload;
  const error = submission.submissionInfo.error;
  return {
    event: 'SUBMIT',
    kind: 'submission',
    ...common,
    detailsUrl: submission.submissionDetailsPageUrl,
    artifactUrl: submission.archiveUrl,
    logsUrl: submission.submissionInfo.logsUrl,
    error: error && { errorCode: error.errorCode, message: error.message },
    parentId: submission.parentSubmissionId,
    submittedBuildId: submission.turtleBuildId,
    times: { createdAt: submission.createdAt, completedAt: submission.completedAt },
  };
}
