/**
 * What the pull-request comment says (comment.ts posts it): a hidden marker that keys the sticky
 * comment (its kind and subject), a heading with the outcome, the run or the session as a table,
 * and links to the GitHub run. It comes from the step's outputs: the outcome, the run (or session)
 * with its link and status, the jobs by key, name and status. It carries no free-form text from the
 * service (job errors, messages, commit messages): those may echo a secret that the runner masks in
 * the log and the job summary, whereas nothing scrubs a comment, which is public on a public
 * repository. Why a step failed is in the job summary it links. Values are redacted before they are
 * rendered, since rendering changes a secret's characters.
 */
import { runnerEventCommit } from './event.js';
import { redactDeep, type ActionIO } from './io.js';
import { markdownCode, markdownLink, markdownText } from '../text/markdown.js';
import { status } from '../text/status.js';
import { markdownJobLabel } from '../text/job-label.js';
import type { WorkflowJob } from '../service/contract.js';

/** GitHub refuses comment bodies longer than 65,536 characters. */
const MAX_BODY = 60_000;
/** Jobs listed in the comment; the job summary has them all. */
const MAX_JOBS = 50;

/**
 * The kinds of sticky comment, one per command that has a `comment` input: the words its heading
 * names its subject with, and the table under the heading.
 */
const KINDS = {
  'run-workflow': { heading: 'Workflow run', table: runLines },
  'wait-for-run': { heading: 'Gate', table: runLines },
  'start-device-session': { heading: 'Device session', table: sessionLines },
} satisfies Record<string, { heading: string; table: (report: CommentReport) => string[] }>;

export type CommentKind = keyof typeof KINDS;

export interface CommentReport {
  kind: CommentKind;
  /** What the comment is about, for the marker and the heading: a workflow file, a gate, a session name. */
  subject: string;
  /** The step's outputs as it set them (run-id, run-url, status, jobs; session-id, session-url, …). */
  outputs: Record<string, string>;
  /** Whether the step failed. */
  failed: boolean;
  /** The session's browser preview (sessions/connection.ts picks it from the outputs). */
  preview?: string;
  /** From the post step, when the job has ended: whether the device was released, and what it did. */
  ended?: { released: boolean; what: string };
}

/** The hidden marker that identifies this step's sticky comment: its first line. */
function commentMarker(report: Pick<CommentReport, 'kind' | 'subject'>): string {
  const subject = encodeURIComponent(report.subject).replace(/-/g, '%2D');
  return `<!-- svc-action:comment:${report.kind}:${subject} -->`;
}

/** The comment's Markdown: marker, outcome, the run or session, links to the GitHub run. Redacted. */
export function renderComment(
  given: CommentReport,
  io: Pick<ActionIO, 'redact'>,
  env: Record<string, string | undefined> = process.env,
): string {
  // Values first, as the summaries do: rendering changes a secret's characters (a link
  // percent-encodes `(`, `)`, `|`, `\`; Markdown escapes `_`), and then no redaction finds it.
  const report = redactDeep(given, io.redact);
  const kind = KINDS[report.kind];
  const what = `${kind.heading} ${markdownCode(report.subject, 120)}`;
  const lines = [commentMarker(report), `**svc** · ${what}: ${outcome(report)}`, ''];
  lines.push(...kind.table(report));
  const run = githubRunUrl(env);
  if (run)
    lines.push(
      `${report.failed ? "Why it failed, with the service's messages" : 'Details'}: the ${markdownLink('job summary', run)}.`,
      '',
    );
  // The pull request's head commit: GITHUB_SHA is the merge commit, which no reviewer knows.
  const sha = runnerEventCommit(env);
  const commit = sha ? ` for commit ${markdownCode(sha.slice(0, 12), 12)}` : '';
  lines.push(
    `<sub>Updated by ${run ? markdownLink(`GitHub workflow run ${env.GITHUB_RUN_ID ?? ''}`, run) : 'GitHub Actions'}${commit}.</sub>`,
  );
  let body = io.redact(lines.join('\n'));
  if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY)}\n\n… (truncated)`;
  return body;
}

/** The heading's outcome: the step's, or once the job has ended, what became of the device. */
function outcome(report: CommentReport): string {
  const what = report.ended ? markdownText(report.ended.what, 200) : '';
  if (report.ended?.released) return `✅ the job ended and the device was released (${what})`;
  if (report.ended) return `⚠️ the job ended: ${what}`;
  return report.failed ? '❌ the step failed' : '✅ the step succeeded';
}

/** The run's link and status, then its jobs by name, key and status (never their errors). */
function runLines({ outputs }: CommentReport): string[] {
  const runId = outputs['run-id'] ?? '';
  if (!runId) return [];
  const lines = ['| Run | Status |', '| --- | --- |'];
  lines.push(
    `| ${markdownLink(runId.slice(0, 8), outputs['run-url'])} | ${status(outputs.status || 'new')} |`,
    '',
  );
  const jobs = parseJobs(outputs.jobs);
  if (jobs.length > 0) {
    lines.push('| Job | Status |', '| --- | --- |');
    for (const job of jobs.slice(0, MAX_JOBS)) {
      lines.push(`| ${markdownJobLabel(job)} | ${status(job.status)} |`);
    }
    if (jobs.length > MAX_JOBS) lines.push(`| … and ${jobs.length - MAX_JOBS} more | |`);
    lines.push('');
  }
  return lines;
}

/** The session's link and status, and its browser preview. */
function sessionLines({ outputs, preview }: CommentReport): string[] {
  const id = outputs['session-id'] ?? '';
  if (!id) return [];
  const lines = ['| Session | Status |', '| --- | --- |'];
  lines.push(
    `| ${markdownLink(id, outputs['session-url'])} | ${outputs.status ? status(outputs.status) : ''} |`,
    '',
  );
  if (preview) lines.push(`Browser preview: ${markdownLink('open', preview)}`, '');
  return lines;
}

/** Key, name and status of each job of the `jobs` output; nothing else is read from it. */
function parseJobs(json: string | undefined): Array<Pick<WorkflowJob, 'key' | 'name' | 'status'>> {
  if (!json) return [];
  let jobs: unknown;
  try {
    jobs = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(jobs)) return [];
  return jobs.flatMap((job: unknown) => {
    const { key, name, status } = (typeof job === 'object' && job !== null ? job : {}) as Record<
      string,
      unknown
    >;
    if (typeof key !== 'string' || typeof status !== 'string') return [];
    return [{ key, name: typeof name === 'string' ? name : undefined, status }];
  });
}

/**
 * The GitHub run's page, where its job summaries are: `…/actions/runs/<id>`, and
 * `/attempts/<n>` when the runner says which attempt this is (a re-run keeps the run id).
 */
function githubRunUrl(env: Record<string, string | undefined>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  if (!server || !repo || !runId || !/^https?:\/\//.test(server) || !/^\d+$/.test(runId)) return undefined;
  const attempt =
    env.GITHUB_RUN_ATTEMPT && /^\d+$/.test(env.GITHUB_RUN_ATTEMPT)
      ? `/attempts/${env.GITHUB_RUN_ATTEMPT}`
      : '';
  return `${server.replace(/\/+$/, '')}/${encodeURI(repo)}/actions/runs/${runId}${attempt}`;
}
