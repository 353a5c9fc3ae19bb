/**
 * The bodies of the behaviour control routes, checked strictly: a wrong type or an unknown field is a
 * 400 naming it, never a setting silently read as something else (`{"errorAfterMs": null}` once made
 * every session error at once). In a body, `null` returns a setting to its default.
 */
import * as z from 'zod/mini';
import { ApiError, badRequest } from './errors.js';
import type { SessionBehaviour, SessionBehaviourPatch } from './sessions.js';
import type { JobBehaviour } from './workflows.js';

const nullable = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));
const delayMs = nullable(z.number().check(z.gte(0)));

const sessionBehaviourShape = {
  readinessDelayMs: delayMs,
  errorAfterMs: delayMs,
  remoteConfigLagMs: delayMs,
  omitArgentToken: nullable(z.boolean()),
  extraStatusBeforeReady: nullable(z.string().check(z.minLength(1))),
  extraRemoteConfigFields: nullable(z.record(z.string(), z.unknown())),
  minuteMs: nullable(z.number().check(z.gt(0))),
} satisfies Record<keyof SessionBehaviour, z.ZodMiniType>;
const sessionBehaviourSchema = z.strictObject(
  sessionBehaviourShape,
) satisfies z.ZodMiniType<SessionBehaviourPatch>;

const jobBehaviourShape = {
  durationMs: delayMs,
  outcome: nullable(z.enum(['success', 'failure'])),
  errorMessage: nullable(z.string()),
} satisfies Record<keyof JobBehaviour, z.ZodMiniType>;
const jobBehaviourSchema = z.strictObject(jobBehaviourShape);

function parse<T>(schema: z.ZodMiniType<T>, body: unknown, what: string): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest(`The body must be a JSON object (${what})`);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw ApiError.validation(
    result.error.issues.map((issue) => {
      const keys = (issue as { keys?: string[] }).keys;
      if (issue.code === 'unrecognized_keys' && keys)
        return `Unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')} (${what})`;
      return `${issue.path.join('.')}: ${issue.message}`;
    }),
  );
}

/** `POST /_sim/session-behaviour`: a change merged into the behaviour; null clears a setting. */
export function parseSessionBehaviour(body: unknown): SessionBehaviourPatch {
  return parse(sessionBehaviourSchema, body, `fields: ${Object.keys(sessionBehaviourShape).join(', ')}`);
}

/** `POST /_sim/jobs/:key/behaviour`: the job's whole behaviour; null or absent fields use the defaults. */
export function parseJobBehaviour(body: unknown): JobBehaviour {
  const parsed = parse(jobBehaviourSchema, body, `fields: ${Object.keys(jobBehaviourShape).join(', ')}`);
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value != null)) as JobBehaviour;
}
