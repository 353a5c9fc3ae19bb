/**
 * Workflow runs and their jobs: creation from a parsed workflow file, progression on timers, approval,
 * rejection and cancellation, and the `job-completed` / `run-completed` events.
 *
 * Progression (transitions are "not shown" by the spec; this is the simulator's model):
 * - A run starts `new`; `runStartDelayMs` after dispatch its jobs begin to be scheduled.
 * - A job stays `new` until every job in `requiredJobKeys` is `success`; then it runs (`in-progress`)
 *   for its duration and ends `success` or `failure` (per `setJobBehaviour`). A job whose upstream job
 *   ended `failure`, `canceled` or `skipped` becomes `skipped` (so skipping is transitive).
 * - A `require-approval` job goes `action-required` when it starts and stays there until approved
 *   (`success`) or rejected (`failure`, with an error).
 * - Cancel: `in-progress` jobs go `pending-cancel`, then `canceled` after `cancelDelayMs`;
 *   `new` and `action-required` jobs go `canceled` at once.
 * - Run status: `in-progress` while any job is in-progress or pending-cancel; else `action-required`
 *   when a job awaits approval; else, once every job is terminal, `canceled` if the run was canceled,
 *   `failure` if any job failed, otherwise `success`; `new` before any job started.
 */
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Project } from './accounts.js';
import { nextTimestamp, type TimerHandle, type Timers } from './clock.js';
import { conflict, notFound } from './errors.js';
import type { InputValue, JobSpec, WorkflowSpec } from './workflow-file.js';
import type { ResolvedRef } from './workflow-source.js';
import {
  JOB_TERMINAL,
  WORKFLOW_RUN_TERMINAL,
  type JobStatus,
  type RunStatus,
  type WorkflowJobResource,
  type WorkflowRunResource,
} from '../src/service/contract.js';

/** Element of a job's `errors` (the spec does not show the shape; this is the simulator's). */
export interface JobError {
  title: string;
  message: string;
}

/** A job exactly as the service returns it (the contract's resource, with the simulator's error shape). */
export type WorkflowJob = WorkflowJobResource & { errors: JobError[] };

/** A run exactly as the service returns it. */
export type WorkflowRun = Omit<WorkflowRunResource, 'jobs'> & { jobs: WorkflowJob[] };

export interface JobBehaviour {
  durationMs?: number;
  outcome?: 'success' | 'failure';
  errorMessage?: string;
}

export interface ProjectSummary {
  id: string;
  name: string;
  accountName: string;
}

/** Payload of the `job-completed` event (a job reached success, failure or canceled). */
export interface JobCompletedEvent {
  project: ProjectSummary;
  run: WorkflowRun;
  job: WorkflowJob;
  /** `params.platform` of the job (android by default for build/submission jobs), else null. */
  platform: string | null;
  errorMessage?: string;
  /** Null for a job canceled before it started. */
  startedAt: string | null;
  completedAt: string;
}

/** Payload of the `run-status` event: a run was created (`from` null) or changed status. */
export interface RunStatusEvent {
  run: WorkflowRun;
  from: RunStatus | null;
  /** The workflow file's `name:`, if it has one. */
  workflowName: string | null;
}

/** Payload of the `job-status` event: a job changed status. */
export interface JobStatusEvent {
  run: WorkflowRun;
  job: WorkflowJob;
  from: JobStatus;
}

/** Payload of the `run-completed` event (a run reached success, failure or canceled). */
export interface RunCompletedEvent {
  project: ProjectSummary;
  run: WorkflowRun;
}

interface JobRecord {
  view: WorkflowJob;
  spec: JobSpec;
  behaviour: JobBehaviour;
  startedAt: string | null;
  completedAt: string | null;
  errorMessage?: string;
  timer?: TimerHandle;
  /** Ends the job now as its behaviour says (set while it runs). */
  finish?: () => void;
}

interface RunRecord {
  view: Omit<WorkflowRun, 'jobs'>;
  project: Project;
  inputs: Record<string, InputValue>;
  jobs: JobRecord[];
  byKey: Map<string, JobRecord>;
  started: boolean;
  startTimer?: TimerHandle;
  cancelRequested: boolean;
  completed: boolean;
}

const TERMINAL_JOB: readonly JobStatus[] = JOB_TERMINAL;
const TERMINAL_RUN: readonly RunStatus[] = WORKFLOW_RUN_TERMINAL;

export interface WorkflowEngineOptions {
  timers: Timers;
  events: EventEmitter;
  baseUrl: () => string;
  defaultJobDurationMs: number;
  cancelDelayMs: number;
  runStartDelayMs: number;
}

export class WorkflowEngine {
  private readonly runsById = new Map<string, RunRecord>();
  private readonly behaviours = new Map<string, JobBehaviour>();

  constructor(private readonly opts: WorkflowEngineOptions) {}

  setJobBehaviour(jobKey: string, behaviour: JobBehaviour): void {
    this.behaviours.set(jobKey, { ...behaviour });
  }

  /** Jobs with this key that start afterwards run with the defaults again. */
  clearJobBehaviour(jobKey: string): void {
    this.behaviours.delete(jobKey);
  }

  clearJobBehaviours(): void {
    this.behaviours.clear();
  }

  /** The behaviours set per job key. */
  jobBehaviours(): Record<string, JobBehaviour> {
    return Object.fromEntries([...this.behaviours].map(([key, b]) => [key, { ...b }]));
  }

  /** Forgets every run (their timers cleared, no further events) and every job behaviour. */
  reset(): void {
    for (const run of this.runsById.values()) {
      run.completed = true;
      this.opts.timers.clear(run.startTimer);
      for (const job of run.jobs) this.opts.timers.clear(job.timer);
    }
    this.runsById.clear();
    this.clearJobBehaviours();
  }

  createRun(
    project: Project,
    ref: ResolvedRef & { message: string },
    spec: WorkflowSpec,
    inputs: Record<string, InputValue>,
  ): WorkflowRun {
    const id = randomUUID();
    const createdAt = nextTimestamp(undefined, this.opts.timers.now());
    const jobs: JobRecord[] = spec.jobs.map((jobSpec) => ({
      spec: jobSpec,
      behaviour: {},
      startedAt: null,
      completedAt: null,
      view: {
        id: randomUUID(),
        key: jobSpec.key,
        name: jobSpec.name,
        type: jobSpec.type,
        status: 'new',
        requiredJobKeys: [...jobSpec.needs],
        environment: jobSpec.environment,
        outputs: {},
        errors: [],
        buildId: null,
        submissionId: null,
        createdAt,
        updatedAt: createdAt,
      },
    }));
    const run: RunRecord = {
      view: {
        id,
        status: 'new',
        url: `${this.opts.baseUrl()}/accounts/${encodeURIComponent(project.account.name)}/projects/${encodeURIComponent(project.name)}/workflows/${id}`,
        gitCommitHash: ref.sha,
        gitCommitMessage: ref.message,
        requestedGitRef: ref.requestedGitRef,
        triggerEventType: 'MANUAL',
        createdAt,
        updatedAt: createdAt,
      },
      project,
      inputs,
      jobs,
      byKey: new Map(jobs.map((j) => [j.spec.key, j])),
      started: false,
      cancelRequested: false,
      completed: false,
    };
    this.runsById.set(id, run);
    this.emit('run-status', {
      run: this.view(run),
      from: null,
      workflowName: spec.name,
    } satisfies RunStatusEvent);
    run.startTimer = this.opts.timers.set(() => {
      run.started = true;
      this.advance(run);
    }, this.opts.runStartDelayMs);
    return this.view(run);
  }

  /** Public view (deep copy) of a run, or undefined. */
  get(id: string): WorkflowRun | undefined {
    const run = this.runsById.get(id);
    return run && this.view(run);
  }

  projectOf(id: string): Project | undefined {
    return this.runsById.get(id)?.project;
  }

  /** A job's `params.platform` (android by default for build and submission jobs), else null. */
  platformOf(runId: string, jobKey: string): string | null {
    return this.runsById.get(runId)?.byKey.get(jobKey)?.spec.platform ?? null;
  }

  list(): WorkflowRun[] {
    return [...this.runsById.values()].map((r) => this.view(r));
  }

  approve(runId: string): void {
    this.settleApproval(runId, true);
  }

  reject(runId: string): void {
    this.settleApproval(runId, false);
  }

  /**
   * A running job (`in-progress`) ends now, as its behaviour says, instead of when its duration is
   * up; the run goes on from there. Throws 409 for a job that is not running.
   */
  finishJob(runId: string, jobKey: string): void {
    const run = this.require(runId);
    const job = run.byKey.get(jobKey);
    if (!job) throw notFound(`Workflow run ${runId} has no job ${jobKey}`);
    if (job.view.status !== 'in-progress' || !job.finish)
      throw conflict(`Job ${jobKey} of workflow run ${runId} is not running (${job.view.status})`);
    job.finish();
  }

  /** Cancels a run; a run that already ended is left unchanged. */
  cancel(runId: string): void {
    const run = this.require(runId);
    if (run.completed || run.cancelRequested) return;
    run.cancelRequested = true;
    for (const job of run.jobs) {
      const status = job.view.status;
      if (status === 'new' || status === 'action-required') {
        this.complete(run, job, 'canceled');
      } else if (status === 'in-progress') {
        this.opts.timers.clear(job.timer);
        job.finish = undefined;
        this.setJobStatus(run, job, 'pending-cancel');
        job.timer = this.opts.timers.set(() => {
          this.complete(run, job, 'canceled');
          this.updateRunStatus(run);
        }, this.opts.cancelDelayMs);
      }
    }
    this.updateRunStatus(run);
  }

  private require(runId: string): RunRecord {
    const run = this.runsById.get(runId);
    if (!run) throw notFound(`No workflow run with id ${runId}`);
    return run;
  }

  private settleApproval(runId: string, approved: boolean): void {
    const run = this.require(runId);
    const waiting = run.jobs.filter((j) => j.view.status === 'action-required');
    if (waiting.length === 0) throw conflict(`Workflow run ${runId} has no job waiting for approval`);
    for (const job of waiting) {
      if (approved) {
        this.complete(run, job, 'success');
      } else {
        job.errorMessage = 'The approval was rejected';
        job.view.errors = [
          { title: 'Approval rejected', message: `${job.spec.name}: the approval was rejected` },
        ];
        this.complete(run, job, 'failure');
      }
    }
    this.advance(run);
  }

  private view(run: RunRecord): WorkflowRun {
    return structuredClone({ ...run.view, jobs: run.jobs.map((j) => j.view) });
  }

  private touch(run: RunRecord, job?: JobRecord): string {
    const now = nextTimestamp(run.view.updatedAt, this.opts.timers.now());
    run.view.updatedAt = now;
    if (job) job.view.updatedAt = now;
    return now;
  }

  private setJobStatus(run: RunRecord, job: JobRecord, status: JobStatus): void {
    const from = job.view.status;
    job.view.status = status;
    this.touch(run, job);
    this.emit('job-status', {
      run: this.view(run),
      job: structuredClone(job.view),
      from,
    } satisfies JobStatusEvent);
  }

  /** Starts ready jobs and skips jobs whose upstream jobs did not succeed, until nothing changes. */
  private advance(run: RunRecord): void {
    if (!run.started || run.completed) return;
    let changed = true;
    while (changed && !run.cancelRequested) {
      changed = false;
      for (const job of run.jobs) {
        if (job.view.status !== 'new') continue;
        const upstream = job.spec.needs.map((k) => run.byKey.get(k)!);
        if (upstream.some((u) => ['failure', 'canceled', 'skipped'].includes(u.view.status))) {
          this.setJobStatus(run, job, 'skipped');
          changed = true;
        } else if (upstream.every((u) => u.view.status === 'success')) {
          this.startJob(run, job);
          changed = true;
        }
      }
    }
    this.updateRunStatus(run);
  }

  private startJob(run: RunRecord, job: JobRecord): void {
    job.behaviour = { ...this.behaviours.get(job.spec.key) };
    if (job.spec.type === 'build') job.view.buildId = randomUUID();
    if (job.spec.type === 'submission') job.view.submissionId = randomUUID();
    if (job.spec.type === 'require-approval') {
      this.setJobStatus(run, job, 'action-required');
      job.startedAt = job.view.updatedAt;
      return;
    }
    this.setJobStatus(run, job, 'in-progress');
    job.startedAt = job.view.updatedAt;
    const duration = job.behaviour.durationMs ?? this.opts.defaultJobDurationMs;
    job.finish = () => {
      job.finish = undefined;
      this.opts.timers.clear(job.timer);
      job.timer = undefined;
      if (job.behaviour.outcome === 'failure') {
        job.errorMessage = job.behaviour.errorMessage ?? `Job ${job.spec.key} failed`;
        job.view.errors = [{ title: `${job.spec.name} failed`, message: job.errorMessage }];
        this.complete(run, job, 'failure');
      } else {
        this.complete(run, job, 'success');
      }
      this.advance(run);
    };
    job.timer = this.opts.timers.set(job.finish, duration);
  }

  /** Moves a job to success/failure/canceled and emits `job-completed`. */
  private complete(run: RunRecord, job: JobRecord, status: 'success' | 'failure' | 'canceled'): void {
    this.opts.timers.clear(job.timer);
    job.timer = undefined;
    if (status === 'success') job.view.outputs = this.renderOutputs(run, job);
    this.setJobStatus(run, job, status);
    job.completedAt = job.view.updatedAt;
    const event: JobCompletedEvent = {
      project: this.summary(run.project),
      run: this.view(run),
      job: structuredClone(job.view),
      platform: job.spec.platform,
      startedAt: job.startedAt,
      completedAt: job.completedAt,
    };
    if (job.errorMessage !== undefined) event.errorMessage = job.errorMessage;
    this.emit('job-completed', event);
  }

  private updateRunStatus(run: RunRecord): void {
    if (run.completed) return;
    const statuses = run.jobs.map((j) => j.view.status);
    let status: RunStatus;
    if (statuses.some((s) => s === 'in-progress' || s === 'pending-cancel')) status = 'in-progress';
    else if (statuses.some((s) => s === 'action-required')) status = 'action-required';
    else if (statuses.every((s) => TERMINAL_JOB.includes(s))) {
      status = run.cancelRequested ? 'canceled' : statuses.includes('failure') ? 'failure' : 'success';
    } else status = run.jobs.some((j) => j.startedAt !== null) ? 'in-progress' : 'new';
    if (status !== run.view.status) {
      const from = run.view.status;
      run.view.status = status;
      this.touch(run);
      this.emit('run-status', { run: this.view(run), from, workflowName: null } satisfies RunStatusEvent);
    }
    if (TERMINAL_RUN.includes(status)) {
      run.completed = true;
      for (const job of run.jobs) this.opts.timers.clear(job.timer);
      this.emit('run-completed', {
        project: this.summary(run.project),
        run: this.view(run),
      } satisfies RunCompletedEvent);
    }
  }

  /**
   * Job outputs on success: the `outputs:` mapping with each `${{ expr }}` replaced. `secrets.*` → `***`
   * (placeholder), `inputs.X` → the input's value, `needs.J.outputs.O` → that upstream output, anything
   * else → a deterministic `sim-<expr>` string.
   */
  private renderOutputs(run: RunRecord, job: JobRecord): Record<string, string> {
    const outputs: Record<string, string> = {};
    for (const [name, template] of Object.entries(job.spec.outputs)) {
      outputs[name] = template.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_m, expr: string) => {
        if (/^secrets\./.test(expr)) return '***';
        const input = /^inputs\.([\w-]+)$/.exec(expr);
        if (input) return input[1] in run.inputs ? String(run.inputs[input[1]]) : '';
        const need = /^needs\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
        if (need) return run.byKey.get(need[1])?.view.outputs[need[2]] ?? '';
        return `sim-${expr.replace(/[^A-Za-z0-9_]+/g, '-')}`;
      });
    }
    return outputs;
  }

  private summary(project: Project): ProjectSummary {
    return { id: project.id, name: project.name, accountName: project.account.name };
  }

  private emit(event: string, payload: unknown): void {
    try {
      this.opts.events.emit(event, payload);
    } catch (error) {
      console.error(`simulator: a '${event}' listener threw:`, error);
    }
  }
}
