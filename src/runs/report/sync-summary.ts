/**
 * sync-statuses' job summary and failure sentences. The summary: what it settled, what is still pending (and why), what it refused to
 * trust (and why), by commit and context. Contexts, commits and reasons pass through markdown.ts.
 */
import { redactDeep } from '../../runner/io.js';
import { markdownCode, markdownText } from '../../text/markdown.js';
import { status } from '../../text/status.js';
import { oneLine } from '../../text/one-line.js';
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

/** The service refused `token` (401): no run is read, no status changes. */
export function tokenRefusedMessage(baseUrl: string, reason: string): string {
  return `The service at ${baseUrl} (\`base-url\`) refused \`token\` (${reason}): sync-statuses read no more runs and left every status pending. Give it a token of the project whose runs the statuses name.`;
}

/** Every run read answered 404 from something that is not the service: `base-url` is wrong. */
export function notTheServiceMessage(baseUrl: string, reason: string): string {
  return `\`base-url\` ${baseUrl} does not answer as the service does (${reason}): sync-statuses left every status pending.`;
}

/**
 * The `commit` input names a commit that carries no status of this action: on a pull request,
 * `github.sha` is the merge commit, not the head the gate posted on.
 */
export function noStatusOnCommitWarning(commit: string, event: string | undefined): string {
  const pullRequest = event === 'pull_request' || event === 'pull_request_target';
  return (
    `Commit ${commit} (\`commit\`) carries no commit status of this action: nothing to settle there.` +
    (pullRequest
      ? ' On a pull request, `${{ github.sha }}` is the merge commit; the gate posts on the head commit, `${{ github.event.pull_request.head.sha }}`.'
      : " Check that it is the commit the gate posted on (a run's `gitCommitHash`).")
  );
}

/** Every run read answered 403 or 404, and the address and the token are the service's. */
export function unreadableRunsWarning(count: number, host: string): string {
  return `None of the ${count} ${count === 1 ? 'run' : 'runs'} read at ${host} could be read with \`token\` (403 or 404): it may belong to another project than the runs the statuses name (or the runs were deleted). Their statuses stay pending; the summary lists them.`;
}

/** The service could not be reached: no more runs read this call. */
export function unreachableWarning(host: string, reason: string, notRead: number): string {
  const more = notRead > 0 ? ` (${notRead} more ${notRead === 1 ? 'run' : 'runs'} not read)` : '';
  return `The service at ${host} could not be reached (${reason}): sync-statuses read no more runs this call${more} and left their statuses pending for the next call.`;
}

/** GitHub refused `github-token` or a permission: the step fails. */
export function gitHubRefusedMessage(words: string): string {
  return `${words}. sync-statuses changed no status it could not post; the others stay pending.`;
}

/** A limit, a failing or unreachable GitHub: the call's GitHub work stopped. */
export function gitHubStoppedWarning(words: string): string {
  return `${words}: sync-statuses stopped its GitHub requests for this call; what it did not post stays pending for the next call.`;
}

/** Pending statuses of this action's marker that another account posted: left alone. */
export function othersWarning(others: readonly string[], login: string): string {
  const names = others.slice(0, 5).join(', ') + (others.length > 5 ? ` and ${others.length - 5} more` : '');
  return `Pending statuses with this action's marker posted by ${names} were left alone: sync-statuses settles only those of \`github-token\`'s account (${login}).`;
}

/** Work a call left for the next (`left`: each with how much). */
export function leftForNextCallWarning(left: readonly string[]): string {
  return `Left for the next sync-statuses: ${left.join('; ')}.`;
}

/** Another account's status (`by`) came on `context` while the sync posted: the sync's post is on top. */
export function anotherAccountDuringPostWarning(context: string, commit: string, by: string): string {
  return `\`${oneLine(context, 100)}\` on ${commit}: a status of ${by} came while this sync posted; this sync's post is on top of it, and a status of another account is never posted again as the sync's own.`;
}

/** A newer status of run `runId` is under the sync's post, and the call's bound left no room to post it again. */
export function newerStatusUnderWarning(context: string, commit: string, runId: string): string {
  return `\`${oneLine(context, 100)}\` on ${commit}: the newer status of run ${runId}, posted while this sync ran, is under this sync's post (the call's bound was reached): re-run that run's step to post it again.`;
}
