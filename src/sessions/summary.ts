/**
 * The job summary of a session the step created or waited for: the heading says how waiting ended,
 * one row gives the session, its status, how long the step waited and the device time; then why,
 * whether it was stopped, and the browser preview. Values from the service pass through markdown.ts.
 */
import type { DeviceSession } from '../service/contract.js';
import { markdownLink, markdownMessage, markdownText, markdownVerbatim } from '../text/markdown.js';
import { status } from '../text/status.js';
import { bounded, formatElapsed } from '../text/plain.js';
import { redactDeep } from '../github/io.js';
import { deviceTime } from './accounting.js';
import { previewUrl } from './connection.js';
import { deviceTitle } from './name.js';
import { stillRunningAdvice } from './stop.js';

/** How waiting for a session ended, as the summary tells it. */
export type SessionOutcome =
  'ready' | 'started' | 'ended' | 'ended-after-ready' | 'timed-out' | 'cancelled' | 'failed';

interface SessionReport {
  session: Pick<DeviceSession, 'id' | 'status' | 'url'> & Partial<DeviceSession>;
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
  const { session } = report;
  const lines = [`### ${sessionTitle(session)}: ${SESSION_HEADINGS[report.outcome]}`, ''];
  lines.push('| Session | Status | Waited | Device time |', '| --- | --- | --- | --- |');
  // A session this step stopped is stopped now, whatever its last read said.
  const shownStatus =
    report.outcome === 'ready'
      ? '✅ ready'
      : report.stopped === true && session.status !== 'stopped' && session.status !== 'errored'
        ? `${status('stopped')} (was ${markdownText(session.status, 40)})`
        : status(session.status);
  lines.push(
    `| ${markdownLink(session.id, session.url)} | ${shownStatus} | ${report.waitedMs === undefined ? '' : formatElapsed(report.waitedMs)} | ${markdownText(deviceTime(session), 80)} |`,
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
  if (session.preview) lines.push(`Browser preview: ${markdownLink('open', session.preview)}`, '');
  if (report.note) lines.push(report.note, '');
  return lines.join('\n');
}

/**
 * The fields the session summary shows, and its preview URL: not the rest of `remoteConfig`, which
 * may be large (capabilities) and holds the connection's secrets.
 */
function shownSessionFields(
  session: SessionReport['session'],
): SessionReport['session'] & { preview?: string } {
  const { id, status, url, name, platform, type, maxDurationMinutes } = session;
  // The times the device-time column is computed from (accounting.ts).
  const { createdAt, startedAt, finishedAt, updatedAt } = session;
  const preview = previewUrl(session.remoteConfig);
  return {
    id,
    status,
    url,
    name: name && bounded(name),
    platform,
    type,
    maxDurationMinutes,
    createdAt,
    startedAt,
    finishedAt,
    updatedAt,
    preview,
  };
}
