/**
 * What a paid device cost, in the words a reviewer reads: how long it ran against its maximum
 * duration, every session a start made (start-attempts), and what the post step did with each.
 * The figures come from the service's own timestamps (`startedAt` to `finishedAt`); a session that
 * never started used no device time. Values from the service pass through markdown.ts.
 */
import { isSessionTerminal, type DeviceSession } from '../service/contract.js';
import { markdownLink, markdownText } from '../text/markdown.js';
import { formatElapsed, oneLine } from '../text/plain.js';
import { redactDeep } from '../github/io.js';
import { status as withIcon } from '../text/status.js';

/** The fields of a session that say how long its device ran. */
type SessionTimes = Pick<DeviceSession, 'status'> &
  Partial<Pick<DeviceSession, 'startedAt' | 'finishedAt' | 'updatedAt' | 'createdAt' | 'maxDurationMinutes'>>;

/**
 * From `startedAt` to `finishedAt`; for an ended session without one (an errored session), to its
 * last update; for one still running, to `now`. Undefined when it never started.
 */
function deviceRanMs(session: SessionTimes, now: number = Date.now()): number | undefined {
  const start = session.startedAt ? Date.parse(session.startedAt) : Number.NaN;
  if (!Number.isFinite(start)) return undefined;
  const endText = session.finishedAt ?? (isSessionTerminal(session) ? session.updatedAt : undefined);
  const end = endText ? Date.parse(endText) : now;
  return Number.isFinite(end) ? Math.max(0, end - start) : undefined;
}

/** The maximum the device may run: the session's own, or the account's default when it does not say. */
function durationLimit(session: Partial<Pick<DeviceSession, 'maxDurationMinutes'>>): string {
  return session.maxDurationMinutes != null
    ? `${session.maxDurationMinutes} min maximum`
    : 'limit: account default';
}

/** `4m12s of its 30 min maximum`, or `not started (30 min maximum)`. */
export function deviceTime(session: SessionTimes, now: number = Date.now()): string {
  const ran = deviceRanMs(session, now);
  const limit = durationLimit(session);
  if (ran === undefined) return `not started (${limit})`;
  return session.maxDurationMinutes != null
    ? `${formatElapsed(ran)} of its ${limit}`
    : `${formatElapsed(ran)} (${limit})`;
}

/** How long after it was created an ended session that never started ended. */
function lifetime(session: SessionTimes): string {
  const created = session.createdAt ? Date.parse(session.createdAt) : Number.NaN;
  const ended = Date.parse(session.finishedAt ?? session.updatedAt ?? '');
  return Number.isFinite(created) && Number.isFinite(ended)
    ? ` ${formatElapsed(ended - created)} after it was created`
    : '';
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

/** One session a start created (start-attempts), as the summary lists it. */
export interface AttemptRecord {
  id: string;
  url?: string | null;
  status: string;
}

/** Every session the step created, when it made more than one: attempt, session, status. */
export function renderAttempts(
  attempts: AttemptRecord[],
  of: number,
  redact: (text: string) => string,
): string {
  if (attempts.length < 2) return '';
  const safe = redactDeep(attempts, redact);
  // A blank line first: after the summary's blockquote, the heading would be part of the quote.
  const lines = [
    '',
    `**Attempts** (${attempts.length} of at most ${of})`,
    '',
    '| Attempt | Session | Status |',
    '| --- | --- | --- |',
  ];
  safe.forEach((attempt, index) =>
    lines.push(
      `| ${index + 1} | ${markdownLink(attempt.id, attempt.url)} | ${markdownText(attempt.status, 40)} |`,
    ),
  );
  lines.push('');
  return lines.join('\n');
}

/** What the post step did with one session. */
export interface PostReport {
  id: string;
  url?: string | null;
  status?: string;
  /** `deviceTime` of the session as last read, when it was read. */
  deviceTime?: string;
  /** In plain text: stopped by the post step, had already errored, … */
  did: string;
}

/** The post step's section of the job summary. */
export function renderPostSummary(reports: PostReport[], redact: (text: string) => string): string {
  const safe = redactDeep(reports, redact);
  const lines = [
    '### Device sessions at the end of the job',
    '',
    '| Session | Status | Device time | What the post step did |',
    '| --- | --- | --- | --- |',
  ];
  for (const report of safe)
    lines.push(
      `| ${markdownLink(report.id, report.url)} | ${report.status ? withIcon(report.status) : 'unknown'} | ${markdownText(report.deviceTime ?? 'unknown', 80)} | ${markdownText(report.did, 300)} |`,
    );
  lines.push('');
  return lines.join('\n');
}
