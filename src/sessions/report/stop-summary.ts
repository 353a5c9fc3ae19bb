/**
 * The job summary of stop-device-session: which session, how it ended (`stopped`, or `errored`
 * when it had already ended with an error), when it finished and how long it ran, by the service's
 * own timestamps; or, when the stop could not be confirmed, that a device may still be running.
 * Values from the service pass through markdown.ts; the only link is the session's page (`url`),
 * and only when it is http(s).
 */
import type { DeviceSession } from '../../service/contract.js';
import { redactDeep } from '../../runner/io.js';
import { markdownCode, markdownLink, markdownMessage, markdownText } from '../../text/markdown.js';
import { formatElapsed } from '../../text/time.js';
import { noneLeft, pickShown } from '../../text/shown.js';
import { sessionTitle } from './session-summary.js';
import { stillRunningAdvice } from './failures.js';
import { formatTimestamp, msBetween } from '../../text/time.js';

/** The fields of the stopped session the summary shows (text/shown.ts): heading, row, how long it ran. */
const STOP_SUMMARY_FIELDS = [
  'id',
  'url',
  'status',
  'name',
  'platform',
  'type',
  'startedAt',
  'finishedAt',
] as const;

type StopReport =
  | { sessionId: string; session: Pick<DeviceSession, (typeof STOP_SUMMARY_FIELDS)[number]> }
  /** The stop failed: `notFound` for a 404, else it could not be confirmed; `reason` is the step's message. */
  | { sessionId: string; notFound: boolean; reason: string };

const OUTCOMES: Record<string, string> = {
  stopped: '⏹️ stopped',
  errored: '❌ had ended with an error (`errored`)',
};

/** `redact` is applied to every value first: escaping would change a secret's characters. */
export function renderStopSummary(input: StopReport, redact: (text: string) => string): string {
  const report = redactDeep(
    'session' in input ? { ...input, session: pickShown(input.session, STOP_SUMMARY_FIELDS) } : input,
    redact,
  );
  if (!('session' in report)) {
    const heading = report.notFound ? '❓ not found' : '⚠️ could not be confirmed stopped';
    const lines = [`### Device session ${markdownCode(report.sessionId, 60)}: ${heading}`, ''];
    lines.push(markdownMessage(report.reason, 1000), '');
    if (!report.notFound) lines.push(stillRunningAdvice('The session', true), '');
    return lines.join('\n');
  }
  const { id, url, status, name, platform, type, startedAt, finishedAt, ...unrendered } = report.session;
  noneLeft(unrendered);
  const outcome = OUTCOMES[status] ?? markdownText(status, 40);
  const ran = msBetween(startedAt, finishedAt);
  const lines = [`### ${sessionTitle({ name, platform, type })}: ${outcome}`, ''];
  lines.push('| Session | Status | Finished | Ran for |', '| --- | --- | --- | --- |');
  lines.push(
    `| ${markdownLink(id, url, 60)} | ${markdownText(status, 40)} | ${formatTimestamp(finishedAt) ?? ''} | ${ran === undefined ? '' : formatElapsed(ran)} |`,
    '',
  );
  if (status === 'stopped' && !startedAt)
    lines.push('It was stopped before it was ready: it never started.', '');
  return lines.join('\n');
}
