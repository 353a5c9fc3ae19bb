/**
 * sync-statuses' job summary and failure sentences. The summary: what it settled, what is still pending (and why), what it refused to
 * trust (and why), by commit and context. Contexts, commits and reasons pass through markdown.ts.
 */
import { redactDeep } from '../../runner/io.js';
import { markdownCode, markdownText } from '../../text/markdown.js';
import { status } from '../../text/status.js';
import type { SyncEntry, SyncReport } from '../sync-plan.js';

/** The runner gave no repository to settle statuses in. */
export const NO_REPOSITORY = 'GITHUB_REPOSITORY does not name a repository (owner/name).';

/** The github-token's account is unknown, so no status can be told to be this action's. */
export const UNKNOWN_TOKEN_ACCOUNT =
  'Could not tell which account the github-token belongs to (GraphQL `viewer`): sync-statuses settles only the statuses that account posted, so it settled none.';

/** Rows per list at most: the counts are whole in the heading line. */
const MAX_ROWS = 200;

export function renderSyncSummary(given: SyncReport, redact: (text: string) => string): string {
  const report = redactDeep(given, redact);
  const lines = [
    '### sync-statuses',
    '',
    `Settled ${report.settled.length}, still pending ${report.pending.length}, refused ${report.refused.length}.`,
    '',
  ];
  const table = (title: string, entries: SyncEntry[], column: string) => {
    if (entries.length === 0) return;
    lines.push(`**${title}**`, '', `| Commit | Context | ${column} |`, '| --- | --- | --- |');
    for (const entry of entries.slice(0, MAX_ROWS))
      lines.push(
        `| ${markdownCode(entry.commit.slice(0, 12), 12)} | ${markdownCode(entry.context, 120)} | ${entry.state ? `${status(entry.state)}: ` : ''}${markdownText(entry.why, 300)} |`,
      );
    if (entries.length > MAX_ROWS) lines.push(`| … and ${entries.length - MAX_ROWS} more | | |`);
    lines.push('');
  };
  table('Settled', report.settled, 'State');
  table('Still pending', report.pending, 'Why');
  table('Refused', report.refused, 'Why not trusted');
  if (report.left.length > 0)
    lines.push(`Left for the next call: ${markdownText(report.left.join('; '), 1000)}.`, '');
  return `${lines.join('\n')}\n`;
}
