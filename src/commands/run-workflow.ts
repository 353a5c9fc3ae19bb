/**
 * run-workflow: dispatch a workflow on a git ref, follow the run to a terminal status, expose it as
 * outputs and in the job summary, and fail unless the run succeeded (action-interface.md).
 */
import type { ActionIO } from '../io.js';
import type { RunWorkflowSettings } from '../inputs.js';
import type { ServiceClient } from '../service/client.js';
import { WORKFLOW_RUN_TERMINAL, type WorkflowRun } from '../service/schemas.js';
import { poll } from '../poll.js';
import { Progress } from '../progress.js';
import { renderRunSummary } from '../summary.js';
import { oneLine } from '../text.js';
import { ActionFailure } from '../failure.js';

const KNOWN_RUN_STATUSES = new Set(['new', 'in-progress', 'action-required', ...WORKFLOW_RUN_TERMINAL]);
const KNOWN_JOB_STATUSES = new Set([
  'new',
  'in-progress',
  'action-required',
  'pending-cancel',
  'success',
  'failure',
  'canceled',
  'skipped',
]);
const HEARTBEAT_MS = 5 * 60_000;

export interface CommandContext {
  io: ActionIO;
  client: ServiceClient;
  /** Aborted when the runner cancels the step. */
  signal?: AbortSignal;
  now?: () => number;
}

export async function runWorkflow(settings: RunWorkflowSettings, context: CommandContext): Promise<void> {
  const { io, client, signal } = context;
  const now = context.now ?? Date.now;
  const startedAt = now();
  const deadline = startedAt + settings.api.timeoutMs;

  const dispatched = await client.dispatchWorkflow(
    { appId: settings.appId, gitRef: settings.gitRef, fileName: settings.fileName, inputs: settings.inputs },
    { deadline, signal },
  );
  const runUrl = dispatched.url ?? '';
  // Outputs the user can act on (link, cancel) before any waiting.
  io.setOutput('run-id', dispatched.id);
  io.setOutput('run-url', runUrl);
  io.info(`Dispatched ${settings.fileName} on ${settings.gitRef}: run ${dispatched.id} ${runUrl}`);

  if (!settings.wait) {
    io.info('Not waiting for the run to finish (wait: false).');
    await io.appendSummary(
      renderRunSummary({ id: dispatched.id, url: runUrl, fileName: settings.fileName }, undefined),
    );
    return;
  }

  const progress = new Progress(io, startedAt, HEARTBEAT_MS, now);
  let announcedApproval = false;
  const outcome = await poll<WorkflowRun>({
    read: (limits) =>
      client.getWorkflowRun(dispatched.id, limits).catch((error: unknown) => {
        // Reads gave up: the run itself goes on, so say where to follow it.
        throw new ActionFailure(`${(error as Error).message.replace(/\.$/, '')}. The run goes on: ${runUrl}`);
      }),
    isDone: (run) => (WORKFLOW_RUN_TERMINAL as readonly string[]).includes(run.status),
    intervalMs: settings.api.pollIntervalMs,
    deadline,
    signal,
    now,
    onRead: (run) => {
      let changed = false;
      for (const job of run.jobs) {
        if (!KNOWN_JOB_STATUSES.has(job.status)) progress.unknownStatus('Job', job.status, 'not finished');
        changed = progress.update(`job ${jobLabel(job)}`, job.status) || changed;
      }
      if (!KNOWN_RUN_STATUSES.has(run.status)) progress.unknownStatus('Run', run.status, 'not finished');
      changed = progress.update('run', run.status) || changed;
      if (run.status === 'action-required' && !announcedApproval) {
        announcedApproval = true;
        io.notice(`The workflow run is waiting for a manual action (approval); still waiting. ${runUrl}`);
      }
      if (!changed) progress.heartbeat(() => `run still ${oneLine(run.status, 40)}`);
    },
  });

  const run = outcome.kind === 'done' ? outcome.value : outcome.last;
  if (run) setRunOutputs(io, run);
  await io.appendSummary(
    renderRunSummary({ id: dispatched.id, url: runUrl, fileName: settings.fileName }, run),
  );

  if (outcome.kind === 'aborted') {
    throw new ActionFailure(
      `Stopped waiting for workflow run ${dispatched.id}: the step was cancelled. The run goes on: ${runUrl}`,
    );
  }
  if (outcome.kind === 'timeout') {
    throw new ActionFailure(
      `Workflow run ${dispatched.id} did not finish within timeout-minutes (${settings.api.timeoutMs / 60_000}); last status: ${run?.status ?? 'unknown'}. ${runUrl}`,
    );
  }
  const final = outcome.value;
  if (final.status === 'success') {
    io.info(`Workflow run succeeded in ${progress.elapsed()}: ${runUrl}`);
    return;
  }
  const failed = final.jobs.filter((job) => job.status === 'failure' || job.status === 'canceled');
  const which =
    failed.length > 0
      ? ` Failed jobs: ${failed.map((job) => `${jobLabel(job)} (${job.status}${firstError(job)})`).join(', ')}.`
      : '';
  throw new ActionFailure(
    `Workflow run ${final.id} ended with status ${oneLine(final.status, 40)}.${which} ${runUrl}`,
  );
}

function jobLabel(job: WorkflowRun['jobs'][number]): string {
  const name = job.name && job.name !== job.key ? ` (${oneLine(job.name, 80)})` : '';
  return `${oneLine(job.key, 80)}${name}`;
}

/** The first message in a job's `errors`, whose element shape the spec does not show: read defensively. */
function firstError(job: WorkflowRun['jobs'][number]): string {
  for (const error of job.errors ?? []) {
    const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
    const text = [error, record.message, record.title].find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    );
    if (text) return `: ${oneLine(text, 200)}`;
  }
  return '';
}

function setRunOutputs(io: ActionIO, run: WorkflowRun): void {
  io.setOutput('status', run.status);
  io.setOutput('git-commit-hash', run.gitCommitHash ?? '');
  io.setOutput('jobs', JSON.stringify(run.jobs));
  io.setOutput(
    'build-ids',
    JSON.stringify(run.jobs.map((job) => job.buildId).filter((id): id is string => !!id)),
  );
  io.setOutput(
    'submission-ids',
    JSON.stringify(run.jobs.map((job) => job.submissionId).filter((id): id is string => !!id)),
  );
  io.setOutput(
    'job-outputs',
    JSON.stringify(Object.fromEntries(run.jobs.map((job) => [job.key, job.outputs ?? {}]))),
  );
}
