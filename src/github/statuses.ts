/**
 * Commit statuses (`commit-statuses: true`): one per context on the commit a run is of, so that a
 * ruleset can require a named remote job. Statuses, not check runs: a status is keyed by commit and
 * context and updated in place, and belongs to no check suite (a check run made with the job's token
 * joins whatever suite exists for that commit).
 *
 * What a context should say is `set` at any time; `flush` posts what changed since the last post, in
 * one batch, one request at a time; `settle` keeps posting, with back-off, until every context says
 * what it should or the time is up. Nothing is posted before the commit is known (`onCommit`).
 *
 * Fail-safe rules kept here, whoever sets the states:
 * - every description ends with the marker of status-marker.ts (the service run, the GitHub run and
 *   attempt), never cut;
 * - before each batch (and once after the last) the commit's statuses are read back
 *   (status-read-back.ts): a context that another service run posted from this same GitHub run and
 *   attempt (two matrix legs that share a context) ends in `error` naming `status-context`; another
 *   GitHub run's status is replaced, with a warning naming both;
 * - bounded: at most POST_BUDGET posts per step; the run's context and final states first; a
 *   context's first `pending` and its intermediate states are paced (PACE_*) and may be skipped, a
 *   final state never is while the budget lasts (each pending context keeps one post in reserve);
 * - a failed post is retried with back-off (a rate limit is waited out as GitHub says); only a
 *   refusal (no `statuses: write`, a commit GitHub does not know) stops posting. One warning names
 *   whatever is left unset, and how to clear it.
 *
 * The gate's own result decides the step, never a status.
 */
import type { ActionIO } from '../runner/io.js';
import { gitHubApi, type Octokit } from './github-api.js';
import { USER_AGENT } from '../runner/service-client.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { describe, type StatusPoster } from './status-marker.js';
import { SharedStatusCheck } from './status-read-back.js';
import { chooseBatch, POST_BUDGET, type StatusState } from './status-budget.js';
import { MINUTE_MS, troubleOf, type Trouble } from './status-trouble.js';
import { stepClock } from '../text/clock.js';

export type { StatusState } from './status-budget.js';

const MAX_TARGET_URL = 2048;

interface Status {
  state: StatusState;
  description: string;
}

interface Wanted extends Status {
  /** The run's own context: posted before any job's. */
  primary: boolean;
  /** Set by the read-back (a shared context): no later `set` changes it. */
  locked: boolean;
}

export class CommitStatuses {
  private readonly wanted = new Map<string, Wanted>();
  private readonly posted = new Map<string, Status>();
  private readonly postTimes: number[] = [];
  private spent = 0;
  private failures = 0;
  private trouble: Trouble | undefined;
  private queue: Promise<void> = Promise.resolve();
  private github: ReturnType<typeof gitHubApi> | undefined;
  private sha: string | undefined;
  private targetUrl = '';
  private ending = false;
  private checkedAfterLast = false;
  private budgetSkipped = false;
  private batchWaiting = false;
  private readonly shared: SharedStatusCheck;

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
    if (this.wanted.get(context)?.locked) return;
    // Redacted before it is cut: GitHub keeps a status, and nothing masks it there.
    this.wanted.set(context, {
      state,
      description: describe(this.io.redact(words), this.poster),
      primary,
      locked: false,
    });
  }

  /** The contexts whose wanted state is still pending. */
  pending(): string[] {
    return [...this.wanted].filter(([, status]) => status.state === 'pending').map(([context]) => context);
  }

  /** What was posted, by context, in the order first posted. */
  postedStatuses(): Array<{ context: string } & Status> {
    return [...this.posted].map(([context, status]) => ({ context, ...status }));
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
   * every context says what it should, or `withinMs` has passed; one warning names what is left.
   */
  async settle(withinMs: number): Promise<void> {
    const deadline = stepClock().now() + withinMs;
    this.ending = true;
    for (;;) {
      await this.flush().catch(() => undefined);
      if (!this.sha || this.trouble?.final || (this.unposted().length === 0 && this.checkedAfterLast)) break;
      const wait = Math.max(50, (this.trouble?.retryAt ?? 0) - stepClock().now());
      if (stepClock().now() + wait >= deadline) break;
      await stepClock().sleep(wait);
    }
    this.warnUnset();
  }

  async dispose(): Promise<void> {
    if (this.github) (await this.github.catch(() => undefined))?.dispose();
  }

  /** Contexts whose wanted state is not what was last posted. */
  private unposted(): string[] {
    return [...this.wanted]
      .filter(([context, want]) => !same(this.posted.get(context), want))
      .map(([c]) => c);
  }

  private async postBatch(): Promise<void> {
    if (!this.sha || this.trouble?.final) return;
    if (this.trouble && stepClock().now() < this.trouble.retryAt) return;
    try {
      let batch = this.batch();
      if (batch.length > 0) {
        await this.readBack();
        batch = this.batch();
      }
      let count = 0;
      for (const context of batch) {
        const status = this.wanted.get(context)!;
        this.spent++;
        await this.post(context, status);
        this.postTimes.push(stepClock().now());
        this.posted.set(context, { state: status.state, description: status.description });
        count++;
      }
      this.failures = 0;
      this.trouble = undefined;
      if (count > 0) this.io.info(`Commit statuses: posted ${count} on commit ${this.sha}.`);
      // Legs of a matrix start together: once everything is posted, look once more.
      if (this.ending && !this.checkedAfterLast && this.unposted().length === 0) {
        this.checkedAfterLast = true;
        await this.readBack();
      }
    } catch (error) {
      this.failed(error);
    }
  }

  /** What to post now, in order (status-budget.ts decides). */
  private batch(): string[] {
    const now = stepClock().now();
    while (this.postTimes.length > 0 && this.postTimes[0] <= now - MINUTE_MS) this.postTimes.shift();
    const { chosen, budgetSkipped } = chooseBatch(
      this.unposted().map((context) => {
        const want = this.wanted.get(context)!;
        return { context, primary: want.primary, state: want.state, last: this.posted.get(context)?.state };
      }),
      {
        spent: this.spent,
        pendingPosted: [...this.posted.values()].filter((status) => status.state === 'pending').length,
        lastMinute: this.postTimes.length,
        ending: this.ending,
      },
    );
    if (budgetSkipped) this.budgetSkipped = true;
    return chosen;
  }

  /** The shared-status check (status-read-back.ts): a context it finds shared ends in `error`. */
  private async readBack(): Promise<void> {
    const found = await this.shared.check(await this.api(), this.sha!, (context) => {
      const want = this.wanted.get(context);
      return want ? (want.locked ? 'shared' : 'set') : undefined;
    });
    for (const { context, otherServiceRun } of found) this.lock(context, otherServiceRun);
  }

  private lock(context: string, otherRun: string): void {
    const want = this.wanted.get(context)!;
    if (want.locked) return;
    this.wanted.set(context, {
      state: 'error',
      description: describe(
        `Shared with service run ${otherRun.slice(0, 8)} of this GitHub run: set status-context per step`,
        this.poster,
      ),
      primary: want.primary,
      locked: true,
    });
  }

  private failed(error: unknown): void {
    const trouble = troubleOf(error, stepClock().now(), ++this.failures, this.env.GITHUB_API_URL);
    const first = !this.trouble;
    this.trouble = trouble;
    if (trouble.final) this.io.warning(`Commit statuses were not posted: ${trouble.words}`);
    else if (first) {
      this.io.info(
        `Commit statuses: ${trouble.words}; trying again in ${Math.ceil((trouble.retryAt - stepClock().now()) / 1000)} s.`,
      );
    }
  }

  /** The one warning for what is left unset when the step ends. */
  private warnUnset(): void {
    if (!this.sha || this.trouble?.final) return;
    const left = this.unposted();
    if (left.length === 0) return;
    const why = this.trouble
      ? this.trouble.words
      : this.budgetSkipped
        ? `this step's budget of ${POST_BUDGET} status posts is spent`
        : 'the step ended first';
    const shown = left.slice(0, 20).map((context) => {
      const posted = this.posted.get(context);
      return `\`${context}\` (${posted ? `still ${posted.state}` : 'never posted'})`;
    });
    // sync-statuses settles a context left pending (it finds it by its marker); one never posted it cannot find.
    const stillPending = left.some((context) => this.posted.get(context)?.state === 'pending');
    this.io.warning(
      `Commit statuses left unset on commit ${this.sha}: ${shown.join(', ')}${left.length > 20 ? `, … and ${left.length - 20} more` : ''}: ${why}. ` +
        'A re-run of this job posts them again' +
        (stillPending ? `; sync-statuses with \`commit: ${this.sha}\` settles those still pending.` : '.'),
    );
  }

  private async api(): Promise<{ octokit: Octokit; owner: string; repo: string }> {
    this.github ??= gitHubApi(this.githubToken, USER_AGENT);
    const { octokit } = await this.github;
    const [owner, repo] = (this.env.GITHUB_REPOSITORY ?? '').split('/');
    if (!owner || !repo) throw new Error('GITHUB_REPOSITORY does not name a repository');
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

function same(a: Status | undefined, b: Status): boolean {
  return a !== undefined && a.state === b.state && a.description === b.description;
}
