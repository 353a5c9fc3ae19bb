/**
 * zod schemas of the service's resources (service-interface.md, "Resources and their fields").
 * Deliberately tolerant: statuses are plain strings (a newer service adds values such as `queued`),
 * unknown fields are kept (outputs pass jobs on "as the service returned them"), and only the fields
 * the action cannot work without are required.
 */
import * as z from 'zod/mini';

const nullableString = z.optional(z.nullable(z.string()));

export const WORKFLOW_RUN_TERMINAL = ['success', 'failure', 'canceled'] as const;
export const SESSION_TERMINAL = ['stopped', 'errored'] as const;

export const workflowJobSchema = z.looseObject({
  id: z.string(),
  key: z.string(),
  name: nullableString,
  type: nullableString,
  status: z.string(),
  requiredJobKeys: z.optional(z.nullable(z.array(z.string()))),
  environment: nullableString,
  outputs: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  errors: z.optional(z.nullable(z.array(z.unknown()))),
  buildId: nullableString,
  submissionId: nullableString,
  createdAt: nullableString,
  updatedAt: nullableString,
});
export type WorkflowJob = z.infer<typeof workflowJobSchema>;

export const workflowRunSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  url: nullableString,
  gitCommitHash: nullableString,
  gitCommitMessage: nullableString,
  requestedGitRef: nullableString,
  triggerEventType: nullableString,
  createdAt: nullableString,
  updatedAt: nullableString,
  jobs: z.array(workflowJobSchema),
});
export type WorkflowRun = z.infer<typeof workflowRunSchema>;

export const dispatchedRunSchema = z.looseObject({ id: z.string(), url: nullableString });
export type DispatchedRun = z.infer<typeof dispatchedRunSchema>;

export const remoteConfigSchema = z.looseObject({
  agentDeviceRemoteSessionUrl: z.optional(z.string()),
  agentDeviceRemoteSessionToken: z.optional(z.string()),
  toolsUrl: z.optional(z.string()),
  toolsAuthToken: z.optional(z.nullable(z.string())),
  appiumUrl: z.optional(z.string()),
  capabilities: z.optional(z.unknown()),
  webPreviewUrl: z.optional(z.nullable(z.string())),
  previewUrl: z.optional(z.nullable(z.string())),
});
export type RemoteConfig = z.infer<typeof remoteConfigSchema>;

export const deviceSessionSchema = z.looseObject({
  id: z.string(),
  appId: nullableString,
  url: nullableString,
  jobRunId: nullableString,
  name: nullableString,
  type: nullableString,
  platform: nullableString,
  status: z.string(),
  remoteConfig: z.optional(z.nullable(remoteConfigSchema)),
  maxDurationMinutes: z.optional(z.nullable(z.number())),
  maxIdleTimeMinutes: z.optional(z.nullable(z.number())),
  startedAt: nullableString,
  finishedAt: nullableString,
  createdAt: nullableString,
  updatedAt: nullableString,
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;
