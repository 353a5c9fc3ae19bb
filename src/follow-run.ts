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
};

/**
 * Following a workflow run to its end, for run-workflow (the run it dispatched) and wait-for-run
 * (a run by id): progress lines, outputs, the job summary and the exit rules, in one place.
 * With `jobs`, the step ends as soon as the listed jobs are terminal, even while the run goes on.
 */
import type { ApiSettings } from './inputs/table.js';
import {
  JOB_STATUSES,
  isJobTerminal,
  RUN_STATUSES,
  isRunTerminal,
  firstJobError,
  type WorkflowRun,
} from './service/contract.js';
import { poll, type PollOutcome } from './poll.js';
import { Progress } from './progress.js';
import { renderRunSummary, type RunOutcome } from './summary.js';
import { oneLine } from './text.js';
import { ActionFailure } from './errors.js';
import type { ServiceContext } from './commands/command.js';

const KNOWN_RUN_STATUSES = new Set<string>(RUN_STATUSES);
const KNOWN_JOB_STATUSES = new Set<string>(JOB_STATUSES);
const HEARTBEAT_MS = 5 * 60_000;

type Job = WorkflowRun['jobs'][number];

export interface FollowedRun {
  runId: string;
  /** The run's page, when known before the first read (from the dispatch). */
  runUrl?: string;
  /** What the summary calls the run: the workflow file name, or the run id. */
  title: string;
  jobs?: string[];
  api: ApiSettings;
}

export async function followRun(
  followed: FollowedRun,
  context: ServiceContext,
  timing: { startedAt: number; firstReadAfterInterval: boolean },
): Promise<void> {
  const { io, client, signal } = context;
  const deadline = timing.startedAt + followed.api.timeoutMs;
  let runUrl = followed.runUrl ?? '';
  const progress = new Progress(io, timing.startedAt, HEARTBEAT_MS);
  let announcedApproval = false;

  const outcome = await poll<WorkflowRun>({
    read: (limits) =>
      client.getWorkflowRun(followed.runId, limits).catch((error: unknown) => {
        // Reads gave up: the run itself goes on, so say where to follow it.
        const where = runUrl ? `: ${runUrl}` : ` (run ${followed.runId})`;
        throw new ActionFailure(`${(error as Error).message.replace(/\.$/, '')}. The run goes on${where}`);
      }),
    isDone: (run) =>
      isRunTerminal(run) || (followed.jobs !== undefined && listedJobsDone(run, followed.jobs)),
    intervalMs: followed.api.pollIntervalMs,
    firstReadAfterInterval: timing.firstReadAfterInterval,
    deadline,
    signal,
    onRead: (run) => {
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
      if (run.status === 'action-required' && !announcedApproval) {
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
  const verdict = judge(outcome, followed, run, link);
  await io.appendSummary(
    renderRunSummary(
      {
        title: followed.title,
        runId: followed.runId,
        runUrl,
        run,
        outcome: verdict.outcome,
        jobs: followed.jobs,
        waitedMs: Date.now() - timing.startedAt,
        reason: verdict.failure,
      },
      io.redact,
    ),
  );
  if (verdict.failure) throw new ActionFailure(verdict.failure);
  io.info(
    `${followed.jobs ? 'Listed jobs' : 'Workflow run'} succeeded in ${progress.elapsed()}${verdict.note}.${link}`,
  );
}

/** The step's verdict on the run as last read: its outcome for the summary, and the failure message. */
function judge(
  outcome: PollOutcome<WorkflowRun>,
  followed: FollowedRun,
  run: WorkflowRun | undefined,
  link: string,
): { outcome: RunOutcome; failure?: string; note: string } {
  const id = followed.runId;
  if (outcome.kind === 'aborted')
    return {
      outcome: 'cancelled',
      failure: `Stopped waiting for workflow run ${id}: the step was cancelled. The run goes on.${link}`,
      note: '',
    };
  if (outcome.kind === 'timeout')
    return {
      outcome: 'timed-out',
      failure: `Workflow run ${id} did not ${followed.jobs ? 'finish the listed jobs' : 'finish'} within timeout-minutes (${followed.api.timeoutMs / 60_000}); last status: ${oneLine(run?.status ?? 'unknown', 40)}. The run goes on.${link}`,
      note: '',
    };
  const final = outcome.value;
  if (!followed.jobs) {
    if (final.status === 'success') return { outcome: 'succeeded', note: '' };
    const failed = final.jobs.filter((job) => job.status === 'failure' || job.status === 'canceled');
    return {
      outcome: 'failed',
      failure: `Workflow run ${final.id} ended with status ${oneLine(final.status, 40)}.${describeJobs(failed)}${link}`,
      note: '',
    };
  }
  const keys = followed.jobs;
  const unknown = keys.filter((key) => !final.jobs.some((job) => job.key === key));
  if (unknown.length > 0) {
    const known = final.jobs.map((job) => oneLine(job.key, 80));
    return {
      outcome: 'unknown-jobs',
      failure: `\`jobs\` lists ${unknown.map((key) => `\`${oneLine(key, 80)}\``).join(', ')}, which the run does not have; its jobs are: ${known.length > 0 ? known.join(', ') : 'none'}.${link}`,
      note: '',
    };
  }
  const listed = keys.map((key) => final.jobs.find((job) => job.key === key) as Job);
  const unsuccessful = listed.filter((job) => job.status !== 'success');
  if (unsuccessful.length === 0)
    return {
      outcome: 'succeeded',
      note: isRunTerminal(final) ? '' : ` (the run goes on: ${oneLine(final.status, 40)})`,
    };
  return {
    outcome: 'failed',
    failure: `Not every listed job succeeded.${describeJobs(unsuccessful)} Run status: ${oneLine(final.status, 40)}.${link}`,
    note: '',
  };
}

/**
 * Listed jobs are done when each is terminal, or when one of them is not a job of the run at all
 * (then waiting longer cannot help). A run lists its jobs from its workflow file, so once it lists
 * any, a key it does not list is unknown.
 */
function listedJobsDone(run: WorkflowRun, keys: string[]): boolean {
  if (run.jobs.length === 0) return false;
  return keys.every((key) => {
    const job = run.jobs.find((candidate) => candidate.key === key);
    return job === undefined || isJobTerminal(job);
  });
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
