/**
 * Job summaries in Markdown. Every value from the service passes through markdown.ts (text, code or
 * a link to an http(s) URL the service gave for it), so a commit message or job name shows as text:
 * no links, images, mentions, emphasis or HTML, and the tables keep their columns.
 */
import type { DeviceSession, WorkflowRun } from './service/schemas.js';
import { markdownCode, markdownLink, markdownText } from './markdown.js';

const STATUS_ICON: Record<string, string> = {
  success: '✅',
  failure: '❌',
  canceled: '⏹️',
  skipped: '⏭️',
  'in-progress': '⏳',
  new: '🕒',
  'action-required': '✋',
  'pending-cancel': '⏹️',
  stopped: '⏹️',
  errored: '❌',
};

function status(value: string): string {
  return `${STATUS_ICON[value] ?? '❔'} ${markdownText(value, 40)}`;
}

export function renderRunSummary(
  dispatched: { id: string; url: string; fileName: string },
  run: WorkflowRun | undefined,
): string {
  const lines = [`### Workflow run ${markdownLink(dispatched.fileName, dispatched.url)}`, ''];
  lines.push('| | |', '| --- | --- |');
  lines.push(`| Run | ${markdownLink(dispatched.id, dispatched.url)} |`);
  if (!run) {
    lines.push('| Status | not followed (`wait: false`) |', '');
    return lines.join('\n');
  }
  lines.push(`| Status | ${status(run.status)} |`);
  if (run.requestedGitRef) lines.push(`| Ref | ${markdownCode(run.requestedGitRef, 120)} |`);
  if (run.gitCommitHash) {
    const message = run.gitCommitMessage
      ? ` ${markdownText(run.gitCommitMessage.split(/\r?\n/)[0] ?? '', 100)}`
      : '';
    lines.push(`| Commit | ${markdownCode(run.gitCommitHash.slice(0, 12), 12)}${message} |`);
  }
  lines.push('');
  if (run.jobs.length > 0) {
    lines.push('| Job | Type | Status | Build / submission |', '| --- | --- | --- | --- |');
    for (const job of run.jobs) {
      const ids = [
        job.buildId && `build ${markdownCode(job.buildId, 40)}`,
        job.submissionId && `submission ${markdownCode(job.submissionId, 40)}`,
      ]
        .filter(Boolean)
        .join('<br>');
      const name =
        job.name && job.name !== job.key
          ? `${markdownText(job.name, 80)} (${markdownCode(job.key, 60)})`
          : `${markdownCode(job.key, 60)}`;
      lines.push(`| ${name} | ${markdownText(job.type ?? '', 30)} | ${status(job.status)} | ${ids} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

export function renderSessionSummary(session: DeviceSession, note: string): string {
  const preview = session.remoteConfig?.webPreviewUrl ?? session.remoteConfig?.previewUrl;
  const lines = [
    `### Device session ${markdownLink(session.name ?? session.id, session.url)}`,
    '',
    '| | |',
    '| --- | --- |',
    `| Session | ${markdownLink(session.id, session.url)} |`,
    `| Platform / type | ${markdownText(session.platform ?? '', 20)} / ${markdownText(session.type ?? '', 30)} |`,
    `| Status | ${status(session.status)} |`,
  ];
  if (session.maxDurationMinutes != null) lines.push(`| Max duration | ${session.maxDurationMinutes} min |`);
  if (preview) lines.push(`| Browser preview | ${markdownLink('open', preview)} |`);
  lines.push('', note, '');
  return lines.join('\n');
}
