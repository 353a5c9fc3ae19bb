/**
 * The zod schemas themselves, in a module of their own that schemas.ts imports lazily: a static
 * import of zod here lets the bundler keep only the parts used, which a dynamic import of zod
 * itself would not.
 */
import * as z from 'zod/mini';

const nullableString = z.optional(z.nullable(z.string()));

const workflowJobSchema = z.looseObject({
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

const workflowRunSchema = z.looseObject({
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

const dispatchedRunSchema = z.looseObject({ id: z.string(), url: nullableString });

const remoteConfigSchema = z.looseObject({
  agentDeviceRemoteSessionUrl: z.optional(z.string()),
  agentDeviceRemoteSessionToken: z.optional(z.string()),
  toolsUrl: z.optional(z.string()),
  toolsAuthToken: z.optional(z.nullable(z.string())),
  appiumUrl: z.optional(z.string()),
  capabilities: z.optional(z.unknown()),
  webPreviewUrl: z.optional(z.nullable(z.string())),
  previewUrl: z.optional(z.nullable(z.string())),
});

const deviceSessionSchema = z.looseObject({
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

export const schemas = {
  workflowJobSchema,
  workflowRunSchema,
  dispatchedRunSchema,
  remoteConfigSchema,
  deviceSessionSchema,
};
