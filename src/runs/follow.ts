/** How a run-workflow or wait-for-run step ended: its `outcome` output, set on every path. */
export const OUTCOMES = [
  'success',
  'failure',
  'canceled',
  'timed-out',
  'interrupted',
  'action-required',
  'dispatched',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outputs of a followed run, shared by run-workflow and wait-for-run. */
export const RUN_OUTPUTS = {
  'run-id': 'The id of the run followed.',
  'run-url': "The run's page on the service.",
  status: 'The last status seen.',
  'git-commit-hash': 'The commit the run ran on, once read.',
  jobs: "JSON array of the run's jobs as the service returned them.",
  'build-ids': 'JSON array of the non-null build ids across jobs.',
  'submission-ids': 'JSON array of the non-null submission ids across jobs.',
  'job-outputs': "JSON object: job key → that job's `outputs`.",
  outcome:
    'How the step ended, set on every path: `success` (the run succeeded; with `jobs`, every selected job did); `failure` (the run failed; with `jobs`, a selected job failed or was skipped, or a key or type is not in the run; or the step failed for any other reason: invalid inputs, a refused request, a run that cannot be read, a run of another commit); `canceled` (the run was canceled; with `jobs`, a selected job was canceled and none failed); `timed-out` (`timeout-minutes` reached, the run goes on); `interrupted` (the step itself was cancelled, the run goes on); `action-required` (the run waits for an approval and `on-action-required` is `fail`); `dispatched` (`wait: false`).',
};

/**
 * Following a workflow run to its end, for run-workflow (the run it dispatched) and wait-for-run
 * (a run by id): progress lines, outputs, the job summary and the exit rules, in one place.
 * With `jobs`, the step ends as soon as the selected jobs are terminal, even while the run goes on.
 */
import type { ActionIO } from '../github/io.js';
import type { ApiSettings } from '../inputs/table.js';
import {
  JOB_STATUSES,
  isJobTerminal,
  RUN_STATUSES,
  isRunTerminal,
  firstJobError,
  type WorkflowRun,
} from '../service/contract.js';
import { ServiceError } from '../service/errors.js';
import { poll, type PollOutcome } from '../service/poll.js';
import { Progress } from '../github/progress.js';
import { renderRunSummary, type RunOutcome } from './summary.js';
import { oneLine, withoutFinalDots } from '../text/plain.js';
import { ActionFailure } from '../errors.js';
import { selectedType, selectJobs } from './job-selection.js';
import type { ServiceContext } from '../github/context.js';

const KNOWN_RUN_STATUSES = new Set<string>(RUN_STATUSES);
const KNOWN_JOB_STATUSES = new Set<string>(JOB_STATUSES);
const HEARTBEAT_MS = 5 * 60_000;

type Job = WorkflowRun['jobs'][number];

/** A failure of the step with an outcome of its own; any other failure is `failure`. */
export class RunFailure extends ActionFailure {
  constructor(
    message: string,
    readonly outcome: Outcome,
  ) {
    super(message);
  }
}

/**
 * Runs a command's body and sets `outcome` once, whatever happens: what the body returns, a
 * RunFailure's own outcome, `interrupted` once the step was cancelled, otherwise `failure`.
 */
export async function withOutcome(
  io: Pick<ActionIO, 'setOutput'>,
  signal: AbortSignal,
  body: () => Promise<Outcome>,
): Promise<void> {
  let outcome: Outcome = 'failure';
  try {
    outcome = await body();
  } catch (error) {
    outcome = error instanceof RunFailure ? error.outcome : 'failure';
    throw error;
  } finally {
    // A cancellation that cut a request short, or came just as the body ended, is what happened.
    io.setOutput('outcome', signal.aborted ? 'interrupted' : outcome);
  }
}

export interface FollowedRun {
  runId: string;
  /** The run's page, when known before the first read (from the dispatch). */
  runUrl?: string;
  /** What the summary calls the run: the workflow file name, or the run id. */
  title: string;
  /** The `jobs` selectors: job keys and `type:<job type>`. */
  jobs?: string[];
  /** `fail`: end at once when the run waits for a manual action (`action-required`). */
  onActionRequired: 'wait' | 'fail';
  /** The commit the run must be of (wait-for-run's `expected-commit`): lower case, whole or a prefix. */
  expectedCommit?: string;
  /** Whether this step dispatched the run: then it exists, and this step started it. */
  dispatched: boolean;
  api: ApiSettings;
}

/** Follows the run to its end; returns the outcome when the step succeeds, throws a RunFailure otherwise. */
export async function followRun(
  followed: FollowedRun,
  context: ServiceContext,
  timing: { startedAt: number; firstReadAfterInterval: boolean },
): Promise<Outcome> {
  const { io, client, signal } = context;
  const deadline = timing.startedAt + followed.api.timeoutMs;
  let runUrl = followed.runUrl ?? '';
  const progress = new Progress(io, timing.startedAt, HEARTBEAT_MS);
  let announcedApproval = false;
  let read = false;

  const outcome = await poll<WorkflowRun>({
    read: (limits) =>
      client.getWorkflowRun(followed.runId, limits).catch((error: unknown) => {
        throw readFailure(error, followed, read || followed.dispatched, runUrl);
      }),
    isDone: (run) =>
      isRunTerminal(run) ||
      ofCommit(run, followed.expectedCommit) === 'other' ||
      (followed.jobs !== undefined && selectedJobsDone(run, followed.jobs)) ||
      (followed.onActionRequired === 'fail' && run.status === 'action-required'),
    intervalMs: followed.api.pollIntervalMs,
    firstReadAfterInterval: timing.firstReadAfterInterval,
    deadline,
    signal,
    onRead: (run) => {
      read = true;
      if (run.url && !runUrl) {
        runUrl = run.url;
        io.setOutput('run-url', runUrl);
      }
      let changed = false;
      for (const job of run.jobs) {
        if (!KNOWN_JOB_STATUSES.has(job.status)) progress.unknownStatus('Job', job.status, 'not finished');
        changed = progress.update(`job ${jobLabel(job)}`, job.status) || changed;
      }
      if (!KNOWN_RUN_STATUSES.has(run.status)) progress.unknownStatus('Run', run.status, 'not finished');
      changed = progress.update('run', run.status) || changed;
      if (run.status === 'action-required' && followed.onActionRequired === 'wait' && !announcedApproval) {
        announcedApproval = true;
        io.notice(
          `The workflow run is waiting for a manual action (approval); still waiting. ${runUrl}`.trimEnd(),
        );
      }
      if (!changed) progress.heartbeat(() => `run still ${oneLine(run.status, 40)}`);
    },
  });

  const run = outcome.kind === 'done' ? outcome.value : outcome.last;
  if (run) setRunOutputs(io, run);
  if (!runUrl) io.setOutput('run-url', '');
  const link = runUrl ? ` ${runUrl}` : '';
  const verdict = judge(outcome, followed, run, runUrl);
  await io.appendSummary(
    renderRunSummary(
      {
        title: followed.title,
        runId: followed.runId,
        runUrl,
        run,
        outcome: verdict.shown,
        jobs: followed.jobs,
        waitedMs: Date.now() - timing.startedAt,
        reason: verdict.failure,
      },
      io.redact,
    ),
  );
  if (verdict.failure) throw new RunFailure(verdict.failure, verdict.outcome);
  io.info(
    `${followed.jobs ? 'Listed jobs' : 'Workflow run'} succeeded in ${progress.elapsed()}${verdict.note}.${link}`,
  );
  return verdict.outcome;
}

interface Verdict {
  /** The step's `outcome` output. */
  outcome: Outcome;
  /** How the summary tells it. */
  shown: RunOutcome;
  /** Why the step fails; undefined when it succeeds. */
  failure?: string;
  note: string;
}

/** The step's verdict on the run as last read. */
export function judge(
  outcome: PollOutcome<WorkflowRun>,
  followed: FollowedRun,
  run: WorkflowRun | undefined,
  runUrl: string,
): Verdict {
  const id = followed.runId;
  const link = runUrl ? ` ${runUrl}` : '';
  const fail = (outcome: Outcome, shown: RunOutcome, failure: string): Verdict => ({
    outcome,
    shown,
    failure,
    note: '',
  });
  if (outcome.kind === 'aborted')
    return fail(
      'interrupted',
      'cancelled',
      `Stopped waiting for workflow run ${id}: the step was cancelled. The run goes on.${link}`,
    );
  // Another commit's run is refused on the read that shows it, whatever else it says.
  if (run && ofCommit(run, followed.expectedCommit) === 'other')
    return fail(
      'failure',
      'wrong-commit',
      `Workflow run ${id} is a run of commit ${oneLine(run.gitCommitHash ?? '', 80)}, not of the expected commit ${followed.expectedCommit} (\`expected-commit\`): a run of another commit cannot gate this one. Follow a run of ${followed.expectedCommit}, or set \`expected-commit: ''\` to accept a run of any commit.${link}`,
    );
  if (outcome.kind === 'timeout') {
    const waiting =
      run?.status === 'action-required' ? ' (it waits for a manual action, such as an approval)' : '';
    return fail(
      'timed-out',
      'timed-out',
      `Workflow run ${id} did not ${followed.jobs ? 'finish the listed jobs' : 'finish'} within timeout-minutes (${followed.api.timeoutMs / 60_000}); last status: ${oneLine(run?.status ?? 'unknown', 40)}${waiting}. The run goes on.${link}`,
    );
  }
  const final = outcome.value;
  if (ofCommit(final, followed.expectedCommit) === 'unknown')
    return fail(
      'failure',
      'wrong-commit',
      `Workflow run ${id} does not say which commit it is a run of, so it cannot be checked against the expected commit ${followed.expectedCommit} (\`expected-commit\`). Set \`expected-commit: ''\` to accept a run of any commit.${link}`,
    );
  if (!followed.jobs) {
    if (final.status === 'success') return { outcome: 'success', shown: 'succeeded', note: '' };
    if (final.status === 'action-required') return awaitingApproval(final, link);
    const failed = final.jobs.filter((job) => job.status === 'failure' || job.status === 'canceled');
    return fail(
      final.status === 'canceled' ? 'canceled' : 'failure',
      'failed',
      `Workflow run ${final.id} ended with status ${oneLine(final.status, 40)}.${describeJobs(failed)}${link}`,
    );
  }
  const { selected, unmatched } = selectJobs(final.jobs, followed.jobs);
  if (unmatched.length > 0) return unknownJobs(final, unmatched, followed, runUrl);
  if (!selected.every(isJobTerminal)) {
    if (final.status === 'action-required') return awaitingApproval(final, link);
    // The run ended while a selected job had not (a service that stops a run's jobs late).
    return fail(
      final.status === 'canceled' ? 'canceled' : 'failure',
      'failed',
      `Workflow run ${final.id} ended with status ${oneLine(final.status, 40)} before the listed jobs did.${link}`,
    );
  }
  const unsuccessful = selected.filter((job) => job.status !== 'success');
  if (unsuccessful.length === 0)
    return {
      outcome: 'success',
      shown: 'succeeded',
      note: isRunTerminal(final) ? '' : ` (the run goes on: ${oneLine(final.status, 40)})`,
    };
  return fail(
    // A skipped job did not run because a job it needs did not succeed: that is a failure to gate on.
    unsuccessful.some((job) => job.status !== 'canceled') ? 'failure' : 'canceled',
    'failed',
    `Not every listed job succeeded.${describeJobs(unsuccessful)} Run status: ${oneLine(final.status, 40)}.${link}`,
  );
}

/** `on-action-required: fail` and the run waits for a manual action. */
function awaitingApproval(run: WorkflowRun, link: string): Verdict {
  const waiting = run.jobs.filter((job) => job.status === 'action-required').map(jobLabel);
  const which = waiting.length > 0 ? ` (job ${waiting.join(', ')})` : '';
  return {
    outcome: 'action-required',
    shown: 'action-required',
    failure: `Workflow run ${run.id} waits for a manual action such as an approval${which}, and on-action-required is fail: the step ends here, the run waits. Someone allowed to approve it does so on its page${link ? `:${link}` : ''}; follow it afterwards with wait-for-run.`,
    note: '',
  };
}

/** Selectors the run has no job for: a typo, or a job of another version of the workflow file. */
function unknownJobs(run: WorkflowRun, unmatched: string[], followed: FollowedRun, runUrl: string): Verdict {
  const byType = unmatched.some((selector) => selectedType(selector) !== undefined);
  const known = run.jobs.map(
    (job) => `${oneLine(job.key, 80)}${byType && job.type ? ` (type ${oneLine(job.type, 40)})` : ''}`,
  );
  // The step started this run: say so, and where it is, since nobody else may know of it.
  const started =
    followed.dispatched && !isRunTerminal(run)
      ? ` The run this step dispatched was started and goes on${runUrl ? `: ${runUrl}` : ` (run ${run.id})`}`
      : runUrl
        ? ` ${runUrl}`
        : '';
  return {
    outcome: 'failure',
    shown: 'unknown-jobs',
    failure: `\`jobs\` lists ${unmatched.map((selector) => `\`${oneLine(selector, 80)}\``).join(', ')}, which the run does not have; its jobs are: ${known.length > 0 ? known.join(', ') : 'none'}.${started}`,
    note: '',
  };
}

/** Whether the run is of the expected commit (case-insensitive; a given prefix matches); `unknown` when it does not say. */
function ofCommit(run: WorkflowRun, expected: string | undefined): 'yes' | 'other' | 'unknown' {
  if (!expected) return 'yes';
  const actual = (run.gitCommitHash ?? '').trim().toLowerCase();
  if (!actual) return 'unknown';
  return actual.startsWith(expected) ? 'yes' : 'other';
}

/**
 * A read that failed for good. Only a run known to exist (dispatched by this step, or read before)
 * "goes on"; a run never seen may not exist at all.
 */
function readFailure(error: unknown, followed: FollowedRun, exists: boolean, runUrl: string): unknown {
  if (!(error instanceof Error)) return error;
  if (!exists && error instanceof ServiceError && error.status === 404)
    return new ActionFailure(
      `Workflow run ${followed.runId} was not found (404): it does not exist, or this token cannot see it (a run of another project or account). Check \`run-id\` and the token.${error.serviceMessage ? ` The service said: ${error.serviceMessage}` : ''}${error.baseUrlAdvice ? ` ${error.baseUrlAdvice}` : ''}`,
    );
  if (!exists) return error;
  const where = runUrl ? `: ${runUrl}` : ` (run ${followed.runId})`;
  return new ActionFailure(`${withoutFinalDots(error.message)}. The run goes on${where}`);
}

/**
 * Selected jobs are done when each is terminal, or when a selector picks no job of the run at all
 * (then waiting longer cannot help). A run lists its jobs from its workflow file, so once it lists
 * any, a key or type it does not list is unknown.
 */
function selectedJobsDone(run: WorkflowRun, selectors: string[]): boolean {
  if (run.jobs.length === 0) return false;
  const { selected, unmatched } = selectJobs(run.jobs, selectors);
  return unmatched.length > 0 || selected.every(isJobTerminal);
}

function describeJobs(jobs: Job[]): string {
  if (jobs.length === 0) return '';
  return ` Failed jobs: ${jobs.map((job) => `${jobLabel(job)} (${oneLine(job.status, 40)}${firstError(job)})`).join(', ')}.`;
}

function jobLabel(job: Job): string {
  const name = job.name && job.name !== job.key ? ` (${oneLine(job.name, 80)})` : '';
  return `${oneLine(job.key, 80)}${name}`;
}

function firstError(job: Job): string {
  const text = firstJobError(job);
  return text ? `: ${oneLine(text, 200)}` : '';
}

function setRunOutputs(io: ServiceContext['io'], run: WorkflowRun): void {
  io.setOutput('status', run.status);
  io.setOutput('git-commit-hash', run.gitCommitHash ?? '');
  io.setOutput('jobs', JSON.stringify(run.jobs));
  const ids = (pick: (job: Job) => string | null | undefined) =>
    JSON.stringify(run.jobs.map(pick).filter((id): id is string => !!id));
  io.setOutput(
    'build-ids',
    ids((job) => job.buildId),
  );
  io.setOutput(
    'submission-ids',
    ids((job) => job.submissionId),
  );
  io.setOutput(
    'job-outputs',
    JSON.stringify(Object.fromEntries(run.jobs.map((job) => [job.key, job.outputs ?? {}]))),
  );
}
