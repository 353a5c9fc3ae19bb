/**
 * The step's verdict on a followed run as last read: its `outcome`, why it fails (the error message,
 * in plain text) and what kind of refusal the summary heads it with. Each ending in its own words:
 * a canceled run is canceled, not failed; a skipped job names the job it needed that did not
 * succeed; a run that waits for approval names the jobs that wait.
 */
import {
  isJobTerminal,
  isRunTerminal,
  firstJobError,
  type WorkflowJob,
  type WorkflowRun,
} from '../service/contract.js';
import type { PollOutcome } from '../service/poll.js';
import type { Reading } from './reading.js';
import { oneLine } from '../text/plain.js';
import { jobLabel } from '../text/job-label.js';
import { selectedType, serviceWordFor } from './job-selection.js';
import type { FollowedRun, Outcome } from './step.js';

/** Jobs named in one message at most: a run of 50,000 jobs does not make a 5 MB error. */
const JOBS_NAMED = 20;

/** Failures the summary heads with words of their own (they are `failure` as outcomes). */
export type Refusal = 'unknown-jobs' | 'wrong-commit';

interface Verdict {
  /** The step's `outcome` output. */
  outcome: Outcome;
  refusal?: Refusal;
  /** Why the step fails; undefined when it succeeds. */
  failure?: string;
  note: string;
}

/** The verdict on the last reading; `outcome.kind` says how following ended. */
export function judge(
  outcome: Pick<PollOutcome<unknown>, 'kind'>,
  followed: FollowedRun,
  reading: Reading | undefined,
  runUrl: string,
): Verdict {
  const run = reading?.run;
  const id = followed.runId;
  const link = runUrl ? ` ${runUrl}` : '';
  const fail = (outcome: Outcome, failure: string, refusal?: Refusal): Verdict => ({
    outcome,
    refusal,
    failure,
    note: '',
  });
  if (outcome.kind === 'aborted')
    return fail(
      'interrupted',
      `Stopped waiting for workflow run ${id}: the step was cancelled. The run goes on.${link}`,
    );
  // Another commit's run is refused on the read that shows it, whatever else it says.
  if (reading?.binding === 'other')
    return fail(
      'failure',
      `Workflow run ${id} is a run of commit ${oneLine(run?.gitCommitHash ?? '', 80)}, not of the expected commit ${followed.expectedCommit} (\`expected-commit\`): ` +
        `a run of another commit cannot gate this one. ` +
        (followed.expectedCommitHint
          ? `${followed.expectedCommitHint} Or set \`expected-commit: ''\` to accept a run of any commit.`
          : `Follow a run of ${followed.expectedCommit}, or set \`expected-commit: ''\` to accept a run of any commit.`) +
        link,
      'wrong-commit',
    );
  if (outcome.kind === 'timeout') {
    const waiting =
      run?.status === 'action-required' ? ' (it waits for a manual action, such as an approval)' : '';
    return fail(
      'timed-out',
      `Workflow run ${id} did not ${followed.jobs ? 'finish the listed jobs' : 'finish'} within timeout-minutes (${followed.api.timeoutMs / 60_000}); ` +
        `last status: ${oneLine(run?.status ?? 'unknown', 40)}${waiting}. ` +
        `The run goes on.${link}`,
    );
  }
  const final = reading!.run;
  if (reading!.binding === 'unknown')
    return fail(
      'failure',
      `Workflow run ${id} does not say which commit it is a run of, so it cannot be checked against the expected commit ${followed.expectedCommit} (\`expected-commit\`). ` +
        `Set \`expected-commit: ''\` to accept a run of any commit.${link}`,
      'wrong-commit',
    );
  if (!followed.jobs) {
    if (final.status === 'success') return { outcome: 'success', note: '' };
    if (final.status === 'action-required') return awaitingApproval(final, link);
    return fail(
      final.status === 'canceled' ? 'canceled' : 'failure',
      // The jobs that ended the run; the jobs skipped after them add nothing here.
      `Workflow run ${final.id} ended with status ${oneLine(final.status, 40)}.${describeJobs(
        final.jobs,
        final.jobs.filter((job) => job.status === 'failure' || job.status === 'canceled'),
      )}${link}`,
    );
  }
  const { followed: selected, unmatched } = reading!;
  if (unmatched.length > 0) return unknownJobs(final, unmatched, followed, runUrl);
  if (!selected.every(isJobTerminal)) {
    if (final.status === 'action-required') return awaitingApproval(final, link);
    // The run ended while a selected job had not (a service that stops a run's jobs late).
    return fail(
      final.status === 'canceled' ? 'canceled' : 'failure',
      `Workflow run ${final.id} ended with status ${oneLine(final.status, 40)} before the listed jobs did.${link}`,
    );
  }
  const notSucceeded = selected.filter((job) => job.status !== 'success');
  if (notSucceeded.length === 0)
    return {
      outcome: 'success',
      note: isRunTerminal(final) ? '' : ` (the run goes on: ${oneLine(final.status, 40)})`,
    };
  return fail(
    // A skipped job did not run because a job it needs did not succeed: that is a failure to gate on.
    notSucceeded.some((job) => job.status !== 'canceled') ? 'failure' : 'canceled',
    `Not every listed job succeeded.${describeJobs(final.jobs, notSucceeded)} Run status: ${oneLine(final.status, 40)}.${link}`,
  );
}

/** The jobs that ended without success, in the service's order (the `failed-jobs` output). */
export function unsuccessful(jobs: readonly WorkflowJob[]): WorkflowJob[] {
  return jobs.filter((job) => ['failure', 'canceled', 'skipped'].includes(job.status));
}

/** `on-action-required: fail` and the run waits for a manual action. */
function awaitingApproval(run: WorkflowRun, link: string): Verdict {
  const waiting = run.jobs.filter((job) => job.status === 'action-required');
  const which = waiting.length > 0 ? ` (job ${named(waiting, jobLabel)})` : '';
  return {
    outcome: 'action-required',
    failure:
      `Workflow run ${run.id} waits for a manual action such as an approval${which}, and on-action-required is fail: ` +
      `the step ends here, the run waits. Someone allowed to approve it does so on its page${link ? `:${link}` : ''}; ` +
      `follow it afterwards with wait-for-run.`,
    note: '',
  };
}

/** Selectors the run has no job for: a typo, or a job of another version of the workflow file. */
function unknownJobs(run: WorkflowRun, unmatched: string[], followed: FollowedRun, runUrl: string): Verdict {
  const byType = unmatched.some((selector) => selectedType(selector) !== undefined);
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
  const started =
    followed.dispatched && !isRunTerminal(run)
      ? ` The run this step dispatched was started and goes on${runUrl ? `: ${runUrl}` : ` (run ${run.id})`}`
      : runUrl
        ? ` ${runUrl}`
        : '';
  return {
    outcome: 'failure',
    refusal: 'unknown-jobs',
    failure: `\`jobs\` lists ${unmatched.map((selector) => `\`${oneLine(selector, 80)}\``).join(', ')}, which the run does not have; its jobs are: ${known || 'none'}.${words}${started}`,
    note: '',
  };
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
