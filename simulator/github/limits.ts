/**
 * GitHub's rate limits, on the stand-in's clock.
 *
 * Primary (docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api, "Primary rate
 * limit for GITHUB_TOKEN in GitHub Actions": 1,000 requests an hour per repository; a personal
 * token: its user's 5,000; an app installation: at least 5,000; and
 * docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api: points, the
 * same figures): one budget per repository for its workflow tokens, per user, per installation, and
 * per resource (`core`, `graphql`), in hour windows from the first request. Every answer carries
 * `x-ratelimit-limit`, `-remaining`, `-used`, `-reset` (epoch seconds) and `-resource`. Past it: REST
 * 403 or 429 with `x-ratelimit-remaining: 0` and "API rate limit exceeded for …"; GraphQL a 200 whose
 * `errors` hold `{ type: 'RATE_LIMITED' }` (reported: github/docs#22607; yanyongyu/githubkit#271
 * reports `RATE_LIMIT` too).
 *
 * Secondary (the same REST page, "About secondary rate limits": "No more than 80 content-generating
 * requests per minute and no more than 500 content-generating requests per hour"): writes counted per
 * repository (the stricter reading of a scope GitHub does not state), in sliding windows. Past them: 403
 * or 429 with "You have exceeded a secondary rate limit", with `retry-after` or without ("If the
 * retry-after response header is present …; otherwise wait at least one minute"), as the world says.
 */
import { errorBody, json, type GitHubAnswer } from './model.js';
import type { Identity } from './permissions.js';
import type { GitHubLimits } from './settings.js';

export type Resource = 'core' | 'graphql';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const LIMIT_DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';
const SECONDARY_DOCS = `${LIMIT_DOCS}#about-secondary-rate-limits`;

export const SECONDARY_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.';

interface Window {
  start: number;
  used: number;
}

export interface Budget {
  limit: number;
  used: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
  resource: Resource;
}

export class RateLimits {
  private readonly windows = new Map<string, Window>();
  private readonly writes = new Map<string, number[]>();
  private secondaryRefusals = 0;

  constructor(private readonly limits: () => GitHubLimits) {}

  reset(): void {
    this.windows.clear();
    this.writes.clear();
    this.secondaryRefusals = 0;
  }

  /** Whose budget a token draws on: its repository's (a workflow token), its user's, its installation's. */
  static bucket(who: Identity): string {
    if (who.kind === 'user') return `user:${who.login}`;
    if (who.kind === 'app' || !who.repository) return `installation:${who.login}`;
    return `repository:${who.repository.toLowerCase()}`;
  }

  private window(who: Identity, resource: Resource, now: number): { window: Window; limit: number } {
    const key = `${RateLimits.bucket(who)}|${resource}`;
    let window = this.windows.get(key);
    if (!window || now >= window.start + HOUR) {
      window = { start: now, used: 0 };
      this.windows.set(key, window);
    }
    const limits = this.limits();
    const repository = who.kind === 'installation' && who.repository;
    const limit = repository ? (resource === 'core' ? limits.rest : limits.graphql) : limits.user;
    return { window, limit };
  }

  /** The budget as it stands, without spending. */
  peek(who: Identity, resource: Resource, now: number): Budget {
    const { window, limit } = this.window(who, resource, now);
    return budget(window, limit, resource);
  }

  /** Spends `cost` if it fits: the budget after, and whether it was spent. */
  spend(who: Identity, resource: Resource, cost: number, now: number): { budget: Budget; spent: boolean } {
    const { window, limit } = this.window(who, resource, now);
    if (window.used + cost > limit) return { budget: budget(window, limit, resource), spent: false };
    window.used += cost;
    return { budget: budget(window, limit, resource), spent: true };
  }

  /**
   * Counts a write to `repository`, or refuses it past a secondary limit: the seconds until a write
   * fits again (a refused write is not counted).
   */
  write(repository: string, now: number): { refused: false } | { refused: true; retryAfter: number } {
    const key = repository.toLowerCase();
    const { writesPerMinute, writesPerHour } = this.limits();
    const times = (this.writes.get(key) ?? []).filter((t) => t > now - HOUR);
    this.writes.set(key, times);
    const lastMinute = times.filter((t) => t > now - MINUTE);
    let until = 0;
    if (lastMinute.length >= writesPerMinute)
      until = lastMinute[lastMinute.length - writesPerMinute] + MINUTE;
    if (times.length >= writesPerHour) until = Math.max(until, times[times.length - writesPerHour] + HOUR);
    if (until > 0) return { refused: true, retryAfter: Math.max(1, Math.ceil((until - now) / 1000)) };
    times.push(now);
    return { refused: false };
  }

  /** The REST refusal past a primary limit. */
  primaryRefusal(who: Identity, budget: Budget): GitHubAnswer {
    const whose = who.kind === 'user' ? 'user ID' : 'installation ID';
    return json(
      this.limits().primaryStatus,
      errorBody(
        `API rate limit exceeded for ${whose} ${idNumber(who.login)}. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000 and timestamp ${new Date(budget.reset * 1000 - HOUR).toISOString()}.`,
        LIMIT_DOCS,
      ),
      headers(budget),
    );
  }

  /** GraphQL's answer past its primary limit: a 200 whose errors say so. */
  graphqlPrimaryRefusal(who: Identity, budget: Budget): GitHubAnswer {
    const whose = who.kind === 'user' ? 'user ID' : 'installation ID';
    return json(
      200,
      {
        errors: [
          {
            type: 'RATE_LIMITED',
            message: `API rate limit already exceeded for ${whose} ${idNumber(who.login)}.`,
          },
        ],
      },
      headers(budget),
    );
  }

  /** A refusal past a secondary limit; `graphql` answers as GitHub's GraphQL does (200 or 403). */
  secondaryRefusal(retryAfter: number, budget: Budget, graphql = false): GitHubAnswer {
    const n = this.secondaryRefusals++;
    const { secondaryStatus, secondaryRetryAfter } = this.limits();
    const status = secondaryStatus === 'alternate' ? (n % 2 === 0 ? 403 : 429) : secondaryStatus;
    const withRetry =
      secondaryRetryAfter === 'always' || (secondaryRetryAfter === 'alternate' && n % 2 === 0);
    const extra = { ...headers(budget), ...(withRetry ? { 'retry-after': String(retryAfter) } : {}) };
    if (graphql && status === 429)
      return json(200, { errors: [{ type: 'RATE_LIMITED', message: SECONDARY_MESSAGE }] }, extra);
    return json(status, errorBody(SECONDARY_MESSAGE, SECONDARY_DOCS), extra);
  }
}

function budget(window: Window, limit: number, resource: Resource): Budget {
  return {
    limit,
    used: window.used,
    remaining: Math.max(0, limit - window.used),
    reset: Math.ceil((window.start + HOUR) / 1000),
    resource,
  };
}

/** GitHub's `x-ratelimit-*` headers of a budget. */
export function headers(budget: Budget): Record<string, string> {
  return {
    'x-ratelimit-limit': String(budget.limit),
    'x-ratelimit-remaining': String(budget.remaining),
    'x-ratelimit-used': String(budget.used),
    'x-ratelimit-reset': String(budget.reset),
    'x-ratelimit-resource': budget.resource,
  };
}

function idNumber(login: string): number {
  let hash = 11;
  for (const char of login) hash = (hash * 31 + char.charCodeAt(0)) % 90_000_000;
  return hash + 10_000_000;
}
