/**
 * The post step: runs when the job ends, whatever its outcome (post-if: always()). It stops every
 * device session that this step's main part created (several with start-attempts) and that the main
 * part did not see end, on the service the main part used (saved in state, never read again from
 * the environment, so the token goes nowhere else). Each session is read first, so that one that had
 * already ended during the job is said to have (a warning when it errored), and how long its device
 * ran is logged and summarised. A paid device left running is never silent: a stop that cannot be
 * confirmed, a cancellation of the post step itself, and a create whose answer never came are each
 * reported, naming the session and where to look. A step that started no session says nothing above
 * debug level.
 */
import { createCoreIO, type ActionIO } from './github/io.js';
import { COMMANDS, inputSource, maskSecretInputs } from './commands/index.js';
import { commentOnPullRequest } from './github/comment.js';
import { isPullRequestEvent } from './github/event.js';
import { createClient, envNumber } from './github/service-client.js';
import { ActionFailure, reportFailure } from './errors.js';
import { UUID, isSessionTerminal, type DeviceSession } from './service/contract.js';
import type { ServiceClient } from './service/client.js';
import { STATE, readSessions, restoreTransport, type SavedSession } from './sessions/state.js';
import {
  alreadyEndedMessage,
  deviceTime,
  renderPostSummary,
  type PostReport,
} from './sessions/accounting.js';
import { POST_STOP_GRACE_MS } from './github/runner-timings.js';
import { logStopped, stopSession } from './sessions/stop.js';
import { onCancel } from './github/signals.js';

/** The whole stop, confirmation included, when nothing interrupts it. */
const POST_STOP_WITHIN_MS = 2 * 60_000;
/** The read before the stop is worth a few seconds, never the stop itself. */
const READ_BEFORE_STOP_MS = 5_000;
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
  const sessions = savedSessions(io);
  // No id for the last create: either nothing was started, or its answer never came.
  if (!io.getState(STATE.sessionId)) reportNoSession(io, sessions.length > 0);
  if (sessions.length === 0) return;
  const reports: PostReport[] = [];
  try {
    await handle(io, sessions, transport.differs, reports);
  } finally {
    if (reports.length > 0) await io.appendSummary(renderPostSummary(reports, io.redact));
  }
  if (reports.length > 0 || transport.differs)
    await updateComment(io, reports[reports.length - 1], transport.differs);
}

/**
 * With `comment: true` on a pull request, the session's sticky comment says how the session ended
 * (stopped, and after how long), so it never shows a device as running after the job. The comment's
 * subject and token come from this step's inputs, read as the main step read them.
 */
async function updateComment(
  io: ActionIO,
  last: PostReport | undefined,
  differs: string | undefined,
): Promise<void> {
  if (!isPullRequestEvent(process.env.GITHUB_EVENT_NAME)) return;
  let comment;
  try {
    comment = COMMANDS['start-device-session'].read(inputSource(io)).comment;
  } catch {
    return;
  }
  if (!comment) return;
  // The github-token, like the service's token, goes nowhere with settings the main step did not use.
  if (differs)
    return io.warning(
      `\`${differs}\` changed after the main step, and the github-token is never sent with settings the main step did not use: the pull request comment was not updated.`,
    );
  if (!last) return;
  await commentOnPullRequest(
    { githubToken: comment.githubToken ?? '' },
    {
      kind: 'start-device-session',
      subject: comment.subject,
      outputs: { 'session-id': last.id, 'session-url': last.url ?? '', status: last.status ?? '' },
      failed: false,
      // A stopped session has given its device back, whoever stopped it.
      ended: {
        released: last.status === 'stopped',
        what: `${last.did === 'stopped it' ? 'the post step stopped it' : last.did}${last.deviceTime ? `, device time ${last.deviceTime}` : ''}`,
      },
    },
    io,
  );
}

/** Every session the main step created (start-attempts), the last one as the single-session keys say. */
function savedSessions(io: ActionIO): SavedSession[] {
  const lastId = io.getState(STATE.sessionId);
  const sessions = readSessions(io).filter((session) => session.id !== lastId);
  if (lastId)
    sessions.push({
      id: lastId,
      url: io.getState(STATE.sessionUrl),
      ...(io.getState(STATE.stopped) === 'true' ? { ended: '' } : {}),
    });
  return sessions;
}

async function handle(
  io: ActionIO,
  sessions: SavedSession[],
  differs: string | undefined,
  reports: PostReport[],
): Promise<void> {
  for (const session of sessions.filter((each) => each.ended !== undefined)) {
    io.info(
      `Device session ${session.id} already ended during the main step${session.ended ? ` (${session.ended})` : ''}.`,
    );
    reports.push({ ...session, status: session.ended, did: 'ended during the main step' });
  }
  const open = sessions.filter((session) => session.ended === undefined);
  if (open.length === 0) return;
  if (io.getState(STATE.autoStop) === 'false') {
    for (const { id, url } of open) {
      io.notice(
        `auto-stop is false: device session ${id} keeps running until it is stopped or reaches its limits. ${url}`.trimEnd(),
      );
      reports.push({ id, url, did: 'left running (auto-stop: false)' });
    }
    return;
  }
  const baseUrl = io.getState(STATE.baseUrl);
  const ids = open.map((session) => session.id.slice(0, 60)).join(', ');
  if (!open.every((session) => UUID.test(session.id)) || !/^https?:\/\/[^\s]+$/.test(baseUrl)) {
    io.setFailed(
      `The saved state of this step is not usable (session id or service address malformed); device session ${ids} was not stopped. Stop it from the dashboard.`,
    );
    return;
  }
  if (differs) {
    io.setFailed(
      `\`${differs}\` changed after the main step, and the access token is never sent with settings the main step did not use: device session ${ids} was not stopped. Stop it from its page or with the stop-device-session command. ${open.length === 1 ? open[0].url : ''}`.trimEnd(),
    );
    return;
  }
  const token = io.getInput('token').trim() || process.env.SVC_TOKEN?.trim() || '';
  const pollIntervalMs = Number(io.getState(STATE.pollIntervalMs)) || 5_000;
  const client = createClient({ baseUrl, token, pollIntervalMs, timeoutMs: POST_STOP_WITHIN_MS }, io);
  // A signal does not abandon the stop: it shortens the time left to confirm it (and skips the reads).
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
        reports.push({ ...session, did: 'could not be confirmed stopped (see the error)' });
        reportFailure(io, error);
      }
    }
    // The post step was cancelled: the runner marks it so; the annotation says the device is not left running.
    if (timer && confirmed === open.length)
      reportFailure(
        io,
        new ActionFailure(`The post step was cancelled; device session ${ids} was stopped all the same.`),
      );
  } finally {
    clearTimeout(timer);
    stopListening();
    client.dispose();
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
  const report = {
    id: saved.id,
    url: where(session),
    status: session.status,
    deviceTime: deviceTime(session),
  };
  // A stop never makes a session errored: an errored answer means it had errored before.
  if (session.status === 'errored') {
    io.warning(`${alreadyEndedMessage(session)} ${where(session)}`.trimEnd());
    return { ...report, did: 'nothing to stop, it had already errored during the job' };
  }
  if (ended) {
    io.info(`${alreadyEndedMessage(session)} ${where(session)}`.trimEnd());
    io.info(`Device time of session ${saved.id}: ${deviceTime(session)}.`);
    return { ...report, did: 'nothing to stop, it had already been stopped during the job' };
  }
  logStopped(io, session);
  io.info(`Device time of session ${saved.id}: ${deviceTime(session)}.`);
  return { ...report, did: 'stopped it' };
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
    return await client.getDeviceSession(id, { deadline: Date.now() + READ_BEFORE_STOP_MS, signal });
  } catch (error) {
    io.debug(`Reading device session ${id} before stopping it failed: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * No id for the last create: either nothing was started (silent), or a create never answered (a
 * warning; the sessions of earlier attempts, if any, are stopped all the same).
 */
function reportNoSession(io: ActionIO, earlierSessions: boolean): void {
  const sentAt = io.getState(STATE.createInFlight);
  if (!sentAt) {
    if (!earlierSessions) io.debug('No device session was started by this step; nothing to stop.');
    return;
  }
  const appId = io.getState(STATE.appId);
  io.warning(
    `A device session may be running: the create request sent at ${sentAt.slice(0, 40)} got no usable answer, so its id is unknown and it could not be stopped. ` +
      `Look for it among the device sessions of project ${UUID.test(appId) ? appId : '(unknown)'} in the dashboard and stop it there; otherwise it ends at its maximum duration.`,
  );
}
