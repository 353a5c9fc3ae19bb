/**
 * Who a token is and what it may do, and GitHub's refusals
 * (docs.github.com/en/rest/authentication/permissions-required-for-github-apps and
 * docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api):
 * - a token GitHub does not know: 401 "Bad credentials";
 * - a permission the token lacks: 403 "Resource not accessible by integration" (an app's or a
 *   workflow's token) or "Resource not accessible by personal access token", with
 *   `x-accepted-github-permissions` naming what the route accepts (alternatives separated by `; `,
 *   as `issues=write; pull_requests=write` for an issue comment);
 * - a read of a public repository needs no permission ("Public repositories: read access is
 *   granted to all", permissions-required-for-fine-grained-personal-access-tokens);
 * - in GraphQL, the field is null and `errors` holds `{ type: 'FORBIDDEN', path, message }` with the
 *   same words (docs.github.com/en/graphql/overview/resource-limitations does not list it: reported,
 *   github/docs#22607 shows GraphQL's `type`d errors).
 */
import { BOT, errorBody, json, type GitHubAnswer } from './model.js';
import {
  GITHUB_TOKEN_PERMISSIONS,
  type GitHubSettings,
  type Level,
  type Permission,
  type TokenSettings,
} from './settings.js';

/** What a route accepts: any one of these permissions at the level given. */
export type Access = Partial<Record<Permission, Exclude<Level, 'none'>>>;

/** A token as the stand-in knows it, never its value (the log and the counts name `label`). */
export interface Identity {
  login: string;
  kind: NonNullable<TokenSettings['kind']>;
  permissions: Partial<Record<Permission, Level>>;
  /** The repository of a workflow token; absent for a user's or an installation's own. */
  repository?: string;
  /** How counts and the log name it: `kind:login`. */
  label: string;
}

/** The token of `authorization` (`token X` or `Bearer X`), or null: GitHub's 401. */
export function identify(
  authorization: string | undefined,
  settings: GitHubSettings,
  fallback: { login: string; type: string } = BOT,
): Identity | null {
  const value = authorization?.replace(/^(token|bearer)\s+/i, '').trim() ?? '';
  const known = value ? settings.tokens[value] : undefined;
  if (!known && settings.unknownTokens === 'refuse') return null;
  // A token the world does not name is the account `fallback` says (the stand-in's `viewer`).
  const token: TokenSettings = known ?? {
    login: fallback.login,
    kind: fallback.type === 'Bot' ? 'installation' : 'user',
  };
  const kind = token.kind ?? 'installation';
  const login = token.login ?? BOT.login;
  return {
    login,
    kind,
    permissions: token.permissions ?? GITHUB_TOKEN_PERMISSIONS,
    ...(kind === 'user' ? {} : { repository: token.repository ?? settings.repository }),
    label: `${kind}:${login}`,
  };
}

/**
 * The source a ruleset would see behind a token (issue 40 item 4): a repository's workflow token posts
 * as the GitHub Actions app, an app's token as that app, a personal token as its user. A ruleset can
 * require a status to come from an app; GitHub offers one as a source only once it has submitted a
 * check run (reported), so only "GitHub Actions" or "any source" fit a commit status of this action.
 */
export function sourceOf(who: Identity): string {
  if (who.kind === 'user') return `user ${who.login} (personal access token)`;
  if (who.login === BOT.login) return 'GitHub Actions (GITHUB_TOKEN)';
  return `app ${who.login.replace(/\[bot\]$/, '')}`;
}

const RANK: Record<Level, number> = { none: 0, read: 1, write: 2 };

/** Whether `who` may do what `access` needs on `repository`. */
export function allowed(
  who: Identity,
  access: Access,
  repository: string,
  settings: GitHubSettings,
): boolean {
  const entries = Object.entries(access) as Array<[Permission, Level]>;
  if (entries.length === 0) return true;
  const isPublic = settings.publicRepositories.some((r) => r.toLowerCase() === repository.toLowerCase());
  if (isPublic && entries.every(([, level]) => level === 'read')) return true;
  return entries.some(([permission, level]) => RANK[who.permissions[permission] ?? 'none'] >= RANK[level]);
}

/** GitHub's words for a refusal to this kind of token. */
export function refusalMessage(who: Identity): string {
  return who.kind === 'user'
    ? 'Resource not accessible by personal access token'
    : 'Resource not accessible by integration';
}

/** The 403 of a missing permission, as GitHub gives it. */
export function forbidden(who: Identity, access: Access, docs: string): GitHubAnswer {
  const accepted = Object.entries(access)
    .map(([permission, level]) => `${permission}=${level}`)
    .join('; ');
  return json(
    403,
    { ...errorBody(refusalMessage(who), docs), status: '403' },
    {
      'x-accepted-github-permissions': accepted,
    },
  );
}

/** GitHub's 401. */
export function badCredentials(): GitHubAnswer {
  return json(401, { ...errorBody('Bad credentials', 'https://docs.github.com/rest'), status: '401' });
}
