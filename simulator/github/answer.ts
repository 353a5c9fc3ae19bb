/**
 * How the stand-in answers one request, in GitHub's order: the body read, the tests' knobs, the
 * token (401), then for GraphQL its query (graphql.ts), for REST its route, the primary limit, the
 * permission (403), the secondary limit for a write, and the route's answer; every answer counted and
 * given the `x-ratelimit-*` headers of the budget it drew on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { errorBody, json, type Comment, type GitHubAnswer } from './model.js';
import {
  allowed,
  badCredentials,
  forbidden,
  identify,
  refusalMessage,
  type Identity,
  sourceOf,
} from './permissions.js';
import { headers as limitHeaders } from './limits.js';
import { countLine } from './counts.js';
import { REST_ROUTES } from './rest.js';
import { prepare, run } from './graphql.js';
import type { AnsweringState } from './state.js';

/** One request, `path` relative to the stand-in's address (`/repos/acme/app/statuses/<sha>`). */
export function answerRequest(
  github: AnsweringState,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  raw: string,
): GitHubAnswer {
  let body: Record<string, unknown> | undefined;
  try {
    body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
  } catch {
    return json(400, errorBody('Problems parsing JSON'));
  }
  github.requests.push({
    method,
    path,
    authorization: headers.authorization,
    body: body as { body?: string },
  });
  if (github.failWith) return json(github.failWith, { message: 'Resource not accessible by integration' });
  const [pathname, search = ''] = path.split('?');
  const isStatus = /^\/repos\/[^/]+\/[^/]+\/(statuses\/|commits\/[^/]+\/statuses$)/.test(pathname);
  if (isStatus && github.failStatusesWith)
    return json(github.failStatusesWith, { message: 'Resource not accessible by integration' });
  if (isStatus && method === 'POST') {
    const next = github.nextStatusAnswers.shift();
    if (next) return json(next.status, { message: next.message ?? 'Bad Gateway' }, next.headers);
  }
  const who = identify(headers.authorization, github.settings, github.viewer);
  if (!who) return badCredentials();
  if (pathname === '/graphql' && method === 'POST') return graphql(github, who, body);
  const now = github.now();
  for (const route of REST_ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match || route.method !== method) continue;
    const repository = `${decodeURIComponent(match[1])}/${decodeURIComponent(match[2])}`;
    const counted = (answer: GitHubAnswer): GitHubAnswer =>
      count(github, repository, who, route.write ? 'rest-write' : 'rest-read', 0, answer);
    const { budget, spent } = github.rateLimits.spend(who, 'core', 1, now);
    if (!spent) return counted(github.rateLimits.primaryRefusal(who, budget));
    const rate = limitHeaders(budget);
    if (!allowed(who, route.access, repository, github.settings))
      return counted(withHeaders(forbidden(who, route.access, route.docs), rate));
    if (route.write) {
      const write = github.rateLimits.write(repository, now);
      if (write.refused) return counted(github.rateLimits.secondaryRefusal(write.retryAfter, budget));
    }
    const request = {
      method,
      repository,
      match,
      query: new URLSearchParams(search),
      body,
      headers,
      now,
      viewer: viewerOf(who),
      source: sourceOf(who),
    };
    return counted(withHeaders(route.handle(github, request), rate));
  }
  return json(404, errorBody('Not Found'));
}

function graphql(
  github: AnsweringState,
  who: Identity,
  body: Record<string, unknown> | undefined,
): GitHubAnswer {
  const now = github.now();
  const repository = who.repository ?? github.settings.repository;
  const prepared = prepare(body);
  const points = prepared.ok ? prepared.cost.cost : 1;
  const counted = (answer: GitHubAnswer): GitHubAnswer =>
    count(github, repository, who, 'graphql', points, answer);
  const { budget, spent } = github.rateLimits.spend(who, 'graphql', points, now);
  if (!spent) return counted(github.rateLimits.graphqlPrimaryRefusal(who, budget));
  const rate = limitHeaders(budget);
  if (!prepared.ok) return counted(json(200, { errors: prepared.errors }, rate));
  if (prepared.cost.mutation) {
    const write = github.rateLimits.write(repository, now);
    if (write.refused) return counted(github.rateLimits.secondaryRefusal(write.retryAfter, budget, true));
  }
  const result = run(prepared, {
    viewer: who.login,
    now,
    statuses: github.statuses,
    pullRequests: (name) => github.openPullRequests(name),
    rateLimit: {
      limit: budget.limit,
      remaining: budget.remaining,
      used: budget.used,
      resetAt: new Date(budget.reset * 1000).toISOString(),
    },
    refusal: (permission, name) =>
      allowed(who, { [permission]: 'read' }, name, github.settings) ? null : refusalMessage(who),
  });
  return counted(json(200, result, rate));
}

/** Counts a request; the answer goes on with the repository's counts for the log. */
function count(
  github: AnsweringState,
  repository: string,
  who: Identity,
  kind: 'rest-read' | 'rest-write' | 'graphql',
  points: number,
  answer: GitHubAnswer,
): GitHubAnswer {
  const refused = answer.status >= 400 || (answer.status === 200 && /^\{"errors":/.test(answer.body));
  github.tally.add(repository, who.label, kind, points, refused);
  const note = countLine(repository, github.tally.total(repository));
  if (/secondary rate limit|rate limit (already )?exceeded/.test(answer.body))
    github.log?.(`GitHub: a rate limit refused a request of ${who.label} (${answer.status}); ${note}`);
  return { ...answer, note };
}

function withHeaders(answer: GitHubAnswer, headers: Record<string, string>): GitHubAnswer {
  return { ...answer, headers: { ...headers, ...answer.headers } };
}

/** The account as REST names it. */
function viewerOf(who: Identity): Comment['user'] {
  return { login: who.login, type: who.kind === 'user' ? 'User' : 'Bot' };
}
