/**
 * GitHub's side, locally, answering as GitHub does (issue 39): the REST routes the action uses
 * (rest.ts: commit statuses, issue comments, pull requests, a repository dispatch, refs), GraphQL
 * executed against GitHub's published schema (graphql.ts), and GitHub's refusals: tokens and
 * permissions (permissions.ts), primary and secondary rate limits (limits.ts), pages (pages.ts),
 * the 422s of statuses and refs (status-rules.ts). Each module cites the GitHub page it follows.
 *
 * A world sets what differs from GitHub's defaults (settings.ts: tokens, public repositories,
 * limits, the clock, known commits, rulesets) with the constructor or `configure()`; tests keep
 * their older knobs (`failWith`, `failStatusesWith`, `nextStatusAnswers`, `failNextDispatches`,
 * `viewer`), which answer before any rule.
 *
 * One implementation: the simulator serves it under `/_github` (`sim.github`, its `url` is the
 * `GITHUB_API_URL` to give the action), and a test that needs GitHub alone starts it on a port of its
 * own (`start()`). Every request is recorded in `requests` with the token it carried, so a test can
 * say what reached GitHub, and counted (`counts()`) by repository, token and kind; it is not in
 * `sim.requests` (the service's) and neither the log nor the counts show a token.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BOT,
  json,
  type Comment,
  type GitHubAnswer,
  type PostedStatus,
  type PullRequest,
  type ReceivedDispatch,
} from './model.js';
import { githubSettings, type GitHubWorldSettings, type GitHubSettings } from './settings.js';
import { RateLimits } from './limits.js';
import { Counts, type GitHubCount } from './counts.js';
import { contextKey, latestPerContext } from './statuses.js';
import { restPullRequest, restPullRequestFull, restRef } from './shapes.js';
import type { AnsweringState, Place } from './state.js';
import { answerRequest } from './answer.js';
import {
  mergeGroupPayload,
  queueBranch,
  queueCommitMessage,
  type QueueEntry,
  type QueueRepository,
} from './merge-queue.js';

export * from './model.js';
export type { GitHubCount } from './counts.js';
export type { QueueEntry, QueueRepository } from './merge-queue.js';
export type { GitHubSettings, GitHubWorldSettings, TokenSettings, GitHubLimits } from './settings.js';
export { DEFAULT_LIMITS, GITHUB_TOKEN_PERMISSIONS } from './settings.js';

const MAX_BODY_BYTES = 1024 * 1024;

export class GitHubStandIn implements AnsweringState {
  comments: Comment[] = [];
  statuses: PostedStatus[] = [];
  dispatches: ReceivedDispatch[] = [];
  /** The open pull requests, oldest first; see addPullRequest(). */
  pullRequests: PullRequest[] = [];
  /** The names of the refs created (`POST /repos/:owner/:repo/git/refs`), any repository. */
  refs: string[] = [];
  /** Each ref created, `owner/repo:ref` (lower-case repository) → its commit. */
  readonly refShas = new Map<string, string>();
  /** Answers this many of the next dispatch requests with 503 (GitHub unreachable for a while). */
  failNextDispatches = 0;
  /** Answers every status request with this status (403: the token lacks `statuses: write`). */
  failStatusesWith: number | undefined;
  /** Answers for the next status posts, in order, before any is accepted (a 502, a rate limit). */
  nextStatusAnswers: Array<{ status: number; headers?: Record<string, string>; message?: string }> = [];
  /** The account of a token the world does not name (GITHUB_TOKEN: the Actions bot). */
  viewer: Comment['user'] = BOT;
  requests: Array<{ method: string; path: string; authorization?: string; body?: { body?: string } }> = [];
  /** Answers every request with this status. */
  failWith: number | undefined;
  /** The GITHUB_API_URL to give the action. */
  url = '';
  settings: GitHubSettings;
  /** Where the stand-in writes its lines (the simulator's log); none when alone. */
  log: ((line: string) => void) | undefined;
  private nextId = 1000;
  private readonly places = new Map<number, Place>();
  private readonly commits = new Map<string, Set<string>>();
  /** The rate-limit windows (limits.ts). */
  readonly rateLimits: RateLimits;
  /** What reached GitHub, counted (counts.ts). */
  readonly tally = new Counts();
  private server: Server | undefined;
  /** Where the merge queue builds its commits: the simulator's project's repository. */
  private queueRepository: QueueRepository | undefined;

  /** `url` is where the stand-in is reached (the simulator's `${url}/_github`); empty until started. */
  constructor(url = '', settings: GitHubWorldSettings = {}) {
    this.url = url;
    this.settings = githubSettings(settings);
    this.rateLimits = new RateLimits(() => this.settings.limits);
  }

  /** Changes the world's settings (those given; the others stay). */
  configure(settings: GitHubWorldSettings): void {
    this.settings = githubSettings({
      ...this.settings,
      ...settings,
      limits: { ...this.settings.limits, ...settings.limits },
      tokens: { ...this.settings.tokens, ...settings.tokens },
    });
  }

  /** The stand-in's clock (epoch ms). */
  now(): number {
    return this.settings.now();
  }

  /** Opens (or replaces) a pull request: its page shows the statuses of `head` and its comments. */
  addPullRequest(pr: Omit<PullRequest, 'owner' | 'repo' | 'title'> & Partial<PullRequest>): PullRequest {
    const full: PullRequest = {
      owner: 'acme',
      repo: 'app',
      title: `Pull request #${pr.number}`,
      created_at: new Date(this.now()).toISOString(),
      ...pr,
    };
    this.pullRequests = this.pullRequests.filter(
      (p) => !(p.owner === full.owner && p.repo === full.repo && p.number === full.number),
    );
    this.pullRequests.push(full);
    return full;
  }

  pullRequest(owner: string, repo: string, number: number): PullRequest | undefined {
    return this.pullRequests.find((p) => p.owner === owner && p.repo === repo && p.number === number);
  }

  /** The open pull requests of `owner/repo`, oldest first. */
  openPullRequests(repository: string): PullRequest[] {
    const key = repository.toLowerCase();
    return this.pullRequests.filter((pr) => `${pr.owner}/${pr.repo}`.toLowerCase() === key);
  }

  /** Links the repository the merge queue builds its commits in (the simulator links its project's). */
  linkRepository(repository: QueueRepository): void {
    this.queueRepository = repository;
  }

  /**
   * Puts pull request `number` of `repository` in its base branch's merge queue, behind the entries
   * there (merge-queue.ts): its merge-group commit is built in the linked repository on the base
   * branch (or on the last entry's commit), the queue's branch points to it, GraphQL shows the entry,
   * and the `merge_group` event GitHub would send for it is returned.
   */
  async enqueue(
    number: number,
    repository = this.settings.repository,
  ): Promise<{ entry: QueueEntry; event: Record<string, unknown> }> {
    const [owner, repo] = repository.split('/');
    const pr = this.pullRequest(owner, repo, number);
    if (!pr) throw new Error(`enqueue: no open pull request #${number} in ${repository}`);
    if (!this.queueRepository) throw new Error('enqueue: the merge queue needs a linked repository');
    const baseRef = pr.baseRef ?? 'main';
    const ahead = this.openPullRequests(repository)
      .filter((other) => other.queue && other.number !== number && (other.baseRef ?? 'main') === baseRef)
      .sort((a, b) => (a.queue?.position ?? 0) - (b.queue?.position ?? 0));
    const baseSha =
      ahead.at(-1)?.queue?.head ?? (await this.queueRepository.commitOf(`refs/heads/${baseRef}`));
    if (!baseSha) throw new Error(`enqueue: the linked repository has no branch ${baseRef}`);
    const branch = queueBranch(baseRef, number, baseSha);
    const message = queueCommitMessage(number, pr.title, baseRef);
    const head = await this.queueRepository.mergeCommit({ base: baseSha, head: pr.head, branch, message });
    const entry: QueueEntry = {
      head,
      position: ahead.length + 1,
      state: 'AWAITING_CHECKS',
      ref: `refs/heads/${branch}`,
      baseSha,
      baseRef,
    };
    pr.queue = entry;
    this.addCommit(repository, head);
    this.refs.push(entry.ref);
    this.refShas.set(`${repository.toLowerCase()}:${entry.ref}`, head);
    this.log?.(
      `GitHub: pull request #${number} of ${repository} entered the merge queue: commit ${head} on ${branch}`,
    );
    const at = new Date(this.now()).toISOString();
    return { entry, event: mergeGroupPayload(repository, entry, message, at) };
  }

  /** A commit `repository` has (besides its pull requests' heads and queue heads). */
  addCommit(repository: string, sha: string): void {
    const key = repository.toLowerCase();
    if (!this.commits.has(key)) this.commits.set(key, new Set());
    this.commits.get(key)!.add(sha);
  }

  hasCommit(repository: string, sha: string): boolean {
    if (this.commits.get(repository.toLowerCase())?.has(sha)) return true;
    return this.openPullRequests(repository).some(
      (pr) => pr.head === sha || (pr.queue?.head || null) === sha,
    );
  }

  /** A comment on issue `issue` of `repository`, as its author `user` wrote it. */
  addComment(comment: { repository?: string; issue: number; body: string; user?: Comment['user'] }): Comment {
    const repository = comment.repository ?? this.settings.repository;
    const id = this.nextId++;
    const created: Comment = {
      id,
      body: comment.body,
      // GitHub's own form (`…/pull/<n>#issuecomment-<id>`), on the stand-in's pull request page, which
      // answers it with the comment's anchor: the link the action prints opens where the comment is.
      html_url: `${this.url || 'https://github.example'}/${repository}/pull/${comment.issue}#issuecomment-${id}`,
      user: comment.user ?? this.viewer,
    };
    const at = new Date(this.now()).toISOString();
    this.comments.push(created);
    this.places.set(id, { repository, issue: comment.issue, createdAt: at, updatedAt: at });
    return created;
  }

  /** Where a comment belongs; none for one a test pushed into `comments` (it is on every issue). */
  placeOf(comment: Comment): Place | undefined {
    return this.places.get(comment.id);
  }

  inRepository(comment: Comment, repository: string): boolean {
    const place = this.placeOf(comment);
    return !place || place.repository.toLowerCase() === repository.toLowerCase();
  }

  /** Marks a comment edited now. */
  touch(comment: Comment, now: number): void {
    const place = this.placeOf(comment);
    if (place) place.updatedAt = new Date(now).toISOString();
  }

  /** The comments on one issue or pull request of `repository` (default the world's), oldest first. */
  commentsOn(number: number, repository = this.settings.repository): Comment[] {
    return this.comments.filter((comment) => {
      const place = this.placeOf(comment);
      return (
        !place || (place.issue === number && place.repository.toLowerCase() === repository.toLowerCase())
      );
    });
  }

  /** The latest status of `context` on `sha` (compared case-insensitively, as GitHub does). */
  latest(sha: string, context: string): PostedStatus | undefined {
    return this.statuses
      .filter((posted) => posted.sha === sha && contextKey(posted.context) === contextKey(context))
      .at(-1);
  }

  /** Each context's latest state on `sha`, named as its latest status names it. */
  states(sha: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const posted of latestPerContext(this.statuses.filter((s) => s.sha === sha)))
      out[posted.context] = posted.state;
    return out;
  }

  /** What reached GitHub, per repository and token (or of one repository). */
  counts(repository?: string): GitHubCount[] {
    return this.tally.list(repository);
  }

  /** The counts of `repository` summed over its tokens. */
  totals(repository = this.settings.repository): ReturnType<Counts['total']> {
    return this.tally.total(repository);
  }

  /** Starts every rate-limit window afresh (a test's next case, whatever the last one spent). */
  resetLimits(): void {
    this.rateLimits.reset();
  }

  /** Forgets everything received and every pull request; the failure knobs go back to none. */
  reset(): void {
    this.comments = [];
    this.statuses = [];
    this.dispatches = [];
    this.pullRequests = [];
    this.refs = [];
    this.refShas.clear();
    this.requests = [];
    this.places.clear();
    this.commits.clear();
    this.rateLimits.reset();
    this.tally.reset();
    this.failNextDispatches = 0;
    this.failStatusesWith = undefined;
    this.nextStatusAnswers = [];
    this.failWith = undefined;
    this.viewer = BOT;
  }

  /** A pull request as REST lists it, or (`full`) as `GET /pulls/:n` gives it. */
  restPullRequest(pr: PullRequest, full = false): Record<string, unknown> {
    return (full ? restPullRequestFull : restPullRequest)(this.url, pr, this.now());
  }

  restRef(repository: string, ref: string): Record<string, unknown> {
    return restRef(this.url, repository, ref, this.refShas.get(`${repository.toLowerCase()}:${ref}`) ?? '');
  }

  /** One request, `path` relative to the stand-in's address (`/repos/acme/app/statuses/<sha>`): answer.ts. */
  answer(method: string, path: string, headers: IncomingHttpHeaders, raw: string): GitHubAnswer {
    return answerRequest(this, method, path, headers, raw);
  }

  /** Serves the stand-in alone on 127.0.0.1 (a test without a simulator); `url` is then its address. */
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      req.on('end', () => {
        const answer =
          size > MAX_BODY_BYTES
            ? json(413, { message: 'Request body too large' })
            : this.answer(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString());
        res.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
