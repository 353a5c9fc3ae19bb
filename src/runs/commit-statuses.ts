/**
 * The commit statuses of a followed run (`commit-statuses: true`): `<prefix>` for the run and
 * `<prefix>/<job key>` for each job the gate follows (every job, or those `jobs` selects), where the
 * prefix is `svc/<workflow file without extension>` or `status-context`. Each says its state in this
 * action's own words, never the service's free-form text: `pending` from the dispatch (the run) or
 * from when a job is first seen, then `success`, `failure` or `error` (`canceled`); a skipped job is
 * `failure` naming the job it needed, since a gate must not let a required job pass by being
 * skipped. When the gate stops following before the end, every status still pending becomes `error`
 * with what happened, so none stays pending for ever.
 */
import { createHash } from 'node:crypto';
import type { WorkflowJob, WorkflowRun } from '../service/contract.js';
import { CommitStatuses, type StatusState } from '../github/statuses.js';
import type { ActionIO } from '../github/io.js';
import { selectJobs } from './job-selection.js';
import type { Outcome } from './step.js';

/** Contexts at most this long (GitHub's own limit is larger): a ruleset names them by hand. */
const MAX_CONTEXT = 100;

/**
 * Job statuses at most, per run: a ruleset requires a few jobs by name, and a run of thousands of
 * jobs must not become thousands of requests to GitHub. The first jobs the gate sees get one; the
 * run's own status covers every job.
 */
const MAX_JOB_STATUSES = 100;

/** The context prefix: `status-context`, else `svc/<workflow file without .yml/.yaml>`. */
export function statusPrefix(workflow: string | undefined, statusContext: string | undefined): string {
  return statusContext || `svc/${(workflow ?? '').replace(/\.ya?ml$/i, '')}`;
}

/** The input rules of `commit-statuses`, shared by run-workflow and wait-for-run. */
export function statusRules(values: { 'commit-statuses'?: boolean; 'github-token'?: string }): string[] {
  if (!values['commit-statuses'] || values['github-token']) return [];
  return [
    '`commit-statuses: true` needs `github-token` (default `${{ github.token }}`, with `permissions: statuses: write`).',
  ];
}

/** How the gate stopped following, for the statuses it leaves: `undefined` when the run ended. */
const STOPPED: Partial<Record<Outcome, string>> = {
  'timed-out': 'timeout-minutes reached',
  interrupted: 'the step was cancelled',
  'action-required': 'the run waits for approval (on-action-required: fail)',
};

/** The statuses of one followed run, posted with `githubToken` on `commit` (or the one `commitOf` finds). */
export function startStatuses(
  io: ActionIO,
  settings: {
    githubToken: string;
    prefix: string;
    selectors?: readonly string[];
    commit?: string;
    commitOf?: (run: WorkflowRun) => string | undefined;
  },
): RunStatuses {
  const statuses = new CommitStatuses(io, settings.githubToken);
  if (settings.commit) statuses.onCommit(settings.commit);
  else if (!settings.commitOf)
    io.warning(
      'commit-statuses: true, but there is no commit under review (no GITHUB_SHA); no status is posted.',
    );
  return new RunStatuses(io, statuses, settings.prefix, settings);
}

export class RunStatuses {
  constructor(
    private readonly io: ActionIO,
    private readonly statuses: CommitStatuses,
    private readonly prefix: string,
    private readonly options: {
      selectors?: readonly string[];
      /** The commit, when it is known only from the run (wait-for-run's `expected-commit` prefix). */
      commitOf?: (run: WorkflowRun) => string | undefined;
    } = {},
  ) {}

  /** The job keys that have a status (at most MAX_JOB_STATUSES), in the order first seen. */
  private readonly withStatus = new Set<string>();
  private saidTooMany = false;

  /** The commit the statuses go on, once known. */
  get commit(): string | undefined {
    return this.statuses.commit;
  }

  posted(): Array<{ context: string; state: StatusState }> {
    return this.statuses.postedStatuses();
  }

  /** Waits for the posts (at most `withinMs`); returns the contexts left unset. */
  async settle(withinMs?: number): Promise<string[]> {
    const unset = await this.statuses.settle(withinMs);
    await this.statuses.dispose();
    return unset;
  }

  /** The run was dispatched: its status is pending before the first read. */
  dispatched(runUrl: string): void {
    this.statuses.linkTo(runUrl);
    this.statuses.set(this.prefix, 'pending', 'Dispatched; not read yet');
  }

  /** A read of the run: its status and each followed job's. */
  read(run: WorkflowRun): void {
    if (run.url) this.statuses.linkTo(run.url);
    const commit = this.options.commitOf?.(run);
    if (commit) this.statuses.onCommit(commit);
    this.statuses.set(this.prefix, ...runState(run.status));
    const { selectors } = this.options;
    const jobs = selectors ? selectJobs(run.jobs, selectors).selected : run.jobs;
    let byKey: Map<string, WorkflowJob> | undefined;
    const jobByKey = (key: string): WorkflowJob | undefined =>
      (byKey ??= new Map(run.jobs.map((job) => [job.key, job]))).get(key);
    for (const job of jobs) {
      if (!this.withStatus.has(job.key)) {
        if (this.withStatus.size >= MAX_JOB_STATUSES) {
          this.tooMany(jobs.length);
          continue;
        }
        this.withStatus.add(job.key);
      }
      this.statuses.set(this.jobContext(job.key), ...jobState(job, jobByKey));
    }
  }

  /** Said once: which jobs have no status of their own, and what covers them. */
  private tooMany(count: number): void {
    if (this.saidTooMany) return;
    this.saidTooMany = true;
    this.io.warning(
      `commit-statuses: the run has ${count} jobs to follow; a status is posted for the first ` +
        `${MAX_JOB_STATUSES} seen and for the run (\`${this.prefix}\`), which covers them all. ` +
        'Use `jobs` to choose the jobs a ruleset requires.',
    );
  }

  /** The gate's verdict: whatever is still pending becomes `error`, saying why the gate stopped. */
  ended(outcome: Outcome): void {
    const stopped =
      STOPPED[outcome] ??
      (outcome === 'success' || outcome === 'failure' ? 'the listed jobs ended first' : '');
    for (const context of this.statuses.pending())
      this.statuses.set(
        context,
        'error',
        `Not followed to its end: ${stopped || `the step ended (${outcome})`}`,
      );
  }

  /**
   * `<prefix>/<key>`: a key of letters, digits, `_`, `.` and `-` as it is; any other key (the
   * workflow file's author chose it) with those characters only and a short hash of the key, so
   * two keys never share a context and no context carries free text.
   */
  private jobContext(key: string): string {
    const plain = key.replace(/[^\w.-]/g, '-');
    const room = MAX_CONTEXT - this.prefix.length - 1;
    if (plain === key && key.length <= room) return `${this.prefix}/${key}`;
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
    return `${this.prefix}/${plain.slice(0, Math.max(1, room - 9))}~${hash}`;
  }
}

/** Each status of a run or a job the spec lists, as a commit status and its description. */
const STATES: Record<string, [StatusState, string]> = {
  new: ['pending', 'Queued'],
  'in-progress': ['pending', 'Running'],
  'action-required': ['pending', 'Waiting for approval'],
  'pending-cancel': ['pending', 'Being canceled'],
  success: ['success', 'Succeeded'],
  failure: ['failure', 'Failed'],
  canceled: ['error', 'Canceled'],
};

function runState(status: string): [StatusState, string] {
  return STATES[status] ?? ['pending', 'In a status this action does not know; still followed'];
}

function jobState(
  job: WorkflowJob,
  jobByKey: (key: string) => WorkflowJob | undefined,
): [StatusState, string] {
  if (job.status !== 'skipped') return runState(job.status);
  // The spec's skipped: a job it needs did not succeed. Named by key (a workflow file's word).
  const needed = (job.requiredJobKeys ?? [])
    .map(jobByKey)
    .find((other) => other !== undefined && other.status !== 'success');
  return ['failure', needed ? `Skipped: needed job ${needed.key} did not succeed` : 'Skipped'];
}
