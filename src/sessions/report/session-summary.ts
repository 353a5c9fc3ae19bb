/**
 * The job summary of a session the step created or waited for: the heading says how waiting ended,
 * one row gives the session, its status, how long the step waited and the device time; then why,
 * whether it was stopped, and the browser preview. Values from the service pass through markdown.ts.
 */
import type { DeviceSession } from '../../service/contract.js';
import { markdownLink, markdownMessage, markdownText, markdownVerbatim } from '../../text/markdown.js';
import { status } from '../../text/status.js';
import { bounded } from '../../text/one-line.js';
import { formatElapsed } from '../../text/time.js';
import { noneLeft, pickShown } from '../../text/shown.js';
import { redactDeep } from '../../runner/io.js';
import { deviceTime } from './accounting.js';
import { previewUrl } from '../connection.js';
import { deviceTitle } from '../name.js';
import { stillRunningAdvice } from './failures.js';

/** How waiting for a session ended, as the summary tells it. */
export type SessionOutcome =
  'ready' | 'started' | 'ended' | 'ended-after-ready' | 'timed-out' | 'cancelled' | 'failed';

/**
 * The fields of the session the summary shows (text/shown.ts): its heading (name, platform, type),
 * its row (id, url, status) and the device time (the limit and the times it is computed from,
 * accounting.ts); not the rest of `remoteConfig`, which may be large (capabilities) and holds the
 * connection's secrets: only its preview URL.
 */
const SESSION_SUMMARY_FIELDS = [
  'id',
  'status',
  'url',
  'name',
  'platform',
  'type',
  'maxDurationMinutes',
  'createdAt',
  'startedAt',
  'finishedAt',
  'updatedAt',
] as const;

type SessionRead = Pick<DeviceSession, 'id' | 'status' | 'url'> & Partial<DeviceSession>;
type ShownSession = Pick<SessionRead, (typeof SESSION_SUMMARY_FIELDS)[number]> & { preview?: string };

interface SessionReport {
  session: SessionRead;
  outcome: SessionOutcome;
  waitedMs?: number;
  /** For outcomes that stop the session: whether the stop was confirmed. */
  stopped?: boolean;
  /** A sentence on what happens to the session next (the post step stops it, …). */
  note?: string;
  reason?: string;
}

const SESSION_HEADINGS: Record<SessionOutcome, string> = {
  ready: '✅ ready',
  started: '🚀 started, not waited for',
  ended: '❌ ended before it was ready',
  'ended-after-ready': '❌ had been ready, and has ended',
  'timed-out': '⏱️ not ready in time',
  cancelled: '🛑 the step was cancelled',
  failed: '❌ could not be followed',
};

/** `Device session <name> (<platform> <type>)`, the start of every session summary's heading. */
export function sessionTitle(session: Partial<Pick<DeviceSession, 'name' | 'platform' | 'type'>>): string {
  return deviceTitle(session, {
    word: (text) => markdownText(text, 30),
    name: (text) => markdownVerbatim(text, 120),
  });
}

export function renderSessionSummary(input: SessionReport, redact: (text: string) => string): string {
  const report = redactDeep({ ...input, session: shownSessionFields(input.session) }, redact);
  const {
    id,
    status: sessionStatus,
    url,
    name,
    platform,
    type,
    maxDurationMinutes,
    createdAt,
    startedAt,
    finishedAt,
    updatedAt,
    preview,
    ...unrendered
  } = report.session;
  noneLeft(unrendered);
  const lines = [`### ${sessionTitle({ name, platform, type })}: ${SESSION_HEADINGS[report.outcome]}`, ''];
  lines.push('| Session | Status | Waited | Device time |', '| --- | --- | --- | --- |');
  // A session this step stopped is stopped now, whatever its last read said.
  const shownStatus =
    report.outcome === 'ready'
      ? '✅ ready'
      : report.stopped === true && sessionStatus !== 'stopped' && sessionStatus !== 'errored'
        ? `${status('stopped')} (was ${markdownText(sessionStatus, 40)})`
        : status(sessionStatus);
  const times = { status: sessionStatus, maxDurationMinutes, createdAt, startedAt, finishedAt, updatedAt };
  lines.push(
    `| ${markdownLink(id, url)} | ${shownStatus} | ${report.waitedMs === undefined ? '' : formatElapsed(report.waitedMs)} | ${markdownText(deviceTime(times), 80)} |`,
    '',
  );
  if (report.reason) lines.push(markdownMessage(report.reason, 1000), '');
  if (report.stopped !== undefined)
    lines.push(
      report.stopped
        ? 'The session was stopped.'
        : `**The session could not be confirmed stopped.** ${stillRunningAdvice()}`,
      '',
    );
  if (preview) lines.push(`Browser preview: ${markdownLink('open', preview)}`, '');
  if (report.note) lines.push(report.note, '');
  return lines.join('\n');
}

/** The fields the session summary shows (its name bounded), and its preview URL. */
function shownSessionFields(session: SessionRead): ShownSession {
  const shown = pickShown(session, SESSION_SUMMARY_FIELDS);
  return { ...shown, name: shown.name && bounded(shown.name), preview: previewUrl(session.remoteConfig) };
}
