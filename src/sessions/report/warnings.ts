/**
 * The warnings and notices of the session commands and the post step, in one place: what a step
 * says of a session it goes on without failing for (a value it could not mask or export, a stop it
 * could not confirm, a session it leaves running or could not find). Each is a function of explicit
 * values (no I/O), so a test compares the whole sentence; the steps' logic only picks which one.
 */
import type { DeviceSession } from '../../service/contract.js';
import { withoutFinalDots } from '../../text/one-line.js';
import type { SessionTimes } from './accounting.js';
import { alreadyEndedMessage } from './failures.js';

/** More values of a session's connection details may be secrets than the action registers for masking. */
export function unmaskedValuesWarning(max: number, skipped: number): string {
  return (
    `The session's connection details hold more values that may be secrets than the ${max} the action registers for masking; ` +
    `${skipped} were not registered. They are in the step's outputs and exported variables: ` +
    `do not print them.`
  );
}

/** A variable too large to export for later steps (`output`: the step output that holds it, if any). */
export function notExportedWarning(
  name: string,
  bytes: number,
  maxBytes: number,
  output: string | undefined,
): string {
  return (
    `${name} was not exported for later steps: ` +
    `its value is ${Math.ceil(bytes / 1024)} KiB, more than the ${maxBytes / 1024} KiB this action exports (Linux refuses an environment variable over 128 KiB, and one that large would keep every later step of the job from starting, the post step included).${output ? ` Read it from the step output \`${output}\` instead (\`steps.<id>.outputs.${output}\`), written to a file rather than to an environment variable.` : ''}`
  );
}

/** A session that errored, whose stop (sent to close it) was not confirmed: the post step tries again. */
export function erroredStopNotConfirmedWarning(sessionId: string, reason: string): string {
  return `Device session ${sessionId} errored; the stop sent to close it was not confirmed (${withoutFinalDots(reason)}). The post step tries again when the job ends.`;
}

/** The post step's fresh Node process could not be started (`why`: its error's code or message). */
export function freshProcessNotStartedWarning(why: string): string {
  return `The new Node process could not be started (${why}).`;
}

/**
 * The post step found the session already ended during the job, then its page: a warning when it had
 * errored, else an info line.
 */
export function alreadyEndedLine(session: SessionTimes & Pick<DeviceSession, 'id'>, page: string): string {
  return `${alreadyEndedMessage(session)} ${page}`.trimEnd();
}

/** `auto-stop: false`, and the session still runs: the post step leaves it. */
export function keepsRunningNotice(sessionId: string, page: string): string {
  return `auto-stop is false: device session ${sessionId} keeps running until it is stopped or reaches its limits. ${page}`.trimEnd();
}

/** `auto-stop: false`, and whether the session still runs is not known (`why`). */
export function notStoppedUnknownNotice(sessionId: string, page: string, why: string): string {
  return `auto-stop is false: device session ${sessionId} was not stopped, and whether it still runs is not known (${why}). ${page}`.trimEnd();
}

/**
 * A create never answered (sent at `sentAt`): a session may exist whose id is unknown. `appId` is
 * the project's id, or undefined when the saved one is not one.
 */
export function lostCreateWarning(sentAt: string, appId: string | undefined): string {
  return (
    `A device session may be running: the create request sent at ${sentAt} got no usable answer, so its id is unknown and it could not be stopped. ` +
    `Look for it among the device sessions of project ${appId ?? '(unknown)'} in the dashboard and stop it there; otherwise it ends at its maximum duration.`
  );
}

/** A start-up `setting` changed after the main step: the post step does not update the pull request comment. */
export function commentNotUpdatedWarning(setting: string): string {
  return `\`${setting}\` changed after the main step, and the github-token is never sent with settings the main step did not use: the pull request comment was not updated.`;
}
