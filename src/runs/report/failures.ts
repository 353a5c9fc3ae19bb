/**
 * The failure sentences of following a run (run-workflow, wait-for-run), in one place: each ending
 * in its own words (verdict.ts decides which ending it is, follow.ts when a read fails). A canceled
 * run is canceled, not failed; a skipped job names the job it needed that did not succeed; a run
 * that waits for approval names the jobs that wait. Each is a function of explicit values (no I/O),
 * so a test compares the whole sentence. Values from the service pass through the one-line rule.
 */
import { firstJobError, type WorkflowJob, type WorkflowRun } from '../../service/contract.js';
import { oneLine, withoutFinalDots } from '../../text/one-line.js';
import { jobLabel } from '../../text/job-label.js';
import { serviceWordFor } from '../job-selection.js';

/** Jobs named in one message at most: a run of 50,000 jobs does not make a 5 MB error. */
const JOBS_NAMED = 20;

/** ` <url>` after a sentence, or nothing. */
const linkOf = (runUrl: string): string => (runUrl ? ` ${runUrl}` : '');

/** The step was cancelled while it followed the run. */
export function interruptedMessage(runId: string, runUrl: string): string {
  return `Stopped waiting for workflow run ${runId}: the step was cancelled. The run goes on.${linkOf(runUrl)}`;
}

/**
 * The run is of another commit than `expected-commit`. `hint`: why the expected commit may be the
 * wrong one to expect (wait-for-run's merge-commit hint), said instead of the plain advice.
 */
export function wrongCommitMessage(given: {
  runId: string;
  runCommit: string;
  expectedCommit: string | undefined;
  hint: string | undefined;
  runUrl: string;
}): string {
  const { runId, runCommit, expectedCommit, hint, runUrl } = given;
  return (
    `Workflow run ${runId} is a run of commit ${oneLine(runCommit, 80)}, not of the expected commit ${expectedCommit} (\`expected-commit\`): ` +
    `a run of another commit cannot gate this one. ` +
    (hint
      ? `${hint} Or set \`expected-commit: ''\` to accept a run of any commit.`
      : `Follow a run of ${expectedCommit}, or set \`expected-commit: ''\` to accept a run of any commit.`) +
    linkOf(runUrl)
  );
}

/** The run does not say its commit, so `expected-commit` cannot be checked. */
export function unknownCommitMessage(
  runId: string,
  expectedCommit: string | undefined,
  runUrl: string,
): string {
  return (
    `Workflow run ${runId} does not say which commit it is a run of, so it cannot be checked against the expected commit ${expectedCommit} (\`expected-commit\`). ` +
    `Set \`expected-commit: ''\` to accept a run of any commit.${linkOf(runUrl)}`
  );
}

/** `timeout-minutes` was reached; `lastStatus` undefined when the run was never read. */
export function timedOutMessage(given: {
  runId: string;
  listedJobs: boolean;
  timeoutMs: number;
  lastStatus: string | undefined;
  runUrl: string;
}): string {
  const { runId, listedJobs, timeoutMs, lastStatus, runUrl } = given;
  const waiting =
    lastStatus === 'action-required' ? ' (it waits for a manual action, such as an approval)' : '';
  return (
    `Workflow run ${runId} did not ${listedJobs ? 'finish the listed jobs' : 'finish'} within timeout-minutes (${timeoutMs / 60_000}); ` +
    `last status: ${oneLine(lastStatus ?? 'unknown', 40)}${waiting}. ` +
    `The run goes on.${linkOf(runUrl)}`
  );
}

/** The run ended without success (no `jobs`): the jobs that ended it, each in its own words. */
export function runEndedMessage(run: WorkflowRun, runUrl: string): string {
  // The jobs that ended the run; the jobs skipped after them add nothing here.
  return `Workflow run ${run.id} ended with status ${oneLine(run.status, 40)}.${describeJobs(
    run.jobs,
    run.jobs.filter((job) => job.status === 'failure' || job.status === 'canceled'),
  )}${linkOf(runUrl)}`;
}

/** The run ended while a listed job had not (a service that stops a run's jobs late). */
export function endedBeforeListedJobsMessage(run: WorkflowRun, runUrl: string): string {
  return `Workflow run ${run.id} ended with status ${oneLine(run.status, 40)} before the listed jobs did.${linkOf(runUrl)}`;
}

/** With `jobs`: the listed jobs that did not succeed. */
export function listedJobsFailedMessage(
  run: WorkflowRun,
  notSucceeded: readonly WorkflowJob[],
  runUrl: string,
): string {
  return `Not every listed job succeeded.${describeJobs(run.jobs, notSucceeded)} Run status: ${oneLine(run.status, 40)}.${linkOf(runUrl)}`;
}

/** `on-action-required: fail` and the run waits for a manual action. */
export function awaitingApprovalMessage(run: WorkflowRun, runUrl: string): string {
  const link = linkOf(runUrl);
  const waiting = run.jobs.filter((job) => job.status === 'action-required');
  const which = waiting.length > 0 ? ` (job ${named(waiting, jobLabel)})` : '';
  return (
    `Workflow run ${run.id} waits for a manual action such as an approval${which}, and on-action-required is fail: ` +
    `the step ends here, the run waits. Someone allowed to approve it does so on its page${link ? `:${link}` : ''}; ` +
    `follow it afterwards with wait-for-run.`
  );
}

/**
 * Selectors the run has no job for: a typo, or a job of another version of the workflow file.
 * `byType`: a selector is a `type:`; `startedGoesOn`: this step dispatched the run and it goes on.
 */
export function unknownJobsMessage(given: {
  run: WorkflowRun;
  unmatched: readonly string[];
  byType: boolean;
  startedGoesOn: boolean;
  runUrl: string;
}): string {
  const { run, unmatched, byType, startedGoesOn, runUrl } = given;
  const known = named(
    run.jobs,
    (job) => `${oneLine(job.key, 80)}${byType && job.type ? ` (type ${oneLine(job.type, 40)})` : ''}`,
    50,
  );
  // The file's word for a type the service calls otherwise (`type:submit`): say the service's.
  const words = unmatched
    .map((selector) => [selector, serviceWordFor(selector)])
    .filter(([, instead]) => instead)
    .map(([selector, instead]) => ` The service calls those of \`${selector}\` \`${instead}\`.`)
    .join('');
  // The step started this run: say so, and where it is, since nobody else may know of it.
  const started = startedGoesOn
    ? ` The run this step dispatched was started and goes on${runUrl ? `: ${runUrl}` : ` (run ${run.id})`}`
    : linkOf(runUrl);
  return `\`jobs\` lists ${unmatched.map((selector) => `\`${oneLine(selector, 80)}\``).join(', ')}, which the run does not have; its jobs are: ${known || 'none'}.${words}${started}`;
}

/** wait-for-run's run id names no run (404 on the first read). */
export function runNotFoundMessage(
  runId: string,
  serviceMessage: string,
  baseUrlAdvice: string | undefined,
): string {
  return (
    `Workflow run ${runId} was not found (404): ` +
    `the service has no run with that id. ` +
    `Check \`run-id\`.${serviceMessage ? ` The service said: ${serviceMessage}` : ''}${baseUrlAdvice ? ` ${baseUrlAdvice}` : ''}`
  );
}

/** A read of a run known to exist failed for good: the run goes on without the step. */
export function readFailedMessage(message: string, runId: string, runUrl: string): string {
  const where = runUrl ? `: ${runUrl}` : ` (run ${runId})`;
  return `${withoutFinalDots(message)}. The run goes on${where}`;
}

/** The jobs that ended without success, in the service's order (the `failed-jobs` output). */
export function unsuccessful(jobs: readonly WorkflowJob[]): WorkflowJob[] {
  return jobs.filter((job) => ['failure', 'canceled', 'skipped'].includes(job.status));
}

/** ` Failed jobs: … Canceled jobs: … Skipped jobs: …`, each in its own words. */
function describeJobs(all: readonly WorkflowJob[], jobs: readonly WorkflowJob[]): string {
  const byKey = new Map(all.map((job) => [job.key, job]));
  const groups: Array<[string, WorkflowJob[], (job: WorkflowJob) => string]> = [
    ['Failed jobs', jobs.filter((job) => job.status === 'failure'), (job) => ` (failure${firstError(job)})`],
    ['Canceled jobs', jobs.filter((job) => job.status === 'canceled'), () => ''],
    ['Skipped jobs', jobs.filter((job) => job.status === 'skipped'), (job) => skippedBecause(job, byKey)],
  ];
  return groups
    .filter(([, members]) => members.length > 0)
    .map(
      ([title, members, detail]) =>
        ` ${title}: ${named(members, (job) => `${jobLabel(job)}${detail(job)}`)}.`,
    )
    .join('');
}

/** Why a job was skipped: the jobs it needs that ended without success, in their own words. */
function skippedBecause(job: WorkflowJob, byKey: ReadonlyMap<string, WorkflowJob>): string {
  const needed = unsuccessful(
    (job.requiredJobKeys ?? [])
      .map((key) => byKey.get(key))
      .filter((upstream): upstream is WorkflowJob => upstream !== undefined),
  );
  const ended = (upstream: WorkflowJob): string =>
    upstream.status === 'failure' ? `failed${firstError(upstream)}` : `was ${upstream.status}`;
  return needed.length === 0
    ? ' (skipped)'
    : ` (needs ${named(needed, (upstream) => `${oneLine(upstream.key, 80)}, which ${ended(upstream)}`, 3)})`;
}

/** The first `max` of `jobs` by `label`, then how many more. */
function named(jobs: readonly WorkflowJob[], label: (job: WorkflowJob) => string, max = JOBS_NAMED): string {
  const shown = jobs.slice(0, max).map(label).join(', ');
  return jobs.length > max ? `${shown}, … and ${jobs.length - max} more` : shown;
}

function firstError(job: WorkflowJob): string {
  const text = firstJobError(job);
  return text ? `: ${oneLine(text, 200)}` : '';
}
