/**
 * The failure sentences of the session commands and the post step, in one place: what the step's
 * error says when a session could not be created, followed, made ready or stopped. Each is a
 * function of explicit values (no I/O), so a test compares the whole sentence. Values from the
 * service pass through the one-line rule (text/one-line.ts) where they are shown.
 */
import type { DeviceSession } from '../../service/contract.js';
import { oneLine, withoutFinalDots } from '../../text/one-line.js';
import { formatElapsed } from '../../text/time.js';
import { deviceRanMs, type SessionTimes } from './accounting.js';

/**
 * What every path says when a stop was not confirmed (an error, a summary): `markdown` puts the
 * warning in bold.
 */
export function stillRunningAdvice(subject = 'It', markdown = false): string {
  const warning = `${subject} may still be running and billing`;
  return `${markdown ? `**${warning}**` : warning} until it reaches its maximum duration: stop it from its session page, or with the stop-device-session command and this session id.`;
}

/** The stop was answered 404: no such session. `page` is ` Session page: <url>` or empty. */
export function stopNotFoundMessage(sessionId: string, serviceMessage: string, page: string): string {
  return `Device session ${sessionId} was not found: the service has no session with that id (404: ${serviceMessage}).${page}`;
}

/** The stop failed or was never confirmed; the cause first, the session's page (`page`) last. */
export function stopNotConfirmedMessage(sessionId: string, reason: string, page: string): string {
  return `Device session ${sessionId} could not be confirmed stopped: ${withoutFinalDots(reason)}. ${stillRunningAdvice()}${page}`;
}

/** The failure of a step that stopped the session it no longer needs: why, then whether the stop was confirmed. */
export function stoppedAndFailedMessage(
  reason: string,
  stopped: boolean,
  url: string | null | undefined,
): string {
  const outcome = stopped
    ? ' The session was stopped.'
    : ' Stopping it could not be confirmed (see the error above).';
  return `${reason}${outcome} ${url ?? ''}`.trimEnd();
}

/** A read of the session failed for good while the step waited for it to be ready. */
export function waitingFailedReason(message: string): string {
  return `Waiting for the device session failed: ${message}`;
}

/** The step was cancelled while it waited for the session to be ready. */
export const CANCELLED_WHILE_WAITING = 'The step was cancelled while waiting for the device session.';

/** The step was cancelled right after the create (start-device-session). */
export const CANCELLED_AFTER_CREATE = 'The step was cancelled.';

/** The step was cancelled between two attempts of start-attempts. */
export const CANCELLED_BEFORE_NEXT_ATTEMPT = 'The step was cancelled before another session was created.';

/** `timeout-minutes` was reached before the session was ready. */
export function notReadyInTimeReason(timeoutMs: number, lastStatus: string): string {
  return `The device session was not ready within timeout-minutes (${timeoutMs / 60_000}); last status: ${oneLine(lastStatus, 40)}.`;
}

/**
 * Why a session that ended cannot be used, for the step's failure: it never became ready
 * (`startedAt` null), or it had been ready (the spec's `new` → `in-progress`) and has ended since.
 */
export function endedMessage(session: SessionTimes & Pick<DeviceSession, 'id'>): string {
  const status = oneLine(session.status, 40);
  const since = session.finishedAt ? ` since ${oneLine(session.finishedAt, 40)}` : '';
  if (session.status === 'stopped') {
    const when = session.startedAt
      ? `had been ready (it started at ${oneLine(session.startedAt, 40)}) and was stopped${since}`
      : `was stopped${since} before it was ready`;
    return `The device session ${when}: a stopped session cannot be used again. Start a new one with start-device-session.`;
  }
  if (!session.startedAt) return `The device session became ${status} before it was ready.`;
  return `The device session had been ready (it started at ${oneLine(session.startedAt, 40)}) but has ended: it is ${status}${since}, and cannot be used.`;
}

/** Which of several sessions a start was waiting for (start-attempts). */
export interface AttemptCount {
  number: number;
  of: number;
  /** How many earlier attempts' sessions errored before they were ready. */
  earlier: number;
}

/** `It was attempt 3 of 3; the sessions of attempts 1 and 2 had errored before they were ready.` */
export function attemptsNote(attempt: AttemptCount): string {
  const earlier = Array.from({ length: attempt.earlier }, (_, index) => index + 1);
  const one = earlier.length === 1;
  const which = one
    ? `the session of attempt ${earlier[0]}`
    : `the sessions of attempts ${earlier.slice(0, -1).join(', ')} and ${earlier.at(-1)}`;
  return `It was attempt ${attempt.number} of ${attempt.of}; ${which} had errored before ${one ? 'it was' : 'they were'} ready.`;
}

/** How long after it was created an ended session that never started ended. */
function lifetime(session: SessionTimes): string {
  const created = session.createdAt ? Date.parse(session.createdAt) : Number.NaN;
  const ended = Date.parse(session.finishedAt ?? session.updatedAt ?? '');
  return Number.isFinite(created) && Number.isFinite(ended)
    ? ` ${formatElapsed(ended - created)} after it was created`
    : '';
}

/** The post step's words for a session it found already ended. */
export function alreadyEndedMessage(session: SessionTimes & Pick<DeviceSession, 'id'>): string {
  const ran = deviceRanMs(session);
  if (session.status === 'errored')
    return `Device session ${session.id} had already errored during the job (${
      ran === undefined
        ? `before it was ready,${lifetime(session)}`
        : `after ${formatElapsed(ran)} of device time`
    }); there was nothing to stop.`;
  const at = session.finishedAt ? ` at ${oneLine(session.finishedAt, 40)}` : '';
  return `Device session ${session.id} had already been stopped during the job${at}, before the post step; there was nothing to stop.`;
}

/** The create's 400 when the account has no access to device sessions (create.ts tells it from a bad input). */
export function featureNotEnabledMessage(serviceMessage: string, appId: string): string {
  return (
    `Creating the device session failed: remote device sessions are not enabled for the account that owns project ${appId} ` +
    `(400: ${withoutFinalDots(serviceMessage)}). Device sessions are a limited-access preview, and the account that owns the project needs access to it: ` +
    "ask an owner of that account to request access to the device-sessions preview, or use a project of an account that has it. The step's inputs are not the problem; no session was created."
  );
}

/** Why the post step could not reach the service with what the main step saved, and so stopped nothing. */
export type PostUnusable =
  | { kind: 'malformed-state' }
  | { kind: 'setting-changed'; setting: string }
  | { kind: 'token'; problem: string };

/** The post step's failure when it cannot stop the sessions `ids` (`link`: the one session's page, or empty). */
export function postUnusableMessage(why: PostUnusable, ids: string, link: string): string {
  const stopByHand = 'Stop it from its page or with the stop-device-session command.';
  switch (why.kind) {
    case 'malformed-state':
      return `The saved state of this step is not usable (session id or service address malformed); device session ${ids} was not stopped. Stop it from the dashboard.`;
    case 'setting-changed':
      return `\`${why.setting}\` changed after the main step, and the access token is never sent with settings the main step did not use: device session ${ids} was not stopped. ${stopByHand} ${link}`.trimEnd();
    case 'token':
      return `${withoutFinalDots(why.problem)}: device session ${ids} was not stopped. ${stopByHand} ${link}`.trimEnd();
  }
}

/**
 * The post step's fresh Node process ended before its code ran (`how`: "exit code 101"): nothing
 * was stopped, and this process may not send the token itself (`differs` changed). Each session
 * still running, with its page and how to stop it.
 */
export function freshProcessDiedMessage(
  how: string,
  differs: string,
  running: ReadonlyArray<{ id: string; url: string }>,
): string {
  const died = `The post step's new Node process ended before its code ran (${how}): Node may refuse a start-up setting of the main step's (\`${differs}\` changed after it).`;
  if (running.length === 0) return `${died} No device session was left running.`;
  const each = running.map(
    ({ id, url }) => `Device session ${id} is still running${url ? ` (${url})` : ''}.`,
  );
  const stop =
    running.length === 1
      ? `Stop it with the stop-device-session command and \`session-id: ${running[0].id}\`, or from its page.`
      : 'Stop each with a stop-device-session step and its `session-id`, or from its page.';
  return `${died} ${each.join(' ')} ${stop}`;
}

/** The post step was cancelled, but every session was stopped: its annotation says so. */
export function postCancelledMessage(ids: string): string {
  return `The post step was cancelled; device session ${ids} was stopped all the same.`;
}
