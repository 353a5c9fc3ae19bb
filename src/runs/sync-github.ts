/**
 * sync-statuses' requests to GitHub in one call: each counted against the call's bound, each
 * failure read by github-answers.ts. The sync waits at most once a call, for a limit that ends
 * within MAX_WAIT_MS; any other limit, a refused token, a missing permission, a failing or
 * unreachable GitHub stops the call's GitHub work (the next call tries again). A 404 or 422 is
 * about one commit: it stops nothing else.
 */
import type { Octokit } from '../github/github-api.js';
import { readAnswer, waitWithin, type GitHubAnswer, type Permission } from '../github/github-answers.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { stepClock } from '../text/clock.js';

/** The longest wait for a limit, once a call: a limit that lasts longer is the next call's. */
export const MAX_WAIT_MS = 60_000;

/**
 * Requests a call makes to GitHub at most: GraphQL queries (100 open pull requests each, so 2,000
 * open pull requests) and REST requests (the posts and the read-backs), of which posts at most
 * MAX_WRITES. With nothing pending a call makes one query per 100 open pull requests and nothing
 * else. See sync-statuses/README.md for what they come to in an hour.
 */
export const MAX_QUERIES = 20;
export const MAX_REST = 40;
export const MAX_WRITES = 30;

/** A request GitHub answered with `answer`; `stops` when the call's GitHub work stopped with it. */
export class GitHubRefusal extends Error {
  constructor(
    readonly answer: GitHubAnswer,
    readonly need: Permission,
    readonly stops: boolean,
  ) {
    super(answer.kind);
  }
}

export interface GitHubRepo {
  octokit: Octokit;
  owner: string;
  repo: string;
}

export class SyncGitHub {
  queries = 0;
  rest = 0;
  writes = 0;
  /** What stopped the call's GitHub work. */
  stopped: GitHubRefusal | undefined;
  private waited = false;

  constructor(
    readonly repo: GitHubRepo,
    private readonly signal?: AbortSignal,
  ) {}

  /** Whether the call's bound leaves room for this many more REST requests and writes. */
  room(rest: number, writes = 0): boolean {
    return this.rest + rest <= MAX_REST && this.writes + writes <= MAX_WRITES;
  }

  /** One request; throws GitHubRefusal when GitHub's answer is a failure (after one wait, when worth it). */
  async send<T>(
    kind: 'query' | 'read' | 'write',
    need: Permission,
    request: (options: { signal: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    if (this.stopped) throw this.stopped;
    for (;;) {
      if (kind === 'query') this.queries++;
      else this.rest++;
      if (kind === 'write') this.writes++;
      try {
        const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        return await request({ signal: this.signal ? AbortSignal.any([signal, this.signal]) : signal });
      } catch (error) {
        if (this.signal?.aborted) throw error;
        const answer = readAnswer(error, need, stepClock().now());
        const wait = this.waited ? undefined : waitWithin(answer, stepClock().now(), MAX_WAIT_MS);
        if (wait !== undefined) {
          this.waited = true;
          await stepClock().sleep(wait, this.signal);
          continue;
        }
        const stops = answer.kind !== 'not-found' && answer.kind !== 'validation';
        const refusal = new GitHubRefusal(answer, need, stops);
        if (stops) this.stopped = refusal;
        throw refusal;
      }
    }
  }
}
