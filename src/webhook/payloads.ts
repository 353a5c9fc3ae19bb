/**
 * The build and submission webhook payloads (service-interface.md, "Build webhook payload" and
 * "Submission webhook payload") as zod schemas, and the parsing of a delivery's body into one of them.
 *
 * - Every top-level field of the tables is required with its type; the fields the tables call
 *   conditional (`parentBuildId`, `artifacts.buildUrl`, `error`, `parentSubmissionId`, `turtleBuildId`,
 *   `submissionInfo.error`) are optional.
 * - Inside `metadata` and `metrics` each field is typed but optional: these objects describe the build's
 *   context (CLI version, SDK version, disk and network counters...), and an authentic delivery must not
 *   be refused because one counter or version is absent.
 * - Unknown fields are kept (a newer service adds some), and `status` is any non-empty string: the
 *   known values are `finished`, `errored`, `canceled` (WEBHOOK_STATUSES), a newer one is passed on.
 */
import { UserFacingError } from '../errors.js';
import { isRecord } from '../text/json.js';
import * as z from 'zod/mini';

export type WebhookEvent = 'BUILD' | 'SUBMIT';
export const WEBHOOK_STATUSES = ['finished', 'errored', 'canceled'] as const;
const WEBHOOK_PLATFORMS = ['android', 'ios'] as const;

const uuid = z.guid();
/** ISO 8601 UTC, as the service writes timestamps (`2025-01-31T12:34:56.789Z`). */
const timestamp = z.iso.datetime();
/**
 * A point a build may never reach: one canceled in the queue was never provisioned nor on a worker.
 * The spec types them as timestamps; a genuine, signed delivery must not fail on their absence.
 */
const reachedAt = z.optional(z.nullable(timestamp));
const status = z.string().check(z.minLength(1));
const platform = z.enum(WEBHOOK_PLATFORMS);
const errorObject = z.looseObject({ message: z.string(), errorCode: z.string() });

/** A field the payload may leave out, text when present. */
const optionalText = z.optional(z.string());

const trackingContextSchema = z.looseObject({
  platform: optionalText,
  account_id: optionalText,
  dev_client: z.optional(z.boolean()),
  project_id: optionalText,
  tracking_id: optionalText,
  project_type: optionalText,
  dev_client_version: optionalText,
});

const buildMetadataSchema = z.looseObject({
  appName: optionalText,
  username: optionalText,
  workflow: optionalText,
  appVersion: optionalText,
  appBuildVersion: optionalText,
  cliVersion: optionalText,
  sdkVersion: optionalText,
  buildProfile: optionalText,
  distribution: optionalText,
  appIdentifier: optionalText,
  gitCommitHash: optionalText,
  gitCommitMessage: optionalText,
  runtimeVersion: optionalText,
  /** Conditional: builds that use an update channel. */
  channel: optionalText,
  /** Conditional: legacy updates. */
  releaseChannel: optionalText,
  reactNativeVersion: optionalText,
  trackingContext: z.optional(trackingContextSchema),
  credentialsSource: optionalText,
  isGitWorkingTreeDirty: z.optional(z.boolean()),
  message: optionalText,
  runFromCI: z.optional(z.boolean()),
});

const metric = z.optional(z.number());
const buildMetricsSchema = z.looseObject({
  memory: metric,
  buildEndTimestamp: metric,
  totalDiskReadBytes: metric,
  buildStartTimestamp: metric,
  totalDiskWriteBytes: metric,
  cpuActiveMilliseconds: metric,
  buildEnqueuedTimestamp: metric,
  totalNetworkEgressBytes: metric,
  totalNetworkIngressBytes: metric,
});

const buildPayloadSchema = z.looseObject({
  id: uuid,
  accountName: z.string(),
  projectName: z.string(),
  buildDetailsPageUrl: z.string(),
  /** Conditional: build retries. */
  parentBuildId: z.optional(uuid),
  appId: uuid,
  initiatingUserId: uuid,
  /** Non-null only for canceled builds. */
  cancelingUserId: z.nullable(uuid),
  platform,
  status,
  artifacts: z.looseObject({
    /** Conditional: successful builds. */
    buildUrl: optionalText,
    logsS3KeyPrefix: z.string(),
  }),
  metadata: buildMetadataSchema,
  metrics: buildMetricsSchema,
  /** Conditional: failed builds. */
  error: z.optional(errorObject),
  createdAt: timestamp,
  enqueuedAt: reachedAt,
  provisioningStartedAt: reachedAt,
  workerStartedAt: reachedAt,
  completedAt: timestamp,
  updatedAt: timestamp,
  expirationDate: timestamp,
  priority: z.string(),
  resourceClass: z.string(),
  actualResourceClass: z.string(),
  maxRetryTimeMinutes: z.int(),
});
export type BuildPayload = z.infer<typeof buildPayloadSchema>;

const submissionPayloadSchema = z.looseObject({
  id: uuid,
  accountName: z.string(),
  projectName: z.string(),
  submissionDetailsPageUrl: z.string(),
  /** Conditional: submission retries. */
  parentSubmissionId: z.optional(uuid),
  appId: uuid,
  archiveUrl: z.string(),
  initiatingUserId: uuid,
  /** Non-null only for canceled submissions. */
  cancelingUserId: z.nullable(uuid),
  /** Conditional: a build from the service is submitted. */
  turtleBuildId: z.optional(uuid),
  platform,
  status,
  submissionInfo: z.looseObject({
    /** Conditional: failed submissions. */
    error: z.optional(errorObject),
    /** A submission that never ran (canceled before it started) may have no logs. */
    logsUrl: optionalText,
  }),
  createdAt: timestamp,
  updatedAt: timestamp,
  completedAt: timestamp,
  maxRetryTimeMinutes: z.int(),
});
export type SubmissionPayload = z.infer<typeof submissionPayloadSchema>;

export type WebhookPayload =
  { event: 'BUILD'; payload: BuildPayload } | { event: 'SUBMIT'; payload: SubmissionPayload };

/** A body that is not JSON, or not a build or submission payload. The message names fields, never values. */
export class WebhookPayloadError extends UserFacingError {
  constructor(message: string) {
    super(message);
  }
}

const BUILD_MARKERS = ['buildDetailsPageUrl', 'artifacts'];
const SUBMIT_MARKERS = ['submissionDetailsPageUrl', 'archiveUrl', 'submissionInfo'];

/**
 * Which payload `value` is, by the fields only one of them has: `buildDetailsPageUrl` / `artifacts`
 * (BUILD) or `submissionDetailsPageUrl` / `archiveUrl` / `submissionInfo` (SUBMIT). Undefined when it
 * has neither kind, or both.
 */
export function detectWebhookEvent(value: unknown): WebhookEvent | undefined {
  if (!isRecord(value)) return undefined;
  const build = BUILD_MARKERS.some((key) => key in value);
  const submit = SUBMIT_MARKERS.some((key) => key in value);
  if (build === submit) return undefined;
  return build ? 'BUILD' : 'SUBMIT';
}

/** Parses an already JSON-parsed body into a build or submission payload; throws WebhookPayloadError. */
export function parseWebhookPayload(value: unknown): WebhookPayload {
  if (!isRecord(value)) {
    throw new WebhookPayloadError(`The payload is JSON but not an object (it is ${describeType(value)}).`);
  }
  const event = detectWebhookEvent(value);
  if (event === undefined) {
    const both = BUILD_MARKERS.some((key) => key in value) && SUBMIT_MARKERS.some((key) => key in value);
    throw new WebhookPayloadError(
      both
        ? 'The payload has fields of both a build and a submission payload; it is neither.'
        : 'The payload is neither a build payload (no `buildDetailsPageUrl` or `artifacts`) nor a submission payload ' +
            '(no `submissionDetailsPageUrl`, `archiveUrl` or `submissionInfo`).',
    );
  }
  const schema = event === 'BUILD' ? buildPayloadSchema : submissionPayloadSchema;
  const result = schema.safeParse(value);
  if (!result.success) {
    const kind = event === 'BUILD' ? 'build' : 'submission';
    throw new WebhookPayloadError(
      `The payload is not a valid ${kind} payload: ${describeIssues(result.error.issues, value)}`,
    );
  }
  return event === 'BUILD'
    ? { event, payload: result.data as BuildPayload }
    : { event, payload: result.data as SubmissionPayload };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes and parses a raw body (UTF-8 JSON). Returns the JSON value as sent and the typed payload. */
export function parseWebhookBody(body: Buffer | Uint8Array | string): WebhookPayload & { json: unknown } {
  let text: string;
  try {
    text = typeof body === 'string' ? body : UTF8.decode(body);
  } catch {
    throw new WebhookPayloadError('The payload is not UTF-8 text, so it is not a JSON webhook payload.');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookPayloadError(
      text.trim() === '' ? 'The payload is empty; expected a JSON object.' : 'The payload is not valid JSON.',
    );
  }
  return { ...parseWebhookPayload(json), json };
}

type Issue = z.core.$ZodIssue;

/** Up to five problems as `path: what is wrong`; values are never shown (they come from outside). */
function describeIssues(issues: readonly Issue[], root: unknown): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `\`${path}\` ${describeIssue(issue, valueAt(root, issue.path))}`;
  });
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : '';
  return `${shown.join('; ')}${more}.`;
}

function describeIssue(issue: Issue, value: unknown): string {
  if (value === undefined) return 'is missing';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}, not ${describeType(value)}`;
    case 'invalid_format':
      return issue.format === 'datetime'
        ? 'must be an ISO 8601 UTC timestamp'
        : issue.format === 'guid'
          ? 'must be a UUID'
          : `must be in ${issue.format} format`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'too_small':
      return 'must not be empty';
    default:
      return 'is invalid';
  }
}

function article(type: string): string {
  const names: Record<string, string> = { int: 'an integer', object: 'an object', array: 'an array' };
  return names[type] ?? `a ${type}`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'missing';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fractional number';
  return article(typeof value);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isRecord(value) && !Array.isArray(value)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
