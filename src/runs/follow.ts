/**
 * Following a workflow run to its end, for run-workflow (the run it dispatched) and wait-for-run
 * (a run by id): the reads, progress lines, outputs and the job summary; the verdict on the run as
 * last read is verdict.ts's. With `jobs`, the step ends as soon as the selected jobs are terminal,
 * even while the run goes on.
 */
import type { ActionIO } from '../runner/io.js';
import { JOB_STATUSES, RUN_STATUSES, type WorkflowJob } from '../service/contract.js';
import { ServiceError } from '../service/errors.js';
import { poll, type PollOutcome } from '../service/poll.js';
import { Progress } from '../runner/progress.js';
import { renderRunSummary } from './report/run-summary.js';
import { readFailedMessage, runNotFoundMessage } from './report/failures.js';
import { oneLine } from '../text/one-line.js';
import { jobLabel } from '../text/job-label.js';
import { ActionFailure } from '../errors.js';
import { judge, unsuccessful } from './verdict.js';
import { orderByNeeds } from './job-graph.js';
import { readRun, type Reading } from './reading.js';
import { type FollowedRun } from './follow-inputs.js';
import { RunFailure, type Outcome } from './outcome.js';
import { JOB_OUTPUTS_BOUND, type FollowOutput } from './run-outputs.js';
import type { OutputWriter } from '../runner/outputs.js';
import type { ServiceContext } from '../runner/service-context.js';
import type { RunStatuses } from './commit-statuses.js';
import { stepClock } from '../text/clock.js';
import { runnerMergeGroup, type MergeGroup } from '../github/event.js';
import { queueLogLine } from './report/queue-words.js';
import { jobOutputsBoundedWarning, waitingForApprovalNotice } from './report/run-warnings.js';

/**
 * What run-workflow and wait-for-run both say of the merge queue on `merge_group`, before anything
 * can fail, so a failed queue check's log names the commit it tested (`commit`: the commit under
 * review when the payload names none). The merge group, for the summary; on other events, nothing.
 */
export function sayMergeQueue(
  io: Pick<ActionIO, 'info'>,
  commit: string | undefined,
  env: Record<string, string | undefined> = process.env,
): MergeGroup | undefined {
  const queue = runnerMergeGroup(env);
  if (queue) io.info(queueLogLine(queue, commit));
  return queue;
}

const KNOWN_RUN_STATUSES = new Set<string>(RUN_STATUSES);
const KNOWN_JOB_STATUSES = new Set<string>(JOB_STATUSES);
const HEARTBEAT_MS = 5 * 60_000;

/** Jobs with a progress line of their own; a larger run says once that the rest are in its summary. */
const JOBS_LOGGED = 100;

/**
 * The jobs with a progress line, in the run's order: every job `jobs` selects, wherever it is in the
 * run (they are what the step waits for), then the first others up to JOBS_LOGGED.
 */
function loggedJobs(reading: Reading, listedJobsOnly: boolean): WorkflowJob[] {
  const { run, followed } = reading;
  if (!listedJobsOnly) return run.jobs.slice(0, JOBS_LOGGED);
  const gated = new Set(followed);
  let others = Math.max(0, JOBS_LOGGED - gated.size);
  return run.jobs.filter((job) => gated.has(job) || (others > 0 && others-- > 0));
}

/** Follows the run to its end; returns the outcome when the step succeeds, throws a RunFailure otherwise. */
export async function followRun(
  followed: FollowedRun,
  /** With `commit-statuses: true`, `statuses`: the statuses the run and its jobs set as they move. */
  context: ServiceContext & { outputs: OutputWriter<FollowOutput>; statuses?: RunStatuses },
  timing: { startedAt: number; firstReadAfterInterval: boolean },
): Promise<Outcome> {
  const { io, outputs, client, signal, statuses } = context;
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

  // The one judgement of each read (reading.ts): the poll, the statuses, the outputs and the
  // verdict all take it, none judges the run again.
  let last: Reading | undefined;
  const listedJobsOnly = followed.jobs !== undefined;
  let outcome: PollOutcome<Reading>;
  try {
    outcome = await poll<Reading>({
      read: (limits) =>
        client.getWorkflowRun(followed.runId, limits).then(
          (run) => readRun(run, followed),
          (error: unknown) => {
            throw readFailure(error, followed, read || followed.dispatched, runUrl);
          },
        ),
      isDone: (reading) => reading.done,
      intervalMs: followed.api.pollIntervalMs,
      firstReadAfterInterval: timing.firstReadAfterInterval,
      deadline,
      signal,
      onRead: (reading) => {
        read = true;
        last = reading;
        statuses?.read(reading);
        const { run } = reading;
        if (run.url && !runUrl) {
          runUrl = run.url;
          outputs.set('run-url', runUrl);
        }
        let changed = false;
        for (const job of run.jobs) {
          if (!KNOWN_JOB_STATUSES.has(job.status)) progress.unknownStatus('Job', job.status, 'not finished');
        }
        for (const job of loggedJobs(reading, listedJobsOnly))
          changed = progress.update(`job ${jobLabel(job)}`, job.status) || changed;
        if (run.jobs.length > JOBS_LOGGED && !manyJobsSaid) {
          manyJobsSaid = true;
          const which = listedJobsOnly
            ? `the ${reading.followed.length} \`jobs\` selects and the first others, up to ${JOBS_LOGGED}`
            : `the first ${JOBS_LOGGED}`;
          progress.line(
            `The run has ${run.jobs.length} jobs: progress lines for ${which}; more in the job summary and the outputs, every job on the run's page.`,
          );
        }
        if (!KNOWN_RUN_STATUSES.has(run.status)) progress.unknownStatus('Run', run.status, 'not finished');
        changed = progress.update('run', run.status) || changed;
        if (run.status === 'action-required' && followed.onActionRequired === 'wait' && !announcedApproval) {
          announcedApproval = true;
          io.notice(waitingForApprovalNotice(runUrl));
        }
        if (!changed) progress.heartbeat(() => `run still ${oneLine(run.status, 40)}`);
      },
    });
  } catch (error) {
    // The run could not be read to its end: what this step posted is not left pending.
    await statuses?.end('failure', last, {
      cancelled: signal?.aborted === true,
      listedJobsOnly,
      why: 'the run could not be read',
    });
    throw error;
  }

  if (last) setRunOutputs(outputs, io, last);
  if (!runUrl) outputs.set('run-url', '');
  const link = runUrl ? ` ${runUrl}` : '';
  const verdict = judge(outcome, followed, last, runUrl);
  await statuses?.end(verdict.outcome, last, { cancelled: signal?.aborted === true, listedJobsOnly });
  await io.appendSummary(
    renderRunSummary(
      {
        title: followed.title,
        runId: followed.runId,
        runUrl,
        run: last?.run,
        outcome: verdict.outcome,
        refusal: verdict.refusal,
        jobs: followed.jobs,
        waitedMs: stepClock().now() - timing.startedAt,
        reason: verdict.failure,
        queue: followed.queue,
      },
      io.redact,
    ) + (statuses?.summary() ?? ''),
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
    return new ActionFailure(runNotFoundMessage(followed.runId, error.serviceMessage, error.baseUrlAdvice));
  if (!exists) return error;
  return new ActionFailure(readFailedMessage(error.message, followed.runId, runUrl));
}

/** The outputs of a run as `reading` shows it, its jobs bounded by JOB_OUTPUTS_BOUND. */
export function setRunOutputs(
  outputs: OutputWriter<Exclude<FollowOutput, 'run-url'>>,
  io: Pick<ActionIO, 'warning'>,
  reading: Reading,
): void {
  const { run } = reading;
  outputs.set('status', run.status);
  outputs.set('git-commit-hash', run.gitCommitHash ?? '');
  const failed = new Set(unsuccessful(reading.followed));
  const kept = jobsWithinBound(reading, failed);
  const jobs = run.jobs.filter((job) => kept.has(job));
  outputs.set('jobs', JSON.stringify(jobs));
  outputs.set(
    'failed-jobs',
    reading.followed
      .filter((job) => failed.has(job) && kept.has(job))
      .map((job) => job.key)
      .join(','),
  );
  const ids = (pick: (job: WorkflowJob) => string | null | undefined) =>
    JSON.stringify(jobs.map(pick).filter((id): id is string => !!id));
  outputs.set(
    'build-ids',
    ids((job) => job.buildId),
  );
  outputs.set(
    'submission-ids',
    ids((job) => job.submissionId),
  );
  outputs.set(
    'job-outputs',
    JSON.stringify(Object.fromEntries(jobs.map((job) => [job.key, job.outputs ?? {}]))),
  );
  if (run.jobs.length > jobs.length) {
    const failedLeftOut = [...failed].filter((job) => !kept.has(job)).length;
    io.warning(
      jobOutputsBoundedWarning(
        run.jobs.length,
        jobs.length,
        failedLeftOut,
        JOB_OUTPUTS_BOUND / 1024,
        run.url,
      ),
    );
  }
}

/**
 * The jobs the outputs hold: the followed jobs, then the others, each in pipeline order, as many
 * as fit in JOB_OUTPUTS_BOUND (the first that does not fit ends the list, so it is a prefix).
 */
function jobsWithinBound(reading: Reading, failed: ReadonlySet<WorkflowJob>): Set<WorkflowJob> {
  const followed = new Set(reading.followed);
  const order = orderByNeeds(reading.run.jobs);
  const candidates = [
    ...order.filter((job) => followed.has(job)),
    ...order.filter((job) => !followed.has(job)),
  ];
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const kept = new Set<WorkflowJob>();
  // Each output's brackets and braces.
  let total = 8;
  for (const job of candidates) {
    // The job in `jobs`, its entry of `job-outputs`, its ids and its key in `failed-jobs`, each with a separator.
    const cost =
      bytes(job) +
      1 +
      bytes(job.key) +
      bytes(job.outputs ?? {}) +
      2 +
      (job.buildId ? bytes(job.buildId) + 1 : 0) +
      (job.submissionId ? bytes(job.submissionId) + 1 : 0) +
      (failed.has(job) ? Buffer.byteLength(job.key) + 1 : 0);
    if (total + cost > JOB_OUTPUTS_BOUND) break;
    total += cost;
    kept.add(job);
  }
  return kept;
}
