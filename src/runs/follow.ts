/**
 * Following a workflow run to its end, for run-workflow (the run it dispatched) and wait-for-run
 * (a run by id): the reads, progress lines, outputs and the job summary; the verdict on the run as
 * last read is verdict.ts's. With `jobs`, the step ends as soon as the selected jobs are terminal,
 * even while the run goes on.
 */
import type { ActionIO } from '../github/io.js';
import {
  JOB_STATUSES,
  isJobTerminal,
  RUN_STATUSES,
  isRunTerminal,
  type WorkflowJob,
  type WorkflowRun,
} from '../service/contract.js';
import { ServiceError } from '../service/errors.js';
import { poll } from '../service/poll.js';
import { Progress } from '../github/progress.js';
import { renderRunSummary } from './summary.js';
import { oneLine, withoutFinalDots } from '../text/plain.js';
import { jobLabel } from '../text/job-label.js';
import { ActionFailure } from '../errors.js';
import { selectJobs } from './job-selection.js';
import { judge, ofCommit, unsuccessful } from './verdict.js';
import { RunFailure, type FollowedRun, type Outcome } from './step.js';
import type { ServiceContext } from '../github/context.js';
import { STOP_ON_CANCEL_MS } from '../github/runner-timings.js';
import type { RunStatuses } from './commit-statuses.js';
import { markdownCode } from '../text/markdown.js';

const KNOWN_RUN_STATUSES = new Set<string>(RUN_STATUSES);
const KNOWN_JOB_STATUSES = new Set<string>(JOB_STATUSES);
const HEARTBEAT_MS = 5 * 60_000;

/** Jobs with a progress line of their own; a larger run says once that the rest are in its summary. */
const JOBS_LOGGED = 100;

/** Follows the run to its end; returns the outcome when the step succeeds, throws a RunFailure otherwise. */
export async function followRun(
  followed: FollowedRun,
  /** With `commit-statuses: true`, `statuses`: the statuses the run and its jobs set as they move. */
  context: ServiceContext & { statuses?: RunStatuses },
  timing: { startedAt: number; firstReadAfterInterval: boolean },
): Promise<Outcome> {
  const { io, client, signal, statuses } = context;
  const deadline = timing.startedAt + followed.api.timeoutMs;
  let runUrl = followed.runUrl ?? '';
  const progress = new Progress(io, timing.startedAt, HEARTBEAT_MS);
  let announcedApproval = false;
  let manyJobsSaid = false;
  let read = false;
  // The dispatch was just logged: say when the first read comes rather than an interval of silence.
  if (timing.firstReadAfterInterval)
    progress.line(
      `run dispatched; first read in ${Number((followed.api.pollIntervalMs / 1000).toFixed(2))} s`,
    );

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
      statuses?.read(run);
      if (run.url && !runUrl) {
        runUrl = run.url;
        io.setOutput('run-url', runUrl);
      }
      let changed = false;
      for (const job of run.jobs) {
        if (!KNOWN_JOB_STATUSES.has(job.status)) progress.unknownStatus('Job', job.status, 'not finished');
      }
      for (const job of run.jobs.slice(0, JOBS_LOGGED))
        changed = progress.update(`job ${jobLabel(job)}`, job.status) || changed;
      if (run.jobs.length > JOBS_LOGGED && !manyJobsSaid) {
        manyJobsSaid = true;
        progress.line(
          `The run has ${run.jobs.length} jobs: progress lines for the first ${JOBS_LOGGED}; all of them in the \`jobs\` output and the job summary.`,
        );
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
  if (run) setRunOutputs(io, run, followed.jobs);
  if (!runUrl) io.setOutput('run-url', '');
  const link = runUrl ? ` ${runUrl}` : '';
  const verdict = judge(outcome, followed, run, runUrl);
  const statusLines = await settleStatuses(statuses, verdict.outcome, signal, io);
  await io.appendSummary(
    renderRunSummary(
      {
        title: followed.title,
        runId: followed.runId,
        runUrl,
        run,
        outcome: verdict.outcome,
        refusal: verdict.refusal,
        jobs: followed.jobs,
        waitedMs: Date.now() - timing.startedAt,
        reason: verdict.failure,
      },
      io.redact,
    ) + statusLines,
  );
  if (verdict.failure) throw new RunFailure(verdict.failure, verdict.outcome);
  io.info(
    `${followed.jobs ? 'Listed jobs' : 'Workflow run'} succeeded in ${progress.elapsed()}${verdict.note}.${link}`,
  );
  return verdict.outcome;
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

function setRunOutputs(io: ActionIO, run: WorkflowRun, selectors: string[] | undefined): void {
  io.setOutput('status', run.status);
  io.setOutput('git-commit-hash', run.gitCommitHash ?? '');
  io.setOutput('jobs', JSON.stringify(run.jobs));
  const followed = selectors ? selectJobs(run.jobs, selectors).selected : run.jobs;
  io.setOutput(
    'failed-jobs',
    unsuccessful(followed)
      .map((job) => job.key)
      .join(','),
  );
  const ids = (pick: (job: WorkflowJob) => string | null | undefined) =>
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

/**
 * The commit statuses' last word: what the gate leaves pending becomes `error`, and the step waits
 * for the posts (a cancelled step only within the runner's SIGINT-to-SIGTERM window, saying what it
 * could not set); returns the job summary's list of the contexts posted.
 */
async function settleStatuses(
  statuses: RunStatuses | undefined,
  outcome: Outcome,
  signal: AbortSignal | undefined,
  io: ActionIO,
): Promise<string> {
  if (!statuses) return '';
  statuses.ended(outcome);
  const unset = await statuses.settle(signal?.aborted ? STOP_ON_CANCEL_MS : undefined);
  if (unset.length > 0)
    io.warning(`Commit statuses not set before the step ended, left as they were: ${unset.join(', ')}.`);
  const posted = statuses.posted();
  if (posted.length === 0) return '';
  const rows = posted.map(({ context, state }) => `- ${markdownCode(context, 120)}: ${state}`);
  return `\n**Commit statuses** on ${markdownCode(statuses.commit ?? '', 12)}\n\n${rows.join('\n')}\n`;
}
