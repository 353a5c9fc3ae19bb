/**
 * What the post step does: when the job ends, whatever its outcome (post-if: always()), it stops
 * every device session that this step's main part created (several with start-attempts) and that
 * the main part did not see end, on the service the main part used (saved in state, never read again
 * from the environment, so the token goes nowhere else). Each session is read first, so that one
 * that had already ended during the job is said to have (a warning when it errored), and how long
 * its device ran is logged and summarised. With `auto-stop: false` each session is read and left
 * running, and the step says what it found, never more than it knows. A paid device left running is
 * never silent: a stop that cannot be confirmed, a cancellation of the post step itself, and a
 * create whose answer never came are each reported, naming the session and where to look, as long as
 * Node can start: a start-up setting a later step changed is left behind by running the work again in
 * a fresh Node process with the main step's settings. A step that started no session says nothing
 * above debug level.
 */
import type { ActionIO } from '../runner/io.js';
import { createClient, envNumber } from '../runner/service-client.js';
import { POST_STOP_GRACE_MS } from '../runner/timings.js';
import { onCancel } from '../runner/signals.js';
import { inFreshProcess } from '../runner/startup-env.js';
import { handOver } from './fresh-process.js';
import { ActionFailure, reportFailure } from '../errors.js';
import { isSessionTerminal, isUuid, type DeviceSession } from '../service/contract.js';
import type { ServiceClient } from '../service/client.js';
import type { InputSource } from '../inputs/table.js';
import { readPostState, restoreTransport, type PostState, type SavedSession } from './state.js';
import { deviceTime, renderPostSummary, type PostReport } from './report/accounting.js';
import { alreadyEndedMessage, postCancelledMessage, postUnusableMessage } from './report/failures.js';
import { logStopped, stopSession } from './stop.js';
import { maskSession } from './masking.js';
import { readToken, savedBaseUrl, unusableState } from './post-reach.js';
import {
  alreadyEndedLine,
  keepsRunningNotice,
  lostCreateWarning,
  notStoppedUnknownNotice,
} from './report/warnings.js';

/** The whole stop, confirmation included, when nothing interrupts it. */
const POST_STOP_WITHIN_MS = 2 * 60_000;
/** The read before the stop is worth a few seconds, never the stop itself. */
const READ_BEFORE_STOP_MS = 5_000;
/**
 * Tests pass a shorter grace (`SVC_CANCEL_GRACE_MS`) rather than wait out the runner's; the value is
 * the main step's (restoreTransport), never one a later step set.
 */
const graceAfterSignalMs = (): number => envNumber('SVC_CANCEL_GRACE_MS', POST_STOP_GRACE_MS);

/** What the post step did, for the pull-request comment. */
export interface PostOutcome {
  /** What it did with the last session, if it reached one. */
  last?: PostReport;
  /** The setting that changed after the main step (then nothing is sent with the saved tokens). */
  differs?: string;
  /**
   * The exit code of the fresh Node process that did the post step's work (with the main step's
   * start-up settings), comment included: this process has nothing left to do.
   */
  handedOver?: number;
}

/** Runs the post step. */
export async function runPostStep(io: ActionIO, source: InputSource): Promise<PostOutcome> {
  // Only what this step's own main part saved counts (state.ts).
  const transport = restoreTransport(io);
  if (!transport.saved) {
    io.debug('The main step saved no state for this post step; nothing to stop.');
    return {};
  }
  const state = readPostState(io);
  if (state.createInFlight) reportLostCreate(io, state);
  else if (state.sessions.length === 0)
    io.debug('No device session was started by this step; nothing to stop.');
  if (state.sessions.length === 0) return {};
  const { differs, startup } = transport;
  // Refused only where a fresh process cannot help: it could not start, or this is it already.
  if (differs && startup && !inFreshProcess()) {
    const handedOver = await handOver(io, differs, startup, state.sessions);
    if (handedOver !== undefined) return { handedOver };
  }
  const reports: PostReport[] = [];
  try {
    await handle(io, source, state, differs, reports);
  } finally {
    if (reports.length > 0) await io.appendSummary(renderPostSummary(reports, io.redact));
  }
  return { last: reports.at(-1), differs: transport.differs };
}

async function handle(
  io: ActionIO,
  source: InputSource,
  state: PostState,
  differs: string | undefined,
  reports: PostReport[],
): Promise<void> {
  for (const session of state.sessions.filter((each) => each.ended !== undefined)) {
    io.info(`Device session ${session.id} already ended during the main step (${session.ended}).`);
    reports.push({ ...session, status: session.ended, ending: 'ended-in-main-step' });
  }
  const open = state.sessions.filter((session) => session.ended === undefined);
  if (open.length === 0) return;
  const ids = open.map((session) => session.id.slice(0, 60)).join(', ');
  const unusable = unusableState(state, open, source, differs);
  if (unusable && !state.autoStop) {
    for (const session of open) leftRunning(io, session, reports, 'its state could not be read');
    return;
  }
  if (unusable) {
    io.setFailed(postUnusableMessage(unusable, ids, open.length === 1 ? open[0].url : ''));
    return;
  }
  const api = {
    baseUrl: savedBaseUrl(state.baseUrl) ?? '',
    token: readToken(source) ?? '',
    pollIntervalMs: state.pollIntervalMs,
    timeoutMs: POST_STOP_WITHIN_MS,
  };
  const client = createClient(api, io);
  try {
    if (state.autoStop) await stopAll(io, client, open, ids, reports);
    else for (const session of open) await leaveRunning(io, client, session, reports);
  } finally {
    client.dispose();
  }
}

/** Stops every open session; a signal shortens the time left to confirm the stops (and skips the reads). */
async function stopAll(
  io: ActionIO,
  client: ServiceClient,
  open: SavedSession[],
  ids: string,
  reports: PostReport[],
): Promise<void> {
  const giveUp = new AbortController();
  const hurry = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // A signal that came while the bundle loaded counts from when it came: the grace is what is left.
  const stopListening = onCancel(({ signal, at }) => {
    if (timer) return;
    hurry.abort();
    io.info(`Received ${signal}: still stopping device session ${ids} before the runner ends the step.`);
    timer = setTimeout(() => giveUp.abort(), Math.max(0, at + graceAfterSignalMs() - Date.now()));
  });
  const deadline = Date.now() + POST_STOP_WITHIN_MS;
  let confirmed = 0;
  try {
    for (const session of open) {
      try {
        reports.push(
          await finish(io, client, session, { deadline, giveUp: giveUp.signal, hurry: hurry.signal }),
        );
        confirmed++;
      } catch (error) {
        reports.push({ ...session, ending: 'stop-not-confirmed' });
        reportFailure(io, error);
      }
    }
    // The post step was cancelled: the runner marks it so; the annotation says the device is not left running.
    if (timer && confirmed === open.length) reportFailure(io, new ActionFailure(postCancelledMessage(ids)));
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}

/**
 * One session: read first, so that a session that had already ended during the job is said to have
 * (an errored one as a warning), then stop it unless it has; then how long its device ran.
 */
async function finish(
  io: ActionIO,
  client: ServiceClient,
  saved: SavedSession,
  limits: { deadline: number; giveUp: AbortSignal; hurry: AbortSignal },
): Promise<PostReport> {
  const where = (session: DeviceSession): string => session.url ?? saved.url;
  const before = await readBeforeStop(io, client, saved.id, limits.hurry);
  const ended = before && isSessionTerminal(before) ? before : undefined;
  const session =
    ended ??
    (await stopSession(client, saved.id, {
      deadline: limits.deadline,
      sessionUrl: saved.url || undefined,
      signal: limits.giveUp,
    }));
  maskSession(io, session);
  const report = {
    id: saved.id,
    url: where(session),
    status: session.status,
    deviceTime: deviceTime(session),
  };
  // A stop never makes a session errored: an errored answer means it had errored before.
  if (session.status === 'errored') {
    io.warning(alreadyEndedLine(session, where(session)));
    return { ...report, ending: 'already-errored' };
  }
  if (ended) {
    io.info(alreadyEndedLine(session, where(session)));
    io.info(`Device time of session ${saved.id}: ${deviceTime(session)}.`);
    return { ...report, ending: 'already-stopped' };
  }
  logStopped(io, session);
  io.info(`Device time of session ${saved.id}: ${deviceTime(session)}.`);
  return { ...report, ending: 'stopped' };
}

/** `auto-stop: false`: reads the session, so that the step says only what it knows, and leaves it. */
async function leaveRunning(
  io: ActionIO,
  client: ServiceClient,
  saved: SavedSession,
  reports: PostReport[],
): Promise<void> {
  const session = await readBeforeStop(io, client, saved.id, new AbortController().signal);
  if (!session) return leftRunning(io, saved, reports, 'it could not be read');
  const report = {
    id: saved.id,
    url: session.url ?? saved.url,
    status: session.status,
    deviceTime: deviceTime(session),
  };
  if (isSessionTerminal(session)) {
    io.info(`auto-stop is false, and ${lowerFirst(alreadyEndedMessage(session))} ${report.url}`.trimEnd());
    reports.push({ ...report, ending: 'already-ended-left' });
    return;
  }
  io.notice(keepsRunningNotice(saved.id, report.url));
  reports.push({ ...report, ending: 'left-running' });
}

/** `auto-stop: false` and the session's state unknown: says only that it was not stopped. */
function leftRunning(io: ActionIO, saved: SavedSession, reports: PostReport[], why: string): void {
  io.notice(notStoppedUnknownNotice(saved.id, saved.url, why));
  reports.push({ ...saved, ending: 'not-stopped-unknown' });
}

/** The session as it is before the stop; undefined when it cannot be read at once (the stop goes ahead). */
async function readBeforeStop(
  io: ActionIO,
  client: ServiceClient,
  id: string,
  hurry: AbortSignal,
): Promise<DeviceSession | undefined> {
  if (hurry.aborted) return undefined;
  try {
    // The signal also ends an answer that is slow to come: the deadline only stops new attempts.
    const signal = AbortSignal.any([hurry, AbortSignal.timeout(READ_BEFORE_STOP_MS)]);
    const session = await client.getDeviceSession(id, { deadline: Date.now() + READ_BEFORE_STOP_MS, signal });
    maskSession(io, session);
    return session;
  } catch (error) {
    io.debug(`Reading device session ${id} before stopping it failed: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * A create never answered: a session may exist whose id is unknown (a warning; the sessions of
 * earlier attempts, if any, are stopped all the same).
 */
function reportLostCreate(io: ActionIO, state: PostState): void {
  io.warning(lostCreateWarning(state.createInFlight, isUuid(state.appId) ? state.appId : undefined));
}

/** A sentence that goes on after a comma: `Device session …` becomes `device session …`. */
function lowerFirst(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
