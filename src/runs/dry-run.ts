/**
 * `dry-run: true`: every check that creates nothing. The workspace's checks are dispatch-check.ts's;
 * a workflow file the workspace's commit does not have fails here, where a real dispatch would let
 * the service say so. Then two reads that create nothing: a run that cannot exist (a random
 * version-4 UUID), whose 404 in the service's shape shows that the token was accepted, and a run by
 * an id that is not a UUID, whose 400 (the spec's) shows that the address is the service's, where
 * any server answers the first 404; a 401, a 403 or a 400 `UNAUTHORIZED_ERROR` is the token's fault,
 * anything else the base URL's. What only a real dispatch can tell (the project, the token's access to it,
 * the Git ref on the service) is said, not implied.
 */
import { randomUUID } from 'node:crypto';
import type { ActionIO } from '../runner/io.js';
import type { ServiceClient } from '../service/client.js';
import { ServiceError } from '../service/errors.js';
import { ActionFailure } from '../errors.js';
import { oneLine } from '../text/one-line.js';
import { basePathOf } from '../service/base-url.js';
import { RunFailure } from './outcome.js';
import type { DispatchCheck, Planned } from './dispatch-check.js';
import {
  CANCELLED_DURING_DRY_RUN,
  dryRunFileAbsentMessage,
  dryRunNearRefWarning,
  dryRunNotTheServiceMessage,
  dryRunTokenRefusedMessage,
  workspaceShows,
} from './report/dispatch-failures.js';

interface DryRunContext {
  io: ActionIO;
  client: ServiceClient;
  baseUrl: string;
  appId: string;
  deadline: number;
  signal: AbortSignal;
}

/** The checked and unchecked sentences of a dry run that passed; throws the first check that failed. */
export async function dryRun(
  plan: Planned,
  check: DispatchCheck,
  context: DryRunContext,
): Promise<{ checked: string[]; unchecked: string[] }> {
  const { file } = check;
  if (file.absent && file.commit)
    throw new ActionFailure(dryRunFileAbsentMessage(workspaceShows(plan, file)));
  // A near miss is said where it is seen, as a warning; the list of what was not checked points to it.
  const near = file.nearRef;
  if (near) context.io.warning(dryRunNearRefWarning(plan['git-ref'], near));
  const address = await readAsTheServiceDoes(context);
  const ref = oneLine(plan['git-ref'], 100);
  const unchecked = check.unchecked.map(({ about, words }) =>
    near && about === 'workflow-file'
      ? `The workflow file: git-ref ${ref} is not a branch or tag of this checkout (see the warning).`
      : words,
  );
  return {
    checked: [...check.checked, address],
    unchecked: [
      ...unchecked,
      `Only a real dispatch can tell whether project ${oneLine(context.appId, 40)} (\`app-id\`) exists and the token may dispatch its workflows, ` +
        `and whether the repository linked to it has git-ref ${ref}${file.file ? '' : ' and the workflow file on it'}.`,
    ],
  };
}

/**
 * Two reads that create nothing; what they show of the base URL and the token, or a failure naming
 * the wrong one. A random UUID's 404 alone is what any server that answers every path with a 404
 * sends; the spec's 400 for an id that is not a UUID is the service's own.
 */
async function readAsTheServiceDoes(context: DryRunContext): Promise<string> {
  const { client, deadline, signal } = context;
  const base = oneLine(context.baseUrl, 200);
  try {
    await client.getWorkflowRun(randomUUID(), { deadline, signal });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    if (signal.aborted) throw new RunFailure(CANCELLED_DURING_DRY_RUN, 'interrupted');
    if (!(error instanceof ServiceError && error.status === 404 && !error.baseUrlAdvice))
      throw refusal(context, error);
    await readByIdNotAUuid(context);
    return `The service at ${base} answered a read of a run that does not exist (404) and a read by an id that is not a UUID (400) as the service does, so it accepted the token.`;
  }
  // The service never has a run of a random id: whatever answered 200 is not it.
  throw new ActionFailure(
    dryRunNotTheServiceMessage(
      context.baseUrl,
      'it answered a read of a run that cannot exist (a random id) with a run',
    ),
  );
}

/** The second read: only the spec's 400 passes. */
async function readByIdNotAUuid(context: DryRunContext): Promise<void> {
  const { client, deadline, signal } = context;
  try {
    await client.readRunByIdNotAUuid({ deadline, signal });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    if (signal.aborted) throw new RunFailure(CANCELLED_DURING_DRY_RUN, 'interrupted');
    if (error instanceof ServiceError && error.status === 400 && error.code !== 'UNAUTHORIZED_ERROR') return;
    if (error instanceof ServiceError && error.status === 404)
      throw new ActionFailure(dryRunNotTheServiceMessage(context.baseUrl, notFoundForBadId(context.baseUrl)));
    throw refusal(context, error);
  }
  throw new ActionFailure(
    dryRunNotTheServiceMessage(
      context.baseUrl,
      'it answered a read of a run by an id that is not a UUID with a run, where the service answers 400',
    ),
  );
}

/** A 404 where the spec answers 400: another server, or a path in front of the service's. */
function notFoundForBadId(baseUrl: string): string {
  const path = basePathOf(baseUrl);
  const where = path
    ? `the path ${oneLine(path, 100)} of the base URL is not the service's, or the address is another server's`
    : "the address is another server's";
  return `it answered a read of a run by an id that is not a UUID with 404, where the service answers 400 (an id that is not a UUID): ${where}`;
}

/** The token's fault (401, 403, 400 UNAUTHORIZED_ERROR) or else the base URL's. */
function refusal(context: DryRunContext, error: Error): ActionFailure {
  if (error instanceof ServiceError && tokenRefused(error))
    return new ActionFailure(dryRunTokenRefusedMessage(context.baseUrl, error.message));
  return new ActionFailure(dryRunNotTheServiceMessage(context.baseUrl, error.message));
}

function tokenRefused(error: ServiceError): boolean {
  return (
    error.status === 401 ||
    error.status === 403 ||
    (error.status === 400 && error.code === 'UNAUTHORIZED_ERROR')
  );
}
