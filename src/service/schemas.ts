/**
 * zod schemas of the service's resources (service-interface.md, "Resources and their fields").
 * Deliberately tolerant: statuses are plain strings (a newer service adds values such as `queued`),
 * unknown fields are kept (outputs pass jobs on "as the service returned them"), and only the fields
 * the action cannot work without are required.
 */
import type * as z from 'zod/mini';

export const WORKFLOW_RUN_TERMINAL = ['success', 'failure', 'canceled'] as const;
export const SESSION_TERMINAL = ['stopped', 'errored'] as const;

export type Schemas = typeof import('./zod-schemas.js').schemas;
export type WorkflowJob = z.infer<Schemas['workflowJobSchema']>;
export type WorkflowRun = z.infer<Schemas['workflowRunSchema']>;
export type DispatchedRun = z.infer<Schemas['dispatchedRunSchema']>;
export type RemoteConfig = z.infer<Schemas['remoteConfigSchema']>;
export type DeviceSession = z.infer<Schemas['deviceSessionSchema']>;

let schemas: Promise<Schemas> | undefined;

/**
 * Loads zod and builds the schemas, once per process. zod is most of the bundle: loading it lazily
 * (started with the first request, awaited only to parse its answer) keeps it off the start-up path.
 */
export function loadSchemas(): Promise<Schemas> {
  schemas ??= import('./zod-schemas.js').then((module) => module.schemas);
  return schemas;
}
