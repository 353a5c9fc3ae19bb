/**
 * The commit statuses of a followed run (`commit-statuses: true`): `<prefix>` for the run and
 * `<prefix>/<job key>` for each job the gate follows (every job, or those `jobs` selects), where the
 * prefix is `svc/<workflow file without extension>` or `status-context`.
 *
 * The rule (interface v5): a context says `success` only when this step's verdict on a run of that
 * exact commit does. So every state goes on the run's own commit (its whole `gitCommitHash`), and
 * only from a reading the verdict accepts: a run of another commit, or one that names no commit,
 * sets no state at all. Each state is in this action's own words, never the service's free-form
 * text; a skipped job is `failure` naming the job it needed, since a gate must not let a required
 * job pass by being skipped. When the step ends, the run's context carries the step's verdict and
 * every job context still pending becomes `error` saying why, so none stays pending for ever.
 */
import { createHash } from 'node:crypto';
import { isJobTerminal, type WorkflowJob } from '../service/contract.js';
import { CommitStatuses, type StatusState } from '../github/statuses.js';
import { posterOf } from '../github/status-marker.js';
import type { ActionIO } from '../github/io.js';
import { markdownCode } from '../text/markdown.js';
import { status as withIcon } from '../text/status.js';
import type { Reading } from './reading.js';
import type { Outcome } from './step.js';

/** Contexts at most this long (GitHub's own limit is larger): a ruleset names them by hand. */
const MAX_CONTEXT = 100;

/**
 * Job statuses at most, per run: a ruleset requires a few jobs by name. 60 (it was 100) so that the
 * first read of a large run, one `pending` per job, stays under GitHub's 80 posts a minute; the
 * run's own status covers every job.
 */
export const MAX_JOB_STATUSES = 60;

/** Hexadecimal digits of the hash a job context carries when its key cannot be used as it is. */
const HASH_DIGITS = 12;

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

/** What a status left pending by a `wait: false` dispatch says after its own words. */
export const LEFT_FOR_SYNC = '; sync-statuses settles it';

/** How long the statuses may still be posted after the verdict (retries, a rate limit). */
export const SETTLE_AFTER_VERDICT_MS = 60_000;

/** The statuses of the followed run `serviceRunId`, posted with `githubToken`. */
export function startStatuses(
  io: ActionIO,
  settings: { githubToken: string; prefix: string; serviceRunId: string },
  env: Record<string, string | undefined> = process.env,
): RunStatuses {
  const poster = posterOf(settings.serviceRunId, env);
  return new RunStatuses(io, new CommitStatuses(io, settings.githubToken, poster, env), settings.prefix);
}

export class RunStatuses {
  /** Job context → the key it stands for, in the order first seen (at most MAX_JOB_STATUSES). */
  private readonly contexts = new Map<string, string>();
  /** Contexts two jobs of the run map to: `error` for good, whatever a later read lists. */
  private readonly ambiguous = new Map<string, string>();
  private saidTooMany = false;
  private saidNoCommit = false;
  /** Why no state is set any more (the run changed its commit). */
  private abandoned = false;

  constructor(
    private readonly io: ActionIO,
    private readonly statuses: CommitStatuses,
    private readonly prefix: string,
  ) {}

  /** A reading of the run: its state and each followed job's, when the reading may set any. */
  read(reading: Reading): void {
    if (!this.apply(reading)) return;
    void this.statuses.flush();
  }

  /**
   * The step's verdict: the run's context says it (`success` only for a verdict of success on a
   * reading of the run's own commit), each job context still pending becomes `error` saying why
   * following stopped; then the posts are retried until they are through or the time is up.
   */
  async end(
    outcome: Outcome,
    reading: Reading | undefined,
    settings: { withinMs: number; listedJobsOnly: boolean; why?: string },
  ): Promise<void> {
    if (reading && !this.abandoned) {
      this.apply(reading);
      if (this.statuses.commit) {
        const [state, words] = verdictState(outcome, reading, settings);
        this.statuses.set(this.prefix, state, words, true);
        const stopped = `Not followed to its end: ${STOPPED[outcome] ?? settings.why ?? `the step ended (${outcome})`}`;
        for (const context of this.statuses.pending()) this.statuses.set(context, 'error', stopped);
      }
    }
    if (!this.statuses.commit && reading) this.sayNoCommit(reading);
    await this.statuses.settle(settings.withinMs);
    await this.statuses.dispose();
  }

  /**
   * `wait: false`: one reading's states are posted and left for `sync-statuses`, whose words they
   * carry: the run's context pending, and no `success` from a step that gives no verdict.
   */
  async leave(reading: Reading, withinMs: number): Promise<void> {
    if (this.apply(reading, LEFT_FOR_SYNC) && this.statuses.commit)
      this.statuses.set(this.prefix, 'pending', `Dispatched${LEFT_FOR_SYNC}`, true);
    else this.sayNoCommit(reading);
    await this.statuses.settle(withinMs);
    await this.statuses.dispose();
  }

  /** The job summary's section: the commit, then each context with its state and icon. */
  summary(): string {
    const posted = this.statuses.postedStatuses();
    if (posted.length === 0) return '';
    const rows = posted.map(({ context, state }) => `- ${markdownCode(context, 120)}: ${withIcon(state)}`);
    return `\n**Commit statuses** on commit ${markdownCode(this.statuses.commit ?? '', 64)}\n\n${rows.join('\n')}\n`;
  }

  /** Sets what `reading` says (`left`: pending states left for sync-statuses); false when it may set nothing. */
  private apply(reading: Reading, left?: string): boolean {
    if (this.abandoned || reading.binding !== 'yes') return false;
    if (!reading.commit) {
      this.sayNoCommit(reading);
      return false;
    }
    this.statuses.onCommit(reading.commit);
    if (this.statuses.commit !== reading.commit) {
      this.abandon(reading.commit);
      return true;
    }
    if (reading.run.url) this.statuses.linkTo(reading.run.url);
    this.statuses.set(this.prefix, ...(STATES[reading.run.status] ?? UNKNOWN), true);
    const byKey = new Map(reading.run.jobs.map((job) => [job.key, job]));
    const seen = new Map<string, string>();
    for (const job of reading.followed) {
      const context = jobContext(this.prefix, job.key);
      const other = seen.get(context);
      if (other !== undefined && !this.ambiguous.has(context))
        this.ambiguous.set(
          context,
          other === job.key ? `the run lists job ${job.key} twice` : `jobs ${other} and ${job.key} share it`,
        );
      seen.set(context, job.key);
      if (!this.hasStatus(context, job.key, reading.followed.length)) continue;
      const ambiguous = this.ambiguous.get(context);
      if (ambiguous) this.statuses.set(context, 'error', `Ambiguous: ${ambiguous}`);
      else {
        const [state, words] = jobState(job, byKey);
        if (left && (state === 'pending' || state === 'success'))
          this.statuses.set(context, 'pending', `${words}${left}`);
        else this.statuses.set(context, state, words);
      }
    }
    return true;
  }

  /** Whether the job's context has a status (the first MAX_JOB_STATUSES contexts seen do). */
  private hasStatus(context: string, key: string, count: number): boolean {
    if (this.contexts.has(context)) return true;
    if (this.contexts.size >= MAX_JOB_STATUSES) {
      this.tooMany(count);
      return false;
    }
    this.contexts.set(context, key);
    return true;
  }

  /** The run now names another commit than it did: nothing more is said of it, and no state stays. */
  private abandon(commit: string): void {
    this.abandoned = true;
    this.io.warning(
      `The run now says it is of commit ${commit}, not ${this.statuses.commit} as before: its commit statuses end in error.`,
    );
    for (const { context } of this.statuses.postedStatuses())
      this.statuses.set(context, 'error', 'The run changed the commit it names', context === this.prefix);
  }

  private sayNoCommit(reading: Reading): void {
    if (this.saidNoCommit || reading.binding !== 'yes') return;
    this.saidNoCommit = true;
    this.io.warning(
      `commit-statuses: the run does not name its commit as a whole SHA (\`gitCommitHash\`), so no commit status is posted: a status goes only on the commit the run is of.`,
    );
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
}

/**
 * `<prefix>/<key>`: a key of letters, digits, `_`, `.` and `-` as it is; any other key (the
 * workflow file's author chose it) with those characters only, then `~` and a hash of the key.
 * A plain key has no `~`, so only two hashed keys can meet: RunStatuses finds them (and a key
 * listed twice) and sets that context to `error`, never letting the last job listed decide.
 */
export function jobContext(prefix: string, key: string): string {
  const plain = key.replace(/[^\w.-]/g, '-');
  const room = MAX_CONTEXT - prefix.length - 1;
  if (plain === key && key.length <= room) return `${prefix}/${key}`;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, HASH_DIGITS);
  return `${prefix}/${plain.slice(0, Math.max(1, room - HASH_DIGITS - 1))}~${hash}`;
}

/** How the gate stopped following, for the job contexts it leaves pending. */
const STOPPED: Partial<Record<Outcome, string>> = {
  'timed-out': 'timeout-minutes reached',
  interrupted: 'the step was cancelled',
  'action-required': 'the run waits for approval (on-action-required: fail)',
};

/** The run's context at the end: the step's verdict, in words that are true of it. */
function verdictState(
  outcome: Outcome,
  reading: Reading,
  settings: { listedJobsOnly: boolean; why?: string },
): [StatusState, string] {
  const goesOn = !['success', 'failure', 'canceled'].includes(reading.run.status);
  switch (outcome) {
    case 'success':
      return [
        'success',
        settings.listedJobsOnly && goesOn
          ? 'Listed jobs succeeded; the run goes on'
          : settings.listedJobsOnly
            ? 'Listed jobs succeeded'
            : 'Succeeded',
      ];
    case 'failure':
      if (settings.why) return ['error', `Not followed to its end: ${settings.why}`];
      if (reading.unmatched.length > 0) return ['failure', '`jobs` names jobs the run does not have'];
      if (settings.listedJobsOnly)
        return ['failure', `Listed jobs did not all succeed${goesOn ? '; the run goes on' : ''}`];
      return reading.run.status === 'failure'
        ? ['failure', 'Failed']
        : ['failure', `The step failed (run ${reading.run.status})`];
    case 'canceled':
      return ['error', 'Canceled'];
    default:
      return [
        'error',
        `Not followed to its end: ${STOPPED[outcome] ?? settings.why ?? `the step ended (${outcome})`}`,
      ];
  }
}

/** Each status of a run or a job the spec lists, as a commit status and its words. */
export const STATES: Record<string, [StatusState, string]> = {
  new: ['pending', 'Queued'],
  'in-progress': ['pending', 'Running'],
  'action-required': ['pending', 'Waiting for approval'],
  'pending-cancel': ['pending', 'Being canceled'],
  success: ['success', 'Succeeded'],
  failure: ['failure', 'Failed'],
  canceled: ['error', 'Canceled'],
};
export const UNKNOWN: [StatusState, string] = [
  'pending',
  'In a status this action does not know; still followed',
];

export function jobState(job: WorkflowJob, byKey: ReadonlyMap<string, WorkflowJob>): [StatusState, string] {
  if (job.status !== 'skipped') return STATES[job.status] ?? UNKNOWN;
  // The spec's skipped: a job it needs did not succeed. Named (by key, a workflow file's word) only
  // once that job has ended without success; a job still running is no reason yet.
  const needed = (job.requiredJobKeys ?? [])
    .map((key) => byKey.get(key))
    .find((other) => other !== undefined && isJobTerminal(other) && other.status !== 'success');
  return ['failure', needed ? `Skipped: needed job ${needed.key} did not succeed` : 'Skipped'];
}
