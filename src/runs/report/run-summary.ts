/**
 * Job summaries in Markdown, the first thing a reviewer opens on a failed pull request: the outcome
 * in the heading, then one row with the facts (link, status, ref, commit, how long the step waited),
 * then why it failed, then the jobs. Every value from the service passes through markdown.ts (text,
 * code or a link to an http(s) URL the service gave for it), so a commit message or job name shows
 * as text: no links, images, mentions, emphasis or HTML, and the tables keep their columns.
 * Free-form text (job errors, commit messages, the failure message, session names) is written
 * verbatim in code spans: a secret the runner knows stays whole there, so the runner masks it.
 */
import { firstJobError, type WorkflowJob, type WorkflowRun } from '../../service/contract.js';
import {
  markdownCode,
  markdownLink,
  markdownMessage,
  markdownSentence,
  markdownText,
} from '../../text/markdown.js';
import { bounded } from '../../text/one-line.js';
import { formatElapsed } from '../../text/time.js';
import { redactDeep } from '../../runner/io.js';
import { noneLeft, pickShown } from '../../text/shown.js';
import { status } from '../../text/status.js';
import { markdownJobLabel } from '../../text/job-label.js';
import { orderByNeeds } from '../job-graph.js';
import { selects } from '../job-selection.js';
import type { Outcome } from '../outcome.js';
import type { Refusal } from '../verdict.js';
import type { MergeGroup } from '../../github/event.js';
import { queueSummaryLines } from './queue-words.js';

/**
 * Rows of the jobs table and entries of each list at most: a run of 50,000 jobs renders its first
 * jobs and says how many more, so the summary stays far under GitHub's 1 MiB per step (a row is at
 * most about 1.3 kB: every value in it is cut) and costs no more to render than a small run.
 */
const MAX_JOB_ROWS = 500;
const MAX_LISTED = 20;
/** Jobs a skipped job's cell names among those it needs. */
const MAX_NEEDS = 5;

/**
 * The fields of the run and of each job the summary shows (text/shown.ts): job outputs and other
 * large fields are never copied, so a huge answer costs no more to redact and render than a small one.
 */
const RUN_SUMMARY_FIELDS = [
  'status',
  'gitCommitHash',
  'gitCommitMessage',
  'requestedGitRef',
  'jobs',
] as const;
const JOB_SUMMARY_FIELDS = [
  'key',
  'name',
  'type',
  'status',
  'errors',
  'buildId',
  'submissionId',
  'createdAt',
  'updatedAt',
  'requiredJobKeys',
] as const;
type ShownJob = Pick<WorkflowJob, (typeof JOB_SUMMARY_FIELDS)[number]>;
type ShownRun = Omit<Pick<WorkflowRun, (typeof RUN_SUMMARY_FIELDS)[number]>, 'jobs'> & { jobs: ShownJob[] };

interface RunReport {
  /** The workflow file name, or `run <id>` when the step did not dispatch it. */
  title: string;
  runId: string;
  runUrl: string;
  /** The run as last read; undefined when it was never read. */
  run?: WorkflowRun;
  outcome: Outcome;
  /** A failure with a heading of its own. */
  refusal?: Refusal;
  /** The jobs the step followed (`jobs` input: keys and `type:` selectors); all when undefined. */
  jobs?: string[];
  waitedMs?: number;
  /** What the step said when it failed, in plain text (escaped here). */
  reason?: string;
  /** With `dry-run`: the action's own sentences of what it checked and what it could not. */
  dryRun?: { checked: string[]; unchecked: string[] };
  /** The ref the step dispatched, shown while the run has not been read (`wait: false`). */
  gitRef?: string;
  /** On `merge_group`: the queue's commit, its base branch and the entry it tests. */
  queue?: MergeGroup;
}

const RUN_HEADINGS: Record<Outcome | Refusal, string> = {
  success: '✅ succeeded',
  failure: '❌ failed',
  canceled: '⏹️ canceled',
  'timed-out': '⏱️ did not finish in time',
  interrupted: '🛑 not followed to the end: the step was cancelled',
  dispatched: '🚀 dispatched',
  'dry-run': '🧪 checked, not dispatched (`dry-run`)',
  'unknown-jobs': '❌ `jobs` names jobs the run does not have',
  'action-required': '✋ waits for approval',
  'wrong-commit': '❌ a run of another commit',
};

/** The report as the summary renders it: the run only by its shown fields. */
type ShownReport = Omit<RunReport, 'run'> & { run?: ShownRun };

/** `redact` is applied to every value first: escaping would change a secret's characters. */
export function renderRunSummary(input: RunReport, redact: (text: string) => string): string {
  // Each job after the jobs it needs: the tables read in the order the pipeline runs.
  const ordered = input.run && { ...input.run, jobs: orderByNeeds(input.run.jobs) };
  const report: ShownReport = redactDeep({ ...input, run: ordered && shownFields(ordered) }, redact);
  const total = input.run?.jobs.length ?? 0;
  const {
    status: runStatus,
    gitCommitHash,
    gitCommitMessage,
    requestedGitRef,
    jobs,
    ...unrendered
  } = report.run ?? {};
  noneLeft(unrendered);
  const subject = report.jobs
    ? `Jobs ${report.jobs.map((key) => markdownCode(key, 60)).join(', ')} of ${markdownText(report.title, 120)}`
    : `Workflow run ${markdownText(report.title, 120)}`;
  const lines = [`### ${subject}: ${RUN_HEADINGS[report.refusal ?? report.outcome]}`, ''];
  // Nothing was dispatched: what was checked is all there is to say.
  if (report.outcome === 'dry-run') return [...lines, ...dryRunLists(report.dryRun)].join('\n');
  const commit = gitCommitHash
    ? `${markdownCode(gitCommitHash.slice(0, 12), 12)} ${markdownCode((gitCommitMessage ?? '').split(/\r?\n/)[0] ?? '', 80)}`.trim()
    : '';
  // The ref only where it says more than the commit: a branch or tag, not the commit's own SHA.
  const ref = requestedGitRef ?? report.gitRef ?? '';
  const hash = (gitCommitHash ?? '').toLowerCase();
  const showRef =
    ref !== '' && !(hash !== '' && /^[0-9a-f]{7,40}$/i.test(ref) && hash.startsWith(ref.toLowerCase()));
  const cells = [
    ['Run', markdownLink(report.runId.slice(0, 8), report.runUrl)],
    ['Status', runStatus !== undefined ? status(runStatus) : status('new')],
    ...(showRef ? [['Ref', markdownCode(ref, 120)]] : []),
    ['Commit', commit],
    ['Waited', report.waitedMs === undefined ? '' : formatElapsed(report.waitedMs)],
  ];
  lines.push(
    `| ${cells.map(([name]) => name).join(' | ')} |`,
    `| ${cells.map(() => '---').join(' | ')} |`,
    `| ${cells.map(([, value]) => value).join(' | ')} |`,
    '',
  );
  if (report.queue) lines.push(...queueSummaryLines(report.queue, gitCommitHash ?? undefined));
  lines.push(...why(report));
  if (jobs && jobs.length > 0) {
    const byKey = new Map(jobs.map((job) => [job.key, job]));
    lines.push('| Job | Status | Duration | Build / submission |', '| --- | --- | --- | --- |');
    for (const job of jobs.slice(0, MAX_JOB_ROWS)) {
      const followed = followedBy(report, job) ? '' : ' (not followed)';
      lines.push(
        `| ${markdownJobLabel(job)}${followed} | ${status(job.status)}${skippedBecause(job, byKey)} | ${jobDuration(job)} | ${jobIds(job)} |`,
      );
    }
    if (total > MAX_JOB_ROWS)
      lines.push(`| … and ${total - MAX_JOB_ROWS} more (every job is on the run's page) | | | |`);
    lines.push('');
  }
  if (report.outcome === 'dispatched')
    lines.push('Not followed (`wait: false`): follow it with `wait-for-run` and this run id.', '');
  return lines.join('\n');
}

/**
 * Only the fields the summary shows, each text at most BOUND characters (cut between words, so no
 * secret is cut): job outputs and other large fields are not copied, and a huge answer costs no
 * more to redact and render than a small one.
 */
function shownFields(run: WorkflowRun): ShownRun {
  const jobs = run.jobs.map((job): ShownJob => {
    const shown = pickShown(job, JOB_SUMMARY_FIELDS);
    const error = firstJobError(job);
    return {
      ...shown,
      name: shown.name && bounded(shown.name),
      errors: error === undefined ? undefined : [bounded(error)],
      requiredJobKeys: shown.requiredJobKeys?.slice(0, MAX_NEEDS),
    };
  });
  const shown = pickShown(run, RUN_SUMMARY_FIELDS);
  const gitCommitMessage = shown.gitCommitMessage && bounded(shown.gitCommitMessage.split(/\r?\n/)[0] ?? '');
  return { ...shown, gitCommitMessage, jobs };
}

/** Why the step failed, at the top: the failed and canceled jobs with their first error, then the reason. */
function why(report: ShownReport): string[] {
  if (['success', 'dispatched', 'dry-run'].includes(report.outcome)) return [];
  const jobs = (report.run?.jobs ?? []).filter((job) => followedBy(report, job));
  const failed = jobs.filter((job) => job.status === 'failure');
  const canceled = jobs.filter((job) => job.status === 'canceled');
  const lines: string[] = [];
  // What a reviewer of the pull request (this summary is its comment too) can do about it.
  const approval = report.run?.status === 'action-required';
  if (approval) {
    const waiting = (report.run?.jobs ?? []).filter((job) => job.status === 'action-required');
    lines.push('**The run waits for approval**', '', ...list(waiting, () => ''));
  }
  if (failed.length > 0) lines.push('**Failed jobs**', '', ...list(failed, jobError));
  if (canceled.length > 0) lines.push('**Canceled jobs**', '', ...list(canceled, () => ''));
  // The jobs say why a run failed; otherwise (timeout, cancelled, unknown jobs) the step's own words do.
  if (report.reason && failed.length + canceled.length === 0)
    lines.push(markdownMessage(report.reason, 1000), '');
  const open = approval ? 'Open the run on the service to approve it' : 'Open the run on the service';
  if (report.runUrl) lines.push(`${markdownLink(open, report.runUrl)}`, '');
  return lines;
}

/** What a dry run checked, then what it could not, each a list of the action's own sentences. */
function dryRunLists(said: RunReport['dryRun']): string[] {
  const section = (heading: string, sentences: string[] = []): string[] =>
    sentences.length === 0
      ? []
      : [`**${heading}**`, '', ...sentences.map((sentence) => `- ${markdownSentence(sentence, 1000)}`), ''];
  return [...section('Checked', said?.checked), ...section('Not checked', said?.unchecked)];
}

/** A Markdown list of the first jobs, then how many more, then a blank line; nothing when empty. */
function list(jobs: ShownJob[], detail: (job: ShownJob) => string): string[] {
  if (jobs.length === 0) return [];
  const items = jobs.slice(0, MAX_LISTED).map((job) => `- ${markdownJobLabel(job)}${detail(job)}`);
  if (jobs.length > MAX_LISTED) items.push(`- … and ${jobs.length - MAX_LISTED} more`);
  return [...items, ''];
}

/**
 * Whether the step followed this job: all of them without `jobs`. A job that waits for approval
 * while the step ended on that (`on-action-required: fail`) is what the step followed to its end.
 */
function followedBy(report: Pick<RunReport, 'jobs' | 'outcome'>, job: ShownJob): boolean {
  if (report.outcome === 'action-required' && job.status === 'action-required') return true;
  return !report.jobs || report.jobs.some((selector) => selects(selector, job));
}

/** For a skipped job: the jobs it needs that did not succeed (`requiredJobKeys`), which is why. */
function skippedBecause(job: ShownJob, byKey: ReadonlyMap<string, ShownJob>): string {
  if (job.status !== 'skipped') return '';
  const unsuccessful = (job.requiredJobKeys ?? [])
    .filter((key) => byKey.get(key)?.status !== 'success')
    .slice(0, MAX_NEEDS);
  return unsuccessful.length > 0
    ? ` (needs ${unsuccessful.map((key) => markdownCode(key, 60)).join(', ')}, which did not succeed)`
    : '';
}

function jobIds(job: ShownJob): string {
  return [
    job.buildId && `build ${markdownCode(job.buildId, 40)}`,
    job.submissionId && `submission ${markdownCode(job.submissionId, 40)}`,
  ]
    .filter(Boolean)
    .join('<br>');
}

/** From the job's creation to its last update, once it is terminal (the service's timestamps). */
function jobDuration(job: ShownJob): string {
  if (!['success', 'failure', 'canceled'].includes(job.status) || !job.createdAt || !job.updatedAt) return '';
  const ms = Date.parse(job.updatedAt) - Date.parse(job.createdAt);
  return Number.isFinite(ms) && ms >= 0 ? formatElapsed(ms) : '';
}

function jobError(job: ShownJob): string {
  const text = firstJobError(job);
  // Under the job's list item: its error as a quoted block, indented into the item.
  return text ? `\n${markdownMessage(text, 300, 5).replace(/^/gm, '  ')}` : '';
}

/** The commit statuses this step posted (`commit-statuses: true`), after the run's summary. */
export function renderStatusesSection(
  commit: string | undefined,
  posted: ReadonlyArray<{ context: string; state: string }>,
): string {
  if (posted.length === 0) return '';
  const rows = posted.map(({ context, state }) => `- ${markdownCode(context, 120)}: ${status(state)}`);
  return `\n**Commit statuses** on commit ${markdownCode(commit ?? '', 64)}\n\n${rows.join('\n')}\n`;
}
