/**
 * Creating a device session for start-device-session: the step's post state is written before the
 * request is sent (a create whose answer never arrives may still have started a session) and the
 * session is recorded as soon as its id is known; a create the service refused for certain leaves
 * nothing for the post step to warn about. An errored session that another attempt replaces is
 * closed here too.
 */
import type { CreateSessionRequest, DeviceSession } from '../service/contract.js';
import { isUuid } from '../service/contract.js';
import { NetworkError, ResponseFormatError, RetriesExhaustedError, ServiceError } from '../service/errors.js';
import { ActionFailure } from '../errors.js';
import type { ServiceContext } from '../runner/service-context.js';
import type { SessionLedger } from './state.js';
import { SESSION_ID_ENV, writeSessionOutputs, type PhaseOutput } from './connection.js';
import type { OutputWriter } from '../runner/outputs.js';
import { maskSession } from './masking.js';
import { deviceTime } from './report/accounting.js';
import { featureNotEnabledMessage } from './report/failures.js';
import { erroredStopNotConfirmedWarning } from './report/warnings.js';
import { stopAndFail, stopSession } from './stop.js';
import { stepClock } from '../text/clock.js';

interface CreateOptions {
  /** The sessions this step created, saved for its post step (state.ts). */
  ledger: SessionLedger;
  /** `export-env`: the session id goes into the job's environment as soon as it exists. */
  exportEnv: boolean;
  /** `auto-stop`: false leaves the session running after the job. */
  autoStop: boolean;
  /** When the request was sent (ms since the epoch): its deadline counts from then. */
  sentAt: number;
  /** 1 for the first attempt of `start-attempts`. */
  attempt: number;
}

/** The longest a create request may take, retries included. */
const CREATE_WITHIN_MS = 60_000;
/** The stop that closes an errored session before another attempt. */
const CLOSE_ERRORED_WITHIN_MS = 30_000;

/** What creating a session writes: the created phase's outputs, and the stopped phase's if it is stopped at once. */
type CreateOutputs = OutputWriter<PhaseOutput<'created'> | PhaseOutput<'stopped'>>;

/** One create request; the session exists (state, outputs, variable) when it returns. */
export async function createSession(
  request: CreateSessionRequest,
  service: ServiceContext & { outputs: CreateOutputs },
  options: CreateOptions,
): Promise<DeviceSession> {
  const { io, client } = service;
  const { ledger } = options;
  ledger.createSent(new Date(options.sentAt));
  let created: DeviceSession;
  try {
    // Not abortable: once the request is sent only its answer tells which session to stop.
    created = await client.createDeviceSession(request, { deadline: options.sentAt + CREATE_WITHIN_MS });
  } catch (error) {
    // An answer that names a session but cannot be used otherwise: stop that session, then fail.
    if (error instanceof ResponseFormatError && error.resourceId && isUuid(error.resourceId)) {
      const named = { id: error.resourceId, url: '' };
      recordSession(service, named, options);
      return stopAndFail(service, named, error.message, { ledger });
    }
    if (createdNothing(error)) ledger.createdNothing();
    if (featureNotEnabled(error))
      throw new ActionFailure(featureNotEnabledMessage(error.serviceMessage, request.appId));
    throw error;
  }
  maskSession(io, created);
  recordSession(service, { id: created.id, url: created.url ?? '', jobRunId: created.jobRunId }, options);
  io.info(`Created device session ${created.id}: ${created.url ?? ''}`.trimEnd());
  if (!options.autoStop && options.attempt === 1)
    io.info(
      'auto-stop is false: the session keeps running after this job until it is stopped or reaches its limits.',
    );
  return created;
}

/** The session exists: state for the post step, its id, page and job run as outputs at once. */
function recordSession(
  { io, outputs }: ServiceContext & { outputs: CreateOutputs },
  session: { id: string; url: string; jobRunId?: string | null },
  options: CreateOptions,
): void {
  options.ledger.created({ id: session.id, url: session.url });
  writeSessionOutputs(outputs, 'created', session);
  if (options.exportEnv) io.exportVariable(SESSION_ID_ENV, session.id);
}

/**
 * An errored session is over (the stop of an errored session is answered unchanged): the stop makes
 * sure of it. Confirmed, the post step leaves it; otherwise the post step tries again.
 */
export async function closeErrored(
  service: ServiceContext,
  session: DeviceSession,
  ledger: SessionLedger,
): Promise<void> {
  try {
    const final = await stopSession(service.client, session.id, {
      deadline: stepClock().now() + CLOSE_ERRORED_WITHIN_MS,
      sessionUrl: session.url ?? undefined,
      signal: service.signal,
    });
    maskSession(service.io, final);
    ledger.ended(final, deviceTime(final));
  } catch (error) {
    service.io.warning(erroredStopNotConfirmedWarning(session.id, (error as Error).message));
  }
}

/**
 * Whether a failed create certainly created nothing: an error answer (4xx but 429: invalid,
 * unauthorised, forbidden, not enabled), or a request that never reached the service. A 5xx or a
 * lost answer may follow a session that exists, so those keep the post step's warning.
 */
function createdNothing(error: unknown): boolean {
  if (error instanceof RetriesExhaustedError) return createdNothing(error.lastError);
  // A 429 is an answer too, but the spec does not say the request was not processed.
  if (error instanceof ServiceError) return error.status >= 400 && error.status < 500 && error.status !== 429;
  return error instanceof NetworkError && error.certainlyNotProcessed;
}

/** The words of the service's "not enabled" 400 (featureNotEnabled). */
const NOT_ENABLED = /\b(?:not\s+(?:been\s+)?enabled|disabled|not\s+available|no\s+access)\b/i;
const FEATURE = /\b(?:feature|preview|device[- ]?(?:run[- ]?)?sessions?|account)\b/i;

/**
 * The spec's rule 4 of the create: "Creation fails with 400 when the feature is not enabled for the
 * account". Its error codes are "not shown", so, when the service sends no code that says it, the
 * service's message is read, here only: it is the one thing that tells this 400 from a bad input.
 */
function featureNotEnabled(error: unknown): error is ServiceError {
  if (!(error instanceof ServiceError) || error.status !== 400 || error.code === 'UNAUTHORIZED_ERROR')
    return false;
  if (error.code && /FEATURE|NOT_ENABLED/i.test(error.code)) return true;
  return NOT_ENABLED.test(error.serviceMessage) && FEATURE.test(error.serviceMessage);
}
