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
 * every job context still pending becomes `error` saying why; what cannot be posted within GitHub's
 * limits in time, or anything but the run's context once the step is cancelled, is left as it is,
 * named in a warning: a context left `pending` is settled by sync-statuses.
 */
import { CommitStatuses, type StatusState } from '../github/statuses.js';
import { posterOf } from '../github/status-marker.js';
import type { ActionIO } from '../runner/io.js';
import { renderStatusesSection } from './report/run-summary.js';
import {
  NO_RUN_COMMIT_WARNING,
  commitChangedWarning,
  tooManyJobStatusesWarning,
} from './report/run-warnings.js';
import type { Reading } from './reading.js';
import type { Outcome } from './outcome.js';
import { jobContexts, jobState, MAX_JOB_STATUSES, STATES, UNKNOWN } from './status-words.js';

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
  /** Job context (in lower case, as GitHub compares it) → the key it stands for, in the order first seen (at most MAX_JOB_STATUSES). */
  private readonly contexts = new Map<string, string>();
  /** Contexts (in lower case) two jobs of the run map to: `error` for good, whatever a later read lists. */
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
   * following stopped; then the posts are retried until they are through or the time is up. A
   * cancelled step (`cancelled`: its few seconds before SIGTERM) posts the run's context only and
   * leaves the job contexts as they are, for sync-statuses.
   */
  async end(
    outcome: Outcome,
    reading: Reading | undefined,
    settings: { cancelled: boolean; listedJobsOnly: boolean; why?: string },
  ): Promise<void> {
    if (reading && !this.abandoned) {
      this.apply(reading);
      if (this.statuses.commit) {
        const [state, words] = verdictState(outcome, reading, settings);
        this.statuses.set(this.prefix, state, words, true);
        const stopped = notFollowed(outcome, settings.why);
        if (!settings.cancelled)
          for (const context of this.statuses.pending()) this.statuses.set(context, 'error', stopped);
      }
    }
    if (!this.statuses.commit && reading) this.sayNoCommit(reading);
    await this.statuses.settle({ cancelled: settings.cancelled });
    await this.statuses.dispose();
  }

  /**
   * `wait: false`: one reading's states are posted and left for `sync-statuses`, whose words they
   * carry: the run's context pending, and no `success` from a step that gives no verdict.
   */
  async leave(reading: Reading, settings: { cancelled: boolean }): Promise<void> {
    if (this.apply(reading, LEFT_FOR_SYNC) && this.statuses.commit)
      this.statuses.set(this.prefix, 'pending', `Dispatched${LEFT_FOR_SYNC}`, true);
    else this.sayNoCommit(reading);
    await this.statuses.settle(settings);
    await this.statuses.dispose();
  }

  /** The job summary's section: the commit, then each context with its state and icon. */
  summary(): string {
    return renderStatusesSection(this.statuses.commit, this.statuses.postedStatuses());
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
    for (const [context, { job, ambiguous }] of jobContexts(this.prefix, reading.followed, (text) =>
      this.io.redact(text),
    )) {
      // As GitHub compares contexts: one whatever its case, from one reading to the next.
      const key = context.toLowerCase();
      if (ambiguous && !this.ambiguous.has(key)) this.ambiguous.set(key, ambiguous);
      if (!this.hasStatus(key, job.key, reading.followed.length)) continue;
      const said = this.ambiguous.get(key);
      if (said) this.statuses.set(context, 'error', `Ambiguous: ${said}`);
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
    this.io.warning(commitChangedWarning(commit, this.statuses.commit));
    for (const { context } of this.statuses.postedStatuses())
      this.statuses.set(context, 'error', 'The run changed the commit it names', context === this.prefix);
  }

  private sayNoCommit(reading: Reading): void {
    if (this.saidNoCommit || reading.binding !== 'yes') return;
    this.saidNoCommit = true;
    this.io.warning(NO_RUN_COMMIT_WARNING);
  }

  /** Said once: which jobs have no status of their own, and what covers them. */
  private tooMany(count: number): void {
    if (this.saidTooMany) return;
    this.saidTooMany = true;
    this.io.warning(tooManyJobStatusesWarning(count, MAX_JOB_STATUSES, this.prefix));
  }
}

/** How the gate stopped following, for the job contexts it leaves pending. */
const STOPPED: Partial<Record<Outcome, string>> = {
  'timed-out': 'timeout-minutes reached',
  interrupted: 'the step was cancelled',
  'action-required': 'the run waits for approval (on-action-required: fail)',
};

/** Why the gate stopped following, in a status's words. */
function notFollowed(outcome: Outcome, why: string | undefined): string {
  return `Not followed to its end: ${STOPPED[outcome] ?? why ?? `the step ended (${outcome})`}`;
}

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
      if (settings.why) return ['error', notFollowed(outcome, settings.why)];
      if (reading.unmatched.length > 0) return ['failure', '`jobs` names jobs the run does not have'];
      if (settings.listedJobsOnly)
        return ['failure', `Listed jobs did not all succeed${goesOn ? '; the run goes on' : ''}`];
      return reading.run.status === 'failure'
        ? ['failure', 'Failed']
        : ['failure', `The step failed (run ${reading.run.status})`];
    case 'canceled':
      return ['error', 'Canceled'];
    default:
      return ['error', notFollowed(outcome, settings.why)];
  }
}
