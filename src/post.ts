/**
 * The post step: runs when the job ends, whatever its outcome (post-if: always()). It stops the
 * device session that this step's main part created, on the service the main part used (saved in
 * state, never read again from the environment, so the token goes nowhere else). A paid device left
 * running is never silent: a stop that cannot be confirmed, a cancellation of the post step itself,
 * and a create whose answer never came are each reported, naming the session and where to look.
 * A step that started no session says nothing above debug level.
 */
import { createCoreIO, type ActionIO } from './io.js';
import { maskSecretInputs } from './commands/index.js';
import { createClient, envNumber } from './client-factory.js';
import { ActionFailure, reportFailure } from './errors.js';
import { UUID } from './service/contract.js';
import { STATE, restoreTransport } from './session-state.js';
import { POST_STOP_GRACE_MS } from './runner-timings.js';
import { logStopped, stopSession } from './session-stop.js';

/** The whole stop, confirmation included, when nothing interrupts it. */
const POST_STOP_WITHIN_MS = 2 * 60_000;
/**
 * Tests pass a shorter grace (`SVC_CANCEL_GRACE_MS`) rather than wait out the runner's; the value is
 * the main step's (restoreTransport), never one a later step set.
 */
const graceAfterSignalMs = (): number => envNumber('SVC_CANCEL_GRACE_MS', POST_STOP_GRACE_MS);

export async function run(io: ActionIO = createCoreIO()): Promise<void> {
  maskSecretInputs(io, 'start-device-session');
  // Only what this step's own main part saved counts (session-state.ts).
  const transport = restoreTransport(io);
  if (!transport.saved) {
    io.debug('The main step saved no state for this post step; nothing to stop.');
    return;
  }
  const sessionId = io.getState(STATE.sessionId);
  const sessionUrl = io.getState(STATE.sessionUrl);
  if (!sessionId) return reportNoSession(io);
  if (io.getState(STATE.stopped) === 'true') {
    io.info(`Device session ${sessionId} already ended during the main step.`);
    return;
  }
  if (io.getState(STATE.autoStop) === 'false') {
    io.notice(
      `auto-stop is false: device session ${sessionId} keeps running until it is stopped or reaches its limits. ${sessionUrl}`.trimEnd(),
    );
    return;
  }
  const baseUrl = io.getState(STATE.baseUrl);
  if (!UUID.test(sessionId) || !/^https?:\/\/[^\s]+$/.test(baseUrl)) {
    io.setFailed(
      `The saved state of this step is not usable (session id or service address malformed); device session ${sessionId.slice(0, 60)} was not stopped. Stop it from the dashboard.`,
    );
    return;
  }

  if (transport.differs) {
    io.setFailed(
      `\`${transport.differs}\` changed after the main step, and the access token is never sent with settings the main step did not use: device session ${sessionId} was not stopped. Stop it from its page or with the stop-device-session command. ${sessionUrl}`.trimEnd(),
    );
    return;
  }
  const token = io.getInput('token').trim() || process.env.SVC_TOKEN?.trim() || '';
  const pollIntervalMs = Number(io.getState(STATE.pollIntervalMs)) || 5_000;
  const client = createClient({ baseUrl, token, pollIntervalMs, timeoutMs: POST_STOP_WITHIN_MS }, io);
  // A signal does not abandon the stop: it shortens the time left to confirm it.
  const giveUp = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (timer) return;
    io.info(
      `Received ${signal}: still stopping device session ${sessionId} before the runner ends the step.`,
    );
    timer = setTimeout(() => giveUp.abort(), graceAfterSignalMs());
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const session = await stopSession(client, sessionId, {
      deadline: Date.now() + POST_STOP_WITHIN_MS,
      sessionUrl: sessionUrl || undefined,
      signal: giveUp.signal,
    });
    logStopped(io, session);
    // The post step was cancelled: the runner marks it so; the annotation says the device is not left running.
    if (timer)
      reportFailure(
        io,
        new ActionFailure(
          `The post step was cancelled; device session ${sessionId} was stopped all the same.`,
        ),
      );
  } catch (error) {
    reportFailure(io, error);
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    client.dispose();
  }
}

/** No session id: either nothing was started (silent), or a create never answered (a warning). */
function reportNoSession(io: ActionIO): void {
  const sentAt = io.getState(STATE.createInFlight);
  if (!sentAt) {
    io.debug('No device session was started by this step; nothing to stop.');
    return;
  }
  const appId = io.getState(STATE.appId);
  io.warning(
    `A device session may be running: the create request sent at ${sentAt.slice(0, 40)} got no usable answer, so its id is unknown and it could not be stopped. ` +
      `Look for it among the device sessions of project ${UUID.test(appId) ? appId : '(unknown)'} in the dashboard and stop it there; otherwise it ends at its maximum duration.`,
  );
}
