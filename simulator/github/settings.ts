/**
 * A world's GitHub: what a test, the demo or the CLI (`--github-rest-limit` and the others) sets of the
 * stand-in. Every setting has GitHub's own figure or behaviour as its default, except the tokens: a
 * token the world does not name is the repository's `GITHUB_TOKEN` (statuses, pull requests,
 * contents and issues as a workflow gets them by default) unless `unknownTokens: 'refuse'`, so the
 * tests written before the permissions keep working.
 */

export type Level = 'none' | 'read' | 'write';
export type Permission = 'statuses' | 'pull_requests' | 'contents' | 'issues';

/** A token the world knows: whose it is and what it may do. */
export interface TokenSettings {
  /** The account: a Bot's login with `[bot]` (REST's form). Default `github-actions[bot]`. */
  login?: string;
  /**
   * `installation`: a workflow's GITHUB_TOKEN (its repository's budget) or an app installation's
   * token with `repository` unset (the installation's budget); `user`: a personal access token (its
   * user's budget); `app`: an app installation's token. Default `installation`.
   */
  kind?: 'installation' | 'user' | 'app';
  /** What it may do; an unnamed permission is `none`. Default: GITHUB_TOKEN_PERMISSIONS. */
  permissions?: Partial<Record<Permission, Level>>;
  /** The repository whose workflow token it is (its budget); default the world's `repository`. */
  repository?: string;
}

export interface GitHubLimits {
  /** REST requests an hour of a repository's workflow tokens (GitHub: 1,000; 15,000 on Enterprise Cloud). */
  rest: number;
  /** GraphQL points an hour of a repository's workflow tokens (GitHub: 1,000). */
  graphql: number;
  /** Requests (and points) an hour of a user's personal tokens, and of an app installation (GitHub: 5,000). */
  user: number;
  /** Writes a minute, per repository (GitHub: 80 content-generating requests a minute). */
  writesPerMinute: number;
  /** Writes an hour, per repository (GitHub: 500 an hour). */
  writesPerHour: number;
  /** The status past a primary limit: GitHub answers 403 or 429. Default 403. */
  primaryStatus: 403 | 429;
  /** The status past a secondary limit; `alternate`: 403, then 429, then 403… Default alternate. */
  secondaryStatus: 403 | 429 | 'alternate';
  /** Whether a secondary refusal carries `retry-after`; `alternate`: with, without, with… */
  secondaryRetryAfter: 'always' | 'never' | 'alternate';
}

export const DEFAULT_LIMITS: GitHubLimits = {
  rest: 1000,
  graphql: 1000,
  user: 5000,
  writesPerMinute: 80,
  writesPerHour: 500,
  primaryStatus: 403,
  secondaryStatus: 'alternate',
  secondaryRetryAfter: 'alternate',
};

/** A workflow's GITHUB_TOKEN with the permissions the action's gate and sync ask for. */
export const GITHUB_TOKEN_PERMISSIONS: Record<Permission, Level> = {
  statuses: 'write',
  pull_requests: 'read',
  contents: 'write',
  issues: 'write',
};

export interface GitHubSettings {
  /** The stand-in's clock (epoch ms): the limits' windows, `created_at`, `receivedAt`. Default Date.now. */
  now: () => number;
  /** The repository a token's budget is of when nothing else says (GraphQL has no repository in its path). */
  repository: string;
  /** The tokens the world names, by their value. */
  tokens: Record<string, TokenSettings>;
  /** A token the world does not name: the repository's GITHUB_TOKEN (default), or 401 "Bad credentials". */
  unknownTokens: 'github-token' | 'refuse';
  /** Repositories (`owner/repo`) that are public: reads there need no permission. */
  publicRepositories: string[];
  limits: GitHubLimits;
  /**
   * Whether a status on a commit the repository does not have is refused (422). The repository has
   * its pull requests' heads and queue heads, and what `addCommit` adds. Default false: the older
   * tests post on commits they never declared.
   */
  knownCommitsOnly: boolean;
  /** Repositories whose ruleset refuses every new ref (422 "Repository rule violations found"). */
  refRulesets: string[];
  /**
   * The status contexts the world repository's ruleset requires: the pull request's page says whether
   * each is `success` on the head and on the merge queue's commit (what the queue waits for). Default none.
   */
  requiredContexts: string[];
}

/** What a world gives: any of the settings, and any of the limits. */
export type GitHubWorldSettings = Partial<Omit<GitHubSettings, 'limits'>> & {
  limits?: Partial<GitHubLimits>;
};

export function githubSettings(given: GitHubWorldSettings = {}): GitHubSettings {
  return {
    now: given.now ?? (() => Date.now()),
    repository: given.repository ?? 'acme/app',
    tokens: { ...given.tokens },
    unknownTokens: given.unknownTokens ?? 'github-token',
    publicRepositories: [...(given.publicRepositories ?? [])],
    limits: { ...DEFAULT_LIMITS, ...given.limits },
    knownCommitsOnly: given.knownCommitsOnly ?? false,
    refRulesets: [...(given.refRulesets ?? [])],
    requiredContexts: [...(given.requiredContexts ?? [])],
  };
}
