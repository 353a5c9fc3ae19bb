/**
 * Commit statuses (`commit-statuses: true`): one per context on the commit a run is of, so that a
 * ruleset can require a named remote job. Statuses, not check runs: a status is keyed by commit and
 * context and updated in place, and belongs to no check suite (a check run made with the job's token
 * joins whatever suite exists for that commit).
 *
 * What a context should say is `set` at any time (status-ledger.ts keeps it, contexts compared
 * ignoring case as GitHub compares them); `flush` posts what changed since the last post, in one
 * batch; `settle` keeps posting, with back-off, until every context says what it should or its
 * window is over. Nothing is posted before the commit is known (`onCommit`).
 *
 * Fail-safe rules kept here, whoever sets the states:
 * - every description ends with the marker of status-marker.ts (the service run, the GitHub run and
 *   attempt), never cut;
 * - before each batch (and once after the last) the commit's statuses are read back, once a batch,
 *   not once a write (status-read-back.ts): a context that another service run posted from this same
 *   GitHub run and attempt (two matrix legs that share a context) ends in `error` naming
 *   `status-context`; another GitHub run's status is replaced, with a warning naming both;
 * - within GitHub's limits (status-budget.ts): writes a second apart on the step clock, final
 *   states included; reads and writes within one budget; the run's context and final states first;
 * - a failed request is retried with a back-off longer each time; a primary rate limit
 *   (`x-ratelimit-remaining: 0`) is waited out until its reset, a secondary one as `retry-after`
 *   says, else a minute and longer each time (status-trouble.ts); only a refusal (no
 *   `statuses: write`, a commit GitHub does not know) stops posting;
 * - on cancellation only the run's own context is posted; one warning names every context left
 *   unset (status-ledger.ts words it).
 *
 * The gate's own result decides the step, never a status.
 */
import type { ActionIO } from '../runner/io.js';
import { gitHubApi, type Octokit } from './github-api.js';
import { USER_AGENT } from '../runner/service-client.js';
import { STOP_ON_CANCEL_MS } from '../runner/timings.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { describe, type StatusPoster } from './status-marker.js';
import { SharedStatusCheck } from './status-read-back.js';
import { StatusLedger, type Status } from './status-ledger.js';
import { leftUnsetWarning, statusesNotPostedWarning } from './report.js';
import {
  chooseBatch,
  readFits,
  REQUEST_BUDGET,
  settleWindowMs,
  WRITE_SPACING_MS,
  type StatusState,
} from './status-budget.js';
import { MINUTE_MS, NoRepository, troubleOf, type Trouble } from './status-trouble.js';
import { stepClock } from '../text/clock.js';

export type { StatusState } from './status-budget.js';
const MAX_TARGET_URL = 2048;

/** How the step ends its statuses: `verdict` posts every one; `cancelled` only the run's own. */
type Ending = 'following' | 'verdict' | 'cancelled';

export class CommitStatuses {
  private readonly ledger = new StatusLedger();
  private readonly shared: SharedStatusCheck;
  /** When each write of the last minute was answered (step clock): the spacing and the pace. */
  private readonly writeTimes: number[] = [];
  /** Requests made (reads and writes), against REQUEST_BUDGET. */
  private spent = 0;
  private failures = 0;
  private trouble: Trouble | undefined;
  private queue: Promise<void> = Promise.resolve();
  private batchWaiting = false;
  private github: ReturnType<typeof gitHubApi> | undefined;
  private sha: string | undefined;
  private targetUrl = '';
  private ending: Ending = 'following';
  /** The end of the settle window (step clock); no write starts after it. */
  private deadline = Infinity;
  private checkedAfterLast = false;
  private budgetSkipped = false;

  constructor(
    private readonly io: ActionIO,
    private readonly githubToken: string,
    private readonly poster: StatusPoster,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.shared = new SharedStatusCheck(io, poster);
  }

  get commit(): string | undefined {
    return this.sha;
  }

  /** The commit the statuses go on; nothing is posted before it is known, and it never changes. */
  onCommit(sha: string): void {
    this.sha ??= sha;
  }

  /** The run's page on the service, the link of every status (an http(s) URL only). */
  linkTo(url: string): void {
    if (/^https?:\/\/\S+$/.test(url) && url.length <= MAX_TARGET_URL) this.targetUrl = url;
  }

  /** What `context` should say (`words` in the action's own words; the marker is added). */
  set(context: string, state: StatusState, words: string, primary = false): void {
    // Redacted before it is cut: GitHub keeps a status, and nothing masks it there.
    this.ledger.set(context, { state, description: describe(this.io.redact(words), this.poster) }, primary);
  }

  /** The contexts whose wanted state is still pending. */
  pending(): string[] {
    return this.ledger.pending();
  }

  /** What was posted, by context, in the order first posted. */
  postedStatuses(): Array<{ context: string } & Status> {
    return this.ledger.postedStatuses();
  }

  /**
   * Posts what changed since the last batch, behind a batch in flight; a batch already waiting
   * takes every later change too, so reads faster than GitHub answers do not pile batches up.
   */
  flush(): Promise<void> {
    if (this.batchWaiting) return this.queue;
    this.batchWaiting = true;
    this.queue = this.queue.then(() => {
      this.batchWaiting = false;
      return this.postBatch();
    });
    return this.queue;
  }

  /**
   * The step's last word: keeps posting (retrying with back-off, waiting out a rate limit) until
   * every context says what it should or the window is over: at least a second per context owed,
   * never under SETTLE_MIN_MS, at most SETTLE_CAP_MS; on cancellation STOP_ON_CANCEL_MS, and only
   * the run's own context. One warning names what is left.
   */
  async settle(options: { cancelled: boolean }): Promise<void> {
    this.ending = options.cancelled ? 'cancelled' : 'verdict';
    const withinMs = options.cancelled ? STOP_ON_CANCEL_MS : settleWindowMs(this.ledger.owed().length);
    this.deadline = stepClock().now() + withinMs;
    for (;;) {
      await this.flush().catch(() => undefined);
      if (!this.sha || this.trouble?.final || (this.owed().length === 0 && this.checkedAfterLast)) break;
      const wait = Math.max(
        50,
        (this.trouble?.retryAt ?? 0) - stepClock().now(),
        this.nextWriteAt() - stepClock().now(),
      );
      if (stepClock().now() + wait >= this.deadline) break;
      await stepClock().sleep(wait);
    }
    this.warnUnset();
  }

  async dispose(): Promise<void> {
    if (this.github) (await this.github.catch(() => undefined))?.dispose();
  }

  /** What is owed now: on cancellation only the run's own context is. */
  private owed() {
    const owed = this.ledger.owed();
    return this.ending === 'cancelled' ? owed.filter((change) => change.primary) : owed;
  }

  private async postBatch(): Promise<void> {
    if (!this.sha || this.trouble?.final) return;
    if (this.trouble && stepClock().now() < this.trouble.retryAt) return;
    // No read-back for a batch whose first write could not start within the window.
    if (this.nextWriteAt() > this.deadline) return;
    try {
      let batch = this.batch();
      if (batch.length > 0) {
        await this.readBack();
        batch = this.batch();
      }
      let count = 0;
      for (const context of batch) {
        // Cancelled while this batch was under way: the run's own context goes next, nothing else.
        if (this.ending === 'cancelled' && !this.owed().some((change) => change.context === context)) break;
        if (!(await this.awaitWriteSlot())) break;
        const status = this.ledger.wantedOf(context)!;
        // Timed from its answer: the next write then reaches GitHub at least a second after this one.
        await this.post(context, status).finally(() => this.writeTimes.push(stepClock().now()));
        this.ledger.markPosted(context, status);
        count++;
      }
      this.failures = 0;
      this.trouble = undefined;
      if (count > 0) this.io.info(`Commit statuses: posted ${count} on commit ${this.sha}.`);
      // Legs of a matrix start together: once everything is posted, look once more.
      if (this.ending !== 'following' && !this.checkedAfterLast && this.owed().length === 0) {
        this.checkedAfterLast = true;
        await this.readBack();
      }
    } catch (error) {
      this.failed(error);
    }
  }

  /**
   * Waits until a second has passed since the last write was answered (step clock), and counts the write;
   * false when that is past the settle window, or the budget is spent.
   */
  private async awaitWriteSlot(): Promise<boolean> {
    const at = this.nextWriteAt();
    if (at > this.deadline || this.spent >= REQUEST_BUDGET) return false;
    if (at > stepClock().now()) await stepClock().sleep(at - stepClock().now());
    this.spent++;
    return true;
  }

  /** The earliest time (step clock) the next write may start: a second after the last one's answer. */
  private nextWriteAt(): number {
    const last = this.writeTimes.at(-1);
    return last === undefined ? stepClock().now() : Math.max(stepClock().now(), last + WRITE_SPACING_MS);
  }

  /** What to post now, in order (status-budget.ts decides). */
  private batch(): string[] {
    const now = stepClock().now();
    while (this.writeTimes.length > 0 && this.writeTimes[0] <= now - MINUTE_MS) this.writeTimes.shift();
    const { chosen, budgetSkipped } = chooseBatch(this.owed(), {
      spent: this.spent,
      pendingPosted: this.ledger.pendingPosted(),
      lastMinute: this.writeTimes.length,
      ending: this.ending !== 'following',
    });
    if (budgetSkipped) this.budgetSkipped = true;
    return chosen;
  }

  /** The shared-status check (status-read-back.ts), each page counted: a context it finds shared ends in `error`. */
  private async readBack(): Promise<void> {
    if (!this.poster.githubRunId || !readFits(this.spent, this.ledger.pendingPosted())) return;
    this.spent++;
    const another = () => readFits(this.spent, this.ledger.pendingPosted()) && ++this.spent > 0;
    const found = await this.shared.check(
      await this.api(),
      this.sha!,
      (context) => this.ledger.known(context),
      another,
    );
    for (const { context, otherServiceRun } of found)
      this.ledger.lock(context, {
        state: 'error',
        description: describe(
          `Shared with service run ${otherServiceRun.slice(0, 8)} of this GitHub run: set status-context per step`,
          this.poster,
        ),
      });
  }

  private failed(error: unknown): void {
    const trouble = troubleOf(error, stepClock().now(), ++this.failures, this.env.GITHUB_API_URL);
    const first = !this.trouble;
    this.trouble = trouble;
    if (trouble.final) this.io.warning(statusesNotPostedWarning(trouble.words));
    else if (first) {
      this.io.info(
        `Commit statuses: ${trouble.words}; trying again in ${Math.ceil((trouble.retryAt - stepClock().now()) / 1000)} s.`,
      );
    }
  }

  /** The one warning for what is left unset when the step ends. */
  private warnUnset(): void {
    if (!this.sha || this.trouble?.final) return;
    // Cancelled: the job contexts left showing pending are named too.
    const left = this.ledger.unsettled(this.ending === 'cancelled');
    if (left.length === 0) return;
    const why = this.trouble
      ? this.trouble.words
      : this.ending === 'cancelled'
        ? "the step was cancelled: only the run's own context is posted then"
        : this.budgetSkipped
          ? `this step's budget of ${REQUEST_BUDGET} requests to GitHub is spent`
          : 'the time to post them ran out';
    this.io.warning(leftUnsetWarning(this.sha, left, why));
  }

  private async api(): Promise<{ octokit: Octokit; owner: string; repo: string }> {
    this.github ??= gitHubApi(this.githubToken, USER_AGENT);
    const { octokit } = await this.github;
    const [owner, repo] = (this.env.GITHUB_REPOSITORY ?? '').split('/');
    if (!owner || !repo) throw new NoRepository();
    return { octokit, owner, repo };
  }

  private async post(context: string, status: Status): Promise<void> {
    const { octokit, owner, repo } = await this.api();
    await octokit.rest.repos.createCommitStatus({
      owner,
      repo,
      sha: this.sha!,
      context,
      state: status.state,
      description: status.description,
      ...(this.targetUrl ? { target_url: this.targetUrl } : {}),
      request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
    });
  }
}
