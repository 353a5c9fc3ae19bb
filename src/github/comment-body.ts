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
import { createHash } from 'node:crypto';
import { runnerEventCommit } from './event.js';
import { redactDeep, type ActionIO } from '../runner/io.js';
import { markdownCode, markdownLink, markdownText } from '../text/markdown.js';
import { status } from '../text/status.js';
import { markdownJobLabel } from '../text/job-label.js';
import type { WorkflowJob } from '../service/contract.js';
import { noneLeft } from '../text/shown.js';

/** GitHub refuses comment bodies longer than 65,536 characters. */
const MAX_BODY = 60_000;
/** Jobs listed in the comment; the job summary has them all. */
const MAX_JOBS = 50;

/**
 * The fields of each job the comment shows (text/shown.ts), read from the `jobs` output: never its
 * errors or outputs, which may echo a secret that nothing scrubs from a comment.
 */
type CommentJob = Pick<WorkflowJob, 'key' | 'name' | 'status'>;

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

/**
 * What tells this step's comment from another leg's of one matrix, in its heading: the leg's
 * `status-context`, else a short hash of its settings (never their values: inputs may be secrets).
 */
export type CommentLeg = { statusContext: string } | { settingsHash: string };

export interface CommentReport {
  kind: CommentKind;
  /** What the comment is about, for the marker and the heading: a workflow file, a gate, a session name. */
  subject: string;
  /** What tells two steps of one subject apart (two matrix legs), in the marker only. */
  variant?: string;
  /** The leg's name for the heading, when the command has one (see CommentLeg). */
  leg?: CommentLeg;
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
function commentMarker(report: Pick<CommentReport, 'kind' | 'subject' | 'variant'>): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/-/g, '%2D');
  const variant = report.variant ? `:${encode(report.variant)}` : '';
  return `<!-- svc-action:comment:${report.kind}:${encode(report.subject)}${variant} -->`;
}

/** A short, stable hash of settings, for a comment's `variant`. */
export function shortHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 10);
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
  const what = `${kind.heading} ${markdownCode(report.subject, 120)}${legLabel(report.leg)}`;
  const lines = [commentMarker(report), `**svc** · ${what}: ${outcome(report, env)}`, ''];
  lines.push(...kind.table(report));
  if (report.leg && 'settingsHash' in report.leg)
    lines.push(
      `Settings ${markdownCode(report.leg.settingsHash, 12)} name this comment: each leg of a matrix that dispatches this workflow with other settings has its own. Set \`status-context\` to name the legs.`,
      '',
    );
  const run = githubRunUrl(env);
  if (run)
    lines.push(
      `${report.failed && report.outputs.outcome !== 'canceled' ? "Why it failed, with the service's messages" : 'Details'}: the ${markdownLink('job summary', run)}.`,
      '',
    );
  // The run's own commit for a run (the statuses are on it), else the commit under review: the
  // pull request's head (GITHUB_SHA is the merge commit, which no reviewer knows).
  const sha =
    report.kind === 'start-device-session'
      ? runnerEventCommit(env)
      : runCommit(report) || runnerEventCommit(env);
  const commit = sha ? ` for commit ${markdownCode(sha.slice(0, 12), 12)}` : '';
  lines.push(
    `<sub>Updated by ${run ? markdownLink(`GitHub workflow run ${env.GITHUB_RUN_ID ?? ''}`, run) : 'GitHub Actions'}${commit}.</sub>`,
  );
  let body = io.redact(lines.join('\n'));
  if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY)}\n\n… (truncated)`;
  return body;
}

/** The heading's words for the leg: its status context, or the hash of its settings. */
function legLabel(leg: CommentLeg | undefined): string {
  if (!leg) return '';
  if ('statusContext' in leg) return ` · ${markdownCode(leg.statusContext, 80)}`;
  return ` · settings ${markdownCode(leg.settingsHash, 12)}`;
}

/** The heading's outcome: the step's, or once the job has ended, what became of the device. */
function outcome(report: CommentReport, env: Record<string, string | undefined>): string {
  const what = report.ended ? markdownText(report.ended.what, 200) : '';
  if (report.ended?.released) return `✅ the job ended and the device was released (${what})`;
  if (report.ended) return `⚠️ the job ended: ${what}`;
  if (report.kind === 'start-device-session')
    return report.failed ? '❌ the step failed' : '✅ the step succeeded';
  return runOutcome(report, env);
}

/**
 * A run's heading: ✅ only for a step that succeeded on a run of the commit under review; a run of
 * another commit says which commit it tested; a dispatch that was not followed says so.
 */
function runOutcome(report: CommentReport, env: Record<string, string | undefined>): string {
  const outcome = report.outputs.outcome ?? (report.failed ? 'failure' : 'success');
  if (outcome === 'dispatched') return '🚀 dispatched, not followed: its result is not known here';
  if (outcome === 'canceled') return '⏹️ the run was canceled';
  if (outcome === 'timed-out') return '⏱️ the run did not finish within `timeout-minutes`';
  if (outcome === 'action-required') return '✋ the run waits for approval';
  if (report.failed || outcome !== 'success') return '❌ the step failed';
  const tested = runCommit(report);
  const review = runnerEventCommit(env)?.toLowerCase();
  if (tested && review && tested === review) return '✅ the step succeeded';
  return tested
    ? `☑️ the run succeeded on commit ${markdownCode(tested.slice(0, 12), 12)}, which is not the commit under review${review ? ` (${markdownCode(review.slice(0, 12), 12)})` : ''}`
    : '☑️ the run succeeded; it did not say which commit it tested';
}

/** The commit the run is of, as the step's `git-commit-hash` output gave it. */
function runCommit(report: CommentReport): string {
  return (report.outputs['git-commit-hash'] ?? '').trim().toLowerCase();
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
      const { key, name, status: jobStatus, ...unrendered } = job;
      noneLeft(unrendered);
      lines.push(`| ${markdownJobLabel({ key, name })} | ${status(jobStatus)} |`);
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
function parseJobs(json: string | undefined): CommentJob[] {
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
