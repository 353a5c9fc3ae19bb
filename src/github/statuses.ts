/**
 * Commit statuses (`commit-statuses: true`): one per context on the commit under review, so that a
 * ruleset can require a named remote job. Statuses, not check runs: a status is keyed by commit and
 * context and updated in place, and belongs to no check suite (a check run made with the job's token
 * joins whatever suite exists for that commit).
 *
 * What a context should say is set at any time (`set`); only a change is posted, in order, one
 * request at a time. A status that cannot be posted is one warning naming the cause, and no more
 * statuses are posted by this step: the gate's own result decides the step, never a status.
 */
import type { ActionIO } from './io.js';
import { gitHubApi, type Octokit } from './github-api.js';
import { USER_AGENT } from './service-client.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { oneLine } from '../text/plain.js';

export type StatusState = 'pending' | 'success' | 'failure' | 'error';

/** GitHub's limit for a status's description. */
const MAX_DESCRIPTION = 140;
const MAX_TARGET_URL = 2048;

interface Status {
  state: StatusState;
  description: string;
}

export class CommitStatuses {
  private readonly wanted = new Map<string, Status>();
  private readonly posted = new Map<string, Status>();
  private queue: Promise<void> = Promise.resolve();
  private failed = false;
  /** A flush is queued and has not started: a later `set` is caught by it, so none is queued again. */
  private flushQueued = false;
  private github: ReturnType<typeof gitHubApi> | undefined;
  private sha: string | undefined;
  private targetUrl = '';

  constructor(
    private readonly io: ActionIO,
    private readonly githubToken: string,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  get commit(): string | undefined {
    return this.sha;
  }

  /** The commit the statuses go on; nothing is posted before it is known. */
  onCommit(sha: string): void {
    if (this.sha) return;
    this.sha = sha;
    this.sync();
  }

  /** The run's page on the service, the link of every status (an http(s) URL only). */
  linkTo(url: string): void {
    if (/^https?:\/\/\S+$/.test(url) && url.length <= MAX_TARGET_URL) this.targetUrl = url;
  }

  /** What `context` should say; posted when it differs from what was last posted. */
  set(context: string, state: StatusState, description: string): void {
    this.wanted.set(context, { state, description: oneLine(description, MAX_DESCRIPTION) });
    this.sync();
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
   * Waits until everything wanted is posted, or `withinMs` has passed (a cancelled step has a few
   * seconds before the runner's SIGTERM); returns the contexts left unposted.
   */
  async settle(withinMs = 2 * REQUEST_TIMEOUT_MS): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
    await Promise.race([this.queue, timeout]);
    clearTimeout(timer);
    if (!this.sha || this.failed) return [];
    return [...this.wanted]
      .filter(([context, status]) => !same(this.posted.get(context), status))
      .map(([c]) => c);
  }

  async dispose(): Promise<void> {
    if (this.github) (await this.github.catch(() => undefined))?.dispose();
  }

  /**
   * Queues one flush of what changed. A poll of a large run sets every job's context: they are all
   * posted by the one flush, not one flush (each walking every context) per `set`.
   */
  private sync(): void {
    if (!this.sha || this.failed || this.flushQueued) return;
    this.flushQueued = true;
    this.queue = this.queue.then(() => {
      this.flushQueued = false;
      return this.postChanges();
    });
  }

  private async postChanges(): Promise<void> {
    for (const [context, status] of this.wanted) {
      if (this.failed) return;
      if (same(this.posted.get(context), status)) continue;
      try {
        await this.post(context, status);
        this.posted.set(context, status);
      } catch (error) {
        this.failed = true;
        this.io.warning(
          `Commit statuses were not posted: ${cause(error)} The gate's own result decides the step.`,
        );
      }
    }
  }

  private async post(context: string, status: Status): Promise<void> {
    this.github ??= gitHubApi(this.githubToken, USER_AGENT);
    const { octokit } = await this.github;
    const [owner, repo] = (this.env.GITHUB_REPOSITORY ?? '').split('/');
    if (!owner || !repo) throw new Error('GITHUB_REPOSITORY does not name a repository');
    await createStatus(octokit, {
      owner,
      repo,
      sha: this.sha!,
      context,
      state: status.state,
      description: status.description,
      ...(this.targetUrl ? { target_url: this.targetUrl } : {}),
    });
  }
}

interface StatusRequest {
  owner: string;
  repo: string;
  sha: string;
  context: string;
  state: StatusState;
  description: string;
  target_url?: string;
}

function createStatus(octokit: Octokit, status: StatusRequest): Promise<unknown> {
  return octokit.rest.repos.createCommitStatus({
    ...status,
    request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
  });
}

function same(a: Status | undefined, b: Status): boolean {
  return a !== undefined && a.state === b.state && a.description === b.description;
}

/** Why a status could not be posted, in words; GitHub's own message is not repeated (it may echo input). */
function cause(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 403 || status === 404)
    return `GitHub answered ${status}: the github-token needs the \`statuses: write\` permission (\`permissions: statuses: write\` in the workflow or job).`;
  if (status === 422)
    return 'GitHub refused a status (422): the commit is not in this repository, or it has too many statuses.';
  if (typeof status === 'number') return `GitHub answered ${status}.`;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `GitHub's API could not be reached (${oneLine(typeof code === 'string' ? code : message, 120)}).`;
}
