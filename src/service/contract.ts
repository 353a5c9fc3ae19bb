/**
 * The service's contract (service-interface.md) in one place: the request bodies, the resources as
 * the service documents them, the status lists, and the schemas the client reads answers with. The
 * client (client.ts) and the simulator (simulator/) both import it, so the two cannot drift apart.
 *
 * Two views of each resource:
 * - `*Resource` types are what the spec documents, field by field: the simulator serves exactly these.
 * - The schemas, and the `WorkflowRun`, `DeviceSession`… types inferred from them, are what the client
 *   accepts. They are deliberately tolerant: statuses are plain strings (a newer service adds values
 *   such as `queued`), unknown fields are kept (outputs pass jobs on "as the service returned them"),
 *   and only the fields the action cannot work without are required.
 * The checks at the end of this file fail to compile when the two views disagree on a field's name or
 * when a documented resource would not pass the client's schema.
 */
import * as z from 'zod/mini';
import { line, link, shownText, status, time } from './shown-fields.js';
import { isRecord } from '../text/json.js';

export const PLATFORMS = ['android', 'ios'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const SESSION_TYPES = ['agent-device', 'appium', 'argent', 'serve-sim'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

export const SESSION_STATUSES = ['new', 'in-progress', 'stopped', 'errored'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const SESSION_TERMINAL = ['stopped', 'errored'] as const satisfies readonly SessionStatus[];

export const RUN_STATUSES = [
  'new',
  'in-progress',
  'action-required',
  'success',
  'failure',
  'canceled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const WORKFLOW_RUN_TERMINAL = [
  'success',
  'failure',
  'canceled',
] as const satisfies readonly RunStatus[];

export const JOB_STATUSES = [
  'new',
  'in-progress',
  'action-required',
  'pending-cancel',
  'success',
  'failure',
  'canceled',
  'skipped',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** A job ends as a run does, or skipped (a job it needs did not succeed). */
export const JOB_TERMINAL = [...WORKFLOW_RUN_TERMINAL, 'skipped'] as const satisfies readonly JobStatus[];

/** Whether a resource with this status has ended: the one reading of the terminal lists above. */
const endsWith =
  (terminal: readonly string[]) =>
  (resource: { status: string }): boolean =>
    terminal.includes(resource.status);
export const isSessionTerminal = endsWith(SESSION_TERMINAL);
export const isRunTerminal = endsWith(WORKFLOW_RUN_TERMINAL);
export const isJobTerminal = endsWith(JOB_TERMINAL);

/** Limits of the create request's fields (the request table of POST /v2/device-run-sessions). */
export const SESSION_LIMITS = {
  /** `maxDurationMinutes` is 0 to this, inclusive (the five further minutes are reserved for cleanup). */
  maxDurationMinutes: 115,
  /** `maxIdleTimeMinutes` must be positive and below this. */
  maxIdleTimeMinutesExclusive: 115,
  nameLength: 255,
  applicationArchiveUrlLength: 2048,
} as const;

// ---------------------------------------------------------------------------------------------------
// Requests

/** The body of POST /v2/workflows/dispatch. */
export interface DispatchRequest {
  appId: string;
  gitRef: string;
  fileName: string;
  inputs?: Record<string, unknown>;
}

/** The body of POST /v2/device-run-sessions; fields left undefined are not sent. */
export interface CreateSessionRequest {
  appId: string;
  platform: Platform;
  name?: string;
  /** The service's default is `agent-device`. */
  type?: SessionType;
  packageVersion?: string;
  deviceIdentifier?: string;
  maxDurationMinutes?: number;
  maxIdleTimeMinutes?: number;
  buildId?: string;
  applicationArchiveUrl?: string;
  svcGo?: boolean;
  sdkVersion?: string;
  launchArgs?: string[];
  openUrl?: string;
}

// ---------------------------------------------------------------------------------------------------
// Resources as the service documents them (type aliases, not interfaces: only those are assignable
// to the schemas' open records)

/** `remoteConfig` by session type ("remoteConfig by session type"). */
export type RemoteConfigResource =
  | { agentDeviceRemoteSessionUrl: string; agentDeviceRemoteSessionToken: string; webPreviewUrl?: string }
  | { toolsUrl: string; toolsAuthToken?: string; webPreviewUrl?: string }
  | { appiumUrl: string; capabilities: Record<string, unknown>; webPreviewUrl?: string }
  | { previewUrl: string };

export type DeviceSessionResource = {
  id: string;
  appId: string;
  url: string;
  jobRunId: string;
  name: string | null;
  type: SessionType;
  packageVersion: string | null;
  buildId: string | null;
  applicationArchiveUrl: string | null;
  platform: Platform;
  status: SessionStatus;
  /** Null unless `in-progress`. */
  remoteConfig: RemoteConfigResource | null;
  maxDurationMinutes: number;
  maxIdleTimeMinutes: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** The answer of POST /v2/workflows/dispatch. */
export type DispatchedRunResource = {
  id: string;
  url: string;
};

export type WorkflowJobResource = {
  id: string;
  key: string;
  name: string;
  /** `build` and `submission` are known; other values: not shown. */
  type: string;
  status: JobStatus;
  requiredJobKeys: string[];
  environment: string;
  outputs: Record<string, string>;
  /** Element shape: not shown. */
  errors: unknown[];
  buildId: string | null;
  submissionId: string | null;
  createdAt: string;
  updatedAt: string;
};

export type WorkflowRunResource = {
  id: string;
  status: RunStatus;
  url: string;
  gitCommitHash: string;
  gitCommitMessage: string;
  requestedGitRef: string;
  /** One value is known: `MANUAL`. */
  triggerEventType: string;
  createdAt: string;
  updatedAt: string;
  jobs: WorkflowJobResource[];
};

// ---------------------------------------------------------------------------------------------------
// What the client accepts

export const workflowJobSchema = z.looseObject({
  id: z.string(),
  key: line(255),
  name: shownText,
  type: shownText,
  status,
  requiredJobKeys: z.optional(z.nullable(z.array(z.string()))),
  environment: shownText,
  outputs: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  errors: z.optional(z.nullable(z.array(z.unknown()))),
  buildId: shownText,
  submissionId: shownText,
  createdAt: time,
  updatedAt: time,
});

export const workflowRunSchema = z.looseObject({
  id: z.string(),
  status,
  url: link,
  gitCommitHash: shownText,
  gitCommitMessage: z.optional(z.nullable(z.string())),
  requestedGitRef: shownText,
  triggerEventType: shownText,
  createdAt: time,
  updatedAt: time,
  jobs: z.array(workflowJobSchema),
});

export const dispatchedRunSchema = z.looseObject({ id: z.string(), url: link });

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

export const deviceSessionSchema = z.looseObject({
  id: z.string(),
  appId: shownText,
  url: link,
  jobRunId: shownText,
  name: shownText,
  type: shownText,
  packageVersion: shownText,
  buildId: shownText,
  applicationArchiveUrl: link,
  platform: shownText,
  status,
  remoteConfig: z.optional(z.nullable(remoteConfigSchema)),
  maxDurationMinutes: z.optional(z.nullable(z.number())),
  maxIdleTimeMinutes: z.optional(z.nullable(z.number())),
  startedAt: time,
  finishedAt: time,
  createdAt: time,
  updatedAt: time,
});

export type WorkflowJob = z.infer<typeof workflowJobSchema>;
export type WorkflowRun = z.infer<typeof workflowRunSchema>;
export type DispatchedRun = z.infer<typeof dispatchedRunSchema>;
export type RemoteConfig = z.infer<typeof remoteConfigSchema>;
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

/** The one pattern of an id, at every boundary: input, service answer, saved state. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in the service's paths and fields are UUIDs ("All identifiers named UUID…"). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The first message in a job's `errors`, whose element shape is "not shown" in the spec: a string,
 * or an object with `message` or `title`. Undefined when there is none.
 */
export function firstJobError(job: Pick<WorkflowJob, 'errors'>): string | undefined {
  for (const error of job.errors ?? []) {
    const record = isRecord(error) ? error : {};
    const text = [error, record.message, record.title].find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    );
    if (text) return text;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Compile-time checks that the two views agree (no code is emitted for them)

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AllKeys<T> = T extends unknown ? keyof T : never;
type Expect<T extends true> = T;
/** True when `Documented` passes `Schema` and names exactly the schema's fields. */
type Agrees<Schema extends z.ZodMiniObject, Documented> = [Documented] extends [z.input<Schema>]
  ? Same<AllKeys<Documented>, keyof Schema['shape']>
  : false;

export type ContractChecks = [
  Expect<Agrees<typeof workflowJobSchema, WorkflowJobResource>>,
  Expect<Agrees<typeof workflowRunSchema, WorkflowRunResource>>,
  Expect<Agrees<typeof dispatchedRunSchema, DispatchedRunResource>>,
  Expect<Agrees<typeof remoteConfigSchema, RemoteConfigResource>>,
  Expect<Agrees<typeof deviceSessionSchema, DeviceSessionResource>>,
];
