/**
 * Stopping a device session, in one place for every path that stops one: the post step, the
 * stop-device-session command, a readiness timeout, a session that failed to be ready and a
 * cancelled step. A paid device left running must never be silent, so "stopped" means confirmed:
 * the service reports the session `stopped` or `errored`. Stop is idempotent on the service, so it
 * is retried like a read.
 */
import type { ActionIO } from '../runner/io.js';
import type { ServiceClient } from '../service/client.js';
import { isSessionTerminal, type DeviceSession } from '../service/contract.js';
import { ServiceError } from '../service/errors.js';
import { ActionFailure } from '../errors.js';
import type { ServiceContext } from '../runner/service-context.js';
import type { SessionLedger } from './state.js';
import { STOP_ON_CANCEL_MS } from '../runner/timings.js';
import { deviceTime } from './report/accounting.js';
import { stopNotConfirmedMessage, stopNotFoundMessage, stoppedAndFailedMessage } from './report/failures.js';
import { maskSession } from './masking.js';
import { writeSessionOutputs, type PhaseOutput } from './connection.js';
import type { OutputWriter } from '../runner/outputs.js';
import { stepClock } from '../text/clock.js';

const CONFIRM_INTERVAL_MS = 2000;

const STOP_ON_FAILURE_MS = 60_000;

/** A stop that could not be confirmed: says once which session, where, and what to do. */
export class StopNotConfirmed extends ActionFailure {
  constructor(
    message: string,
    /** The service answered 404: no such session (the spec's 404; a session out of the token's reach is a 403). */
    readonly notFound = false,
  ) {
    super(message);
  }
}

/**
 * Stops the session and waits until the service confirms it, or throws StopNotConfirmed. `signal`
 * abandons the confirmation (the step is about to be killed); the error then says so.
 */
export async function stopSession(
  client: ServiceClient,
  sessionId: string,
  options: { deadline: number; sessionUrl?: string; signal?: AbortSignal },
): Promise<DeviceSession> {
  const limits = { deadline: options.deadline, signal: options.signal };
  try {
    let session = await client.stopDeviceSession(sessionId, limits);
    // The spec's stop answers with the session already stopped; a service that stops
    // asynchronously is given until the deadline to confirm it.
    while (!isSessionTerminal(session) && stepClock().now() + CONFIRM_INTERVAL_MS < options.deadline) {
      await stepClock().sleep(CONFIRM_INTERVAL_MS, options.signal);
      if (options.signal?.aborted) break;
      session = await client.getDeviceSession(sessionId, limits);
      if (!isSessionTerminal(session)) session = await client.stopDeviceSession(sessionId, limits);
    }
    if (isSessionTerminal(session)) return session;
    throw new Error(`the service still reports it as \`${session.status}\``);
  } catch (error) {
    // The cause first; the session's page, which the advice points to, last.
    const page = options.sessionUrl ? ` Session page: ${options.sessionUrl}` : '';
    if (error instanceof ServiceError && error.status === 404)
      throw new StopNotConfirmed(stopNotFoundMessage(sessionId, error.serviceMessage, page), true);
    const reason =
      error instanceof Error && 'reason' in error && typeof error.reason === 'string'
        ? error.reason
        : (error as Error).message;
    throw new StopNotConfirmed(stopNotConfirmedMessage(sessionId, reason, page));
  }
}

/**
 * Stops a session the step no longer needs (timeout, cancelled, ended before ready, unusable create
 * answer), then fails the step with `reason`. The stop gets a few seconds when the step was
 * cancelled (the runner kills it soon), a minute otherwise.
 */
export async function stopAndFail(
  context: ServiceContext & { outputs: OutputWriter<PhaseOutput<'stopped'>> },
  session: { id: string; url?: string | null },
  reason: string,
  options: {
    /** The job summary to write once it is known whether the stop was confirmed. */
    summary?: (stopped: boolean) => string;
    /** The step's post state (start-device-session only): a confirmed stop is recorded there. */
    ledger?: SessionLedger;
  } = {},
): Promise<never> {
  const { summary, ledger } = options;
  const { io, client } = context;
  const within = context.signal?.aborted ? STOP_ON_CANCEL_MS : STOP_ON_FAILURE_MS;
  let stopped = false;
  try {
    const final = await stopSession(client, session.id, {
      deadline: stepClock().now() + within,
      sessionUrl: session.url ?? undefined,
    });
    maskSession(io, final);
    ledger?.ended(final, deviceTime(final));
    writeSessionOutputs(context.outputs, 'stopped', final);
    logStopped(io, final);
    stopped = true;
  } catch (stopError) {
    // Both matter: why the step failed, and that a device may still be running.
    io.error((stopError as Error).message);
  }
  if (summary) await io.appendSummary(summary(stopped));
  throw new ActionFailure(stoppedAndFailedMessage(reason, stopped, session.url));
}

export function logStopped(io: ActionIO, session: DeviceSession): void {
  const finished = session.finishedAt ? ` at ${session.finishedAt}` : '';
  io.info(`Device session ${session.id} is ${session.status}${finished}. ${session.url ?? ''}`.trimEnd());
}
