/**
 * Stopping a device session, in one place for every path that stops one: the post step, the
 * stop-device-session command, a readiness timeout and a cancelled step. A paid device left running
 * must never be silent, so "stopped" means confirmed: the service reports the session `stopped` or
 * `errored`. Stop is idempotent on the service, so it is retried like a read.
 */
import type { ActionIO } from '../io.js';
import type { StopSessionSettings } from '../inputs.js';
import type { ServiceClient } from '../service/client.js';
import { SESSION_TERMINAL, type DeviceSession } from '../service/schemas.js';
import { ActionFailure } from '../failure.js';
import { sleep } from '../sleep.js';
import type { CommandContext } from './run-workflow.js';

const CONFIRM_INTERVAL_MS = 2000;

export function isSessionTerminal(session: DeviceSession): boolean {
  return (SESSION_TERMINAL as readonly string[]).includes(session.status);
}

/** Stops the session and waits until the service confirms it, or throws an ActionFailure that says what to do. */
export async function stopSession(
  client: ServiceClient,
  sessionId: string,
  options: { deadline: number; sessionUrl?: string },
): Promise<DeviceSession> {
  const where = options.sessionUrl ? ` (${options.sessionUrl})` : '';
  try {
    let session = await client.stopDeviceSession(sessionId, { deadline: options.deadline });
    // The spec's stop answers with the session already stopped; a service that stops
    // asynchronously is given until the deadline to confirm it.
    while (!isSessionTerminal(session) && Date.now() + CONFIRM_INTERVAL_MS < options.deadline) {
      await sleep(CONFIRM_INTERVAL_MS);
      session = await client.getDeviceSession(sessionId, { deadline: options.deadline });
      if (!isSessionTerminal(session))
        session = await client.stopDeviceSession(sessionId, { deadline: options.deadline });
    }
    if (isSessionTerminal(session)) return session;
    throw new Error(`the service still reports it as \`${session.status}\``);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ActionFailure(
      `Device session ${sessionId}${where} could not be confirmed stopped: ${reason}. ` +
        'It may still be running and billing until it reaches its maximum duration: stop it from the session page ' +
        `or run this action with \`command: stop-device-session\` and \`session-id: ${sessionId}\`.`,
    );
  }
}

export async function stopDeviceSessionCommand(
  settings: StopSessionSettings,
  context: CommandContext,
): Promise<void> {
  const { io, client } = context;
  const session = await stopSession(client, settings.sessionId, {
    deadline: Date.now() + settings.api.timeoutMs,
  });
  io.setOutput('status', session.status);
  logStopped(io, session);
}

export function logStopped(io: ActionIO, session: DeviceSession): void {
  const finished = session.finishedAt ? ` at ${session.finishedAt}` : '';
  io.info(`Device session ${session.id} is ${session.status}${finished}. ${session.url ?? ''}`.trimEnd());
}
