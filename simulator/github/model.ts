/**
 * What GitHub's stand-in holds (comments, statuses, pull requests, dispatches), the accounts it
 * names, and the JSON answer every module of it builds. No behaviour beyond the shapes: the rules are
 * in the modules named for them (pages, statuses, permissions, limits, graphql, counts).
 */

export interface Comment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string; type: 'User' | 'Bot' };
}

export const BOT = { login: 'github-actions[bot]', type: 'Bot' } as const;
export const AUTHOR = { login: 'pr-author', type: 'User' } as const;

/** A commit status as GitHub received it (`POST /repos/:owner/:repo/statuses/:sha`). */
export interface PostedStatus {
  sha: string;
  context: string;
  state: string;
  description?: string;
  target_url?: string;
  /** Who posted it: the viewer at the time (a test may seed another account's). */
  creator?: { login: string };
  /** The source a ruleset sees behind the token that posted it (GitHub Actions, an app, a user). */
  source?: string;
  /** `owner/repo`; a status a test pushed without one belongs to every repository (the old tests'). */
  repository?: string;
  /** Its id; a pushed status without one takes its place among all statuses (from 1). */
  id?: number;
  /** Its GraphQL node id (a StatusContext's `id`); derived from `id` when absent. */
  node_id?: string;
  /** ISO time of its creation (`created_at`, GraphQL's `createdAt`), from the stand-in's clock. */
  created_at?: string;
  /** Epoch ms at which the stand-in received it, on its clock (tests assert the pacing of writes). */
  receivedAt?: number;
}

/** A repository_dispatch event as GitHub accepted it (`POST /repos/:owner/:repo/dispatches`). */
export interface ReceivedDispatch {
  event_type: string;
  client_payload: Record<string, unknown>;
  authorization?: string;
}

/** A pull request the stand-in holds: what the action reads of one (its number and head commit). */
export interface PullRequest {
  owner: string;
  repo: string;
  number: number;
  /** The head commit (`pull_request.head.sha`), whose statuses the pull request shows. */
  head: string;
  title: string;
  /** Its head branch (`headRefName`); default `pr-<number>`. */
  headRef?: string;
  /** Its base branch (`baseRefName`); default `main`. */
  baseRef?: string;
  /** When it was opened (ISO); the stand-in's clock at addPullRequest() unless given. */
  created_at?: string;
  /**
   * The head commit of its merge-queue entry, when a world puts it in the queue (GraphQL's
   * `mergeQueueEntry { headCommit }`); absent: not queued (`mergeQueueEntry: null`); `head` empty:
   * queued, its commit not built yet (`headCommit: null`). `GitHubStandIn.enqueue` builds one.
   */
  queue?: { head: string; position?: number; state?: string; ref?: string };
}

/**
 * GitHub's limit on a dispatch's `client_payload`: "The total size of the JSON payload must be less
 * than 64KB" (REST API description, repos/create-dispatch-event).
 */
export const CLIENT_PAYLOAD_LIMIT = 64 * 1024;

/** An answer of the stand-in, before it is written. */
export interface GitHubAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What the simulator's log adds to the request's line: the repository's counts so far. */
  note?: string;
}

export function json(status: number, data: unknown, headers: Record<string, string> = {}): GitHubAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(data),
  };
}

/** Where GitHub's REST documentation lives: every error body links a page of it. */
export const DOCS = 'https://docs.github.com/rest';

/** GitHub's error shape (`basic-error`): a message and the page that documents the route. */
export function errorBody(
  message: string,
  page = DOCS,
): { message: string; documentation_url: string; status?: string } {
  return { message, documentation_url: page };
}

/** A number stable for a name (the account ids GitHub gives; any positive integer would do). */
export function idOf(name: string): number {
  let hash = 7;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 2_000_000_000;
  return hash + 1;
}

/**
 * An account as REST shows it (`simple-user`: every field GitHub's description requires). A Bot's
 * login keeps its `[bot]` in REST (docs: rest/users, "github-actions[bot]" in the examples).
 */
export function simpleUser(user: { login: string; type?: string }): Record<string, unknown> {
  const type = user.type ?? (user.login.endsWith('[bot]') ? 'Bot' : 'User');
  const id = idOf(user.login);
  const api = `https://api.github.com/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id,
    node_id: nodeId(type === 'Bot' ? 'BOT' : 'U', id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `https://github.com/${encodeURIComponent(user.login)}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    site_admin: false,
  };
}

/** A node id in GitHub's current form (a type prefix, `_`, then an opaque part). */
export function nodeId(prefix: string, id: number): string {
  return `${prefix}_${Buffer.from(`svc-standin:${id}`).toString('base64url')}`;
}
