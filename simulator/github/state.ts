/**
 * What the routes (rest.ts) and the rules (status-rules.ts) read and change of the stand-in: the
 * interface `GitHubStandIn` implements, so that they need not import it.
 */
import type { Comment, PostedStatus, PullRequest, ReceivedDispatch } from './model.js';
import type { GitHubSettings } from './settings.js';
import type { RateLimits } from './limits.js';
import type { Counts } from './counts.js';

/** Where a comment belongs: one issue of one repository, and its times. */
export interface Place {
  repository: string;
  issue: number;
  createdAt: string;
  updatedAt: string;
}

export interface StandInState {
  readonly url: string;
  readonly settings: GitHubSettings;
  comments: Comment[];
  statuses: PostedStatus[];
  dispatches: ReceivedDispatch[];
  refs: string[];
  readonly refShas: Map<string, string>;
  failNextDispatches: number;
  hasCommit(repository: string, sha: string): boolean;
  commentsOn(number: number, repository?: string): Comment[];
  addComment(comment: { repository?: string; issue: number; body: string; user?: Comment['user'] }): Comment;
  placeOf(comment: Comment): Place | undefined;
  inRepository(comment: Comment, repository: string): boolean;
  touch(comment: Comment, now: number): void;
  openPullRequests(repository: string): PullRequest[];
  pullRequest(owner: string, repo: string, number: number): PullRequest | undefined;
  restPullRequest(pr: PullRequest, full?: boolean): Record<string, unknown>;
  restRef(repository: string, ref: string): Record<string, unknown>;
}

/** What answering a request (answer.ts) reads and changes besides: the knobs, the limits, the counts. */
export interface AnsweringState extends StandInState {
  requests: Array<{ method: string; path: string; authorization?: string; body?: { body?: string } }>;
  failWith: number | undefined;
  failStatusesWith: number | undefined;
  nextStatusAnswers: Array<{ status: number; headers?: Record<string, string>; message?: string }>;
  viewer: Comment['user'];
  readonly rateLimits: RateLimits;
  readonly tally: Counts;
  log: ((line: string) => void) | undefined;
  now(): number;
}
