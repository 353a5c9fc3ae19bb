/**
 * What a paid device cost, in the words a reviewer reads: how long it ran against its maximum
 * duration, every session a start made (start-attempts), and what the post step did with each.
 * The figures come from the service's own timestamps (`startedAt` to `finishedAt`); a session that
 * never started used no device time. Values from the service pass through markdown.ts.
 */
import { isSessionTerminal, type DeviceSession } from '../../service/contract.js';
import { markdownLink, markdownText } from '../../text/markdown.js';
import { formatElapsed } from '../../text/time.js';
import { redactDeep } from '../../runner/io.js';
import { status as withIcon } from '../../text/status.js';

/** The fields of a session that say how long its device ran. */
export type SessionTimes = Pick<DeviceSession, 'status'> &
  Partial<Pick<DeviceSession, 'startedAt' | 'finishedAt' | 'updatedAt' | 'createdAt' | 'maxDurationMinutes'>>;

/**
 * From `startedAt` to `finishedAt`; for an ended session without one (an errored session), to its
 * last update; for one still running, to `now`. Undefined when it never started.
 */
export function deviceRanMs(session: SessionTimes, now: number = Date.now()): number | undefined {
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

/**
 * What the post step did with one session, as a value: the post summary's table and the pull
 * request's comment each turn it into their words (POST_ENDINGS, postCommentEnding).
 */
export type PostEnding =
  | 'ended-in-main-step'
  | 'stopped'
  | 'stop-not-confirmed'
  | 'already-errored'
  | 'already-stopped'
  | 'left-running'
  | 'already-ended-left'
  | 'not-stopped-unknown';

/** The post summary's "What the post step did" cell for each ending. */
const POST_ENDINGS: Record<PostEnding, string> = {
  'ended-in-main-step': 'ended during the main step',
  stopped: 'stopped it',
  'stop-not-confirmed': 'could not be confirmed stopped (see the error)',
  'already-errored': 'nothing to stop, it had already errored during the job',
  'already-stopped': 'nothing to stop, it had already been stopped during the job',
  'left-running': 'left running (auto-stop: false)',
  'already-ended-left': 'nothing to leave running, it had already ended (auto-stop: false)',
  'not-stopped-unknown': 'not stopped (auto-stop: false); whether it still runs is not known',
};

/** What the post step did with one session. */
export interface PostReport {
  id: string;
  url?: string | null;
  status?: string;
  /** `deviceTime` of the session as last read, when it was read. */
  deviceTime?: string;
  ending: PostEnding;
}

/** A row of the post step's table: the report, its ending in words. */
type PostRow = PostReport & { did: string };

/** The columns of the post step's table, each rendered from its row alone. */
const POST_COLUMNS = {
  Session: (report) => markdownLink(report.id, report.url),
  Status: (report) => (report.status ? withIcon(report.status) : 'unknown'),
  'Device time': (report) => markdownText(report.deviceTime ?? 'unknown', 80),
  'What the post step did': (report) => markdownText(report.did, 300),
} satisfies Record<string, (report: PostRow) => string>;

/** The post step's section of the job summary. */
export function renderPostSummary(reports: PostReport[], redact: (text: string) => string): string {
  // In words before redaction, as every value of the table.
  const rows: PostRow[] = reports.map((report) => ({ ...report, did: POST_ENDINGS[report.ending] }));
  const safe = redactDeep(rows, redact);
  const columns = Object.entries(POST_COLUMNS);
  const lines = [
    '### Device sessions at the end of the job',
    '',
    `| ${columns.map(([name]) => name).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
  ];
  for (const report of safe) lines.push(`| ${columns.map(([, cell]) => cell(report)).join(' | ')} |`);
  lines.push('');
  return lines.join('\n');
}

/**
 * What the session's pull-request comment says once the job has ended: whether the device was
 * released (a stopped session has given it back, whoever stopped it), and what the post step did.
 */
export function postCommentEnding(report: PostReport): { released: boolean; what: string } {
  const did = report.ending === 'stopped' ? 'the post step stopped it' : POST_ENDINGS[report.ending];
  return {
    released: report.status === 'stopped',
    what: `${did}${report.deviceTime ? `, device time ${report.deviceTime}` : ''}`,
  };
}
