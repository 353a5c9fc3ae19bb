/**
 * The stand-in held to GitHub's own descriptions (issue 39, part 1): every route it serves, with
 * every status it gives there (its refusals and 422s included), answers a body that validates against
 * GitHub's OpenAPI description of that route and status (testkit/world/github-openapi.ts says which
 * schema a status the route does not list is held to); and its GraphQL refuses exactly what
 * `@octokit/graphql-schema`'s own `validate` refuses.
 */
import { describe, expect, it } from '@jest/globals';
import { validate } from '@octokit/graphql-schema';
import { GitHubDescription } from '../../testkit/world/github-openapi.js';
import { REST_ROUTES } from '../../simulator/github/rest.js';
import { SHA, standIn, status, type Answer } from './github-helpers.js';

/** The OpenAPI path of the route a request reaches (each route names its own). */
function openapiPath(method: string, path: string): string {
  const pathname = path.split('?')[0];
  const route = REST_ROUTES.find((r) => r.method === method && r.pattern.test(pathname));
  return route?.openapi ?? '/repos/{owner}/{repo}'; // an unknown route: GitHub's 404 for a repository's path
}

describe('the stand-in against GitHub’s OpenAPI description', () => {
  it('every route and status it answers validates against GitHub’s description of it', () => {
    const description = new GitHubDescription();
    const world = standIn({
      tokens: {
        'ghs-readonly': { permissions: { statuses: 'read', pull_requests: 'none', contents: 'read' } },
        pat: { kind: 'user', login: 'octo-dev', permissions: {} },
      },
      refRulesets: ['acme/locked'],
      limits: { writesPerMinute: 40 },
    });
    const { github, rest, advance } = world;
    const seen: Array<{ method: string; path: string; answer: Answer }> = [];
    const ask = (method: string, path: string, options: { body?: unknown; token?: string } = {}): Answer => {
      const answer = rest(method, path, options);
      seen.push({ method, path, answer });
      return answer;
    };
    github.addPullRequest({ number: 7, head: SHA, title: 'Add the gate' });

    // Statuses: created, listed, refused (422s, permission, secondary limit, unknown commit).
    expect(
      ask('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a', 'pending', 'Queued') }).status,
    ).toBe(201);
    ask('GET', `/repos/acme/app/commits/${SHA}/statuses`);
    ask('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a', 'pending', 'x'.repeat(141)) });
    ask('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a', 'bogus') });
    for (let n = 0; n < 1000; n++)
      github.statuses.push({ sha: SHA, context: 'full', state: 'pending', repository: 'acme/app' });
    ask('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('full') });
    ask('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a'), token: 'ghs-readonly' });
    ask('GET', `/repos/acme/app/commits/${SHA}/statuses`, { token: 'pat' });
    github.configure({ knownCommitsOnly: true });
    ask('POST', `/repos/acme/app/statuses/${'b'.repeat(40)}`, { body: status('svc/a') });
    github.configure({ knownCommitsOnly: false });

    // Comments: listed, created, edited, refused.
    const created = ask('POST', '/repos/acme/app/issues/7/comments', { body: { body: 'The gate' } });
    ask('GET', '/repos/acme/app/issues/7/comments');
    ask('PATCH', `/repos/acme/app/issues/comments/${(created.json as { id: number }).id}`, {
      body: { body: 'Edited' },
    });
    ask('PATCH', '/repos/acme/app/issues/comments/1', { body: { body: 'none' } });
    ask('POST', '/repos/acme/app/issues/7/comments', { body: {} });
    ask('GET', '/repos/acme/app/issues/7/comments', { token: 'pat' });

    // Pull requests, refs, dispatches, an unknown route.
    ask('GET', '/repos/acme/app/pulls?state=open&per_page=100');
    ask('GET', '/repos/acme/app/pulls', { token: 'ghs-readonly' });
    ask('GET', '/repos/acme/app/pulls/7');
    ask('GET', '/repos/acme/app/pulls/8');
    ask('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/tags/svc-delivery/x', sha: SHA } });
    ask('POST', '/repos/acme/app/git/refs', { body: { ref: 'refs/tags/svc-delivery/x', sha: SHA } });
    ask('POST', '/repos/acme/app/git/refs', { body: { ref: 'tags/x', sha: SHA } });
    ask('POST', '/repos/acme/locked/git/refs', { body: { ref: 'refs/tags/x', sha: SHA } });
    ask('POST', '/repos/acme/app/git/refs', {
      body: { ref: 'refs/tags/y', sha: SHA },
      token: 'ghs-readonly',
    });
    ask('GET', '/repos/acme/app/git/ref/tags/svc-delivery/x');
    ask('GET', '/repos/acme/app/git/ref/tags/none');
    ask('POST', '/repos/acme/app/dispatches', { body: { event_type: 'svc', client_payload: { a: 1 } } });
    ask('POST', '/repos/acme/app/dispatches', {
      body: { event_type: 'svc', client_payload: { a: 'x'.repeat(70_000) } },
    });
    ask('GET', '/repos/acme/app/nothing');
    seen.push({
      method: 'GET',
      path: '/repos/acme/app/pulls',
      answer: standIn({ unknownTokens: 'refuse' }).rest('GET', '/repos/acme/app/pulls', { token: 'unknown' }),
    });

    // The secondary limit (403 then 429) and the primary one (403).
    advance(3_600_000);
    for (let n = 0; n < 42; n++) ask('POST', `/repos/acme/app/statuses/${SHA}`, { body: status(`svc/${n}`) });
    const tight = standIn({ limits: { rest: 1 } });
    tight.rest('GET', '/repos/acme/app/pulls');
    seen.push({
      method: 'GET',
      path: '/repos/acme/app/pulls',
      answer: tight.rest('GET', '/repos/acme/app/pulls'),
    });

    const statuses = new Set(
      seen.map(({ method, path, answer }) => `${method} ${openapiPath(method, path)} ${answer.status}`),
    );
    // What the list above reaches: a case dropped, or a status no longer given, shows here.
    expect([...statuses].sort()).toEqual(
      [
        'GET /repos/{owner}/{repo} 404',
        'GET /repos/{owner}/{repo}/commits/{ref}/statuses 200',
        'GET /repos/{owner}/{repo}/commits/{ref}/statuses 403',
        'GET /repos/{owner}/{repo}/git/ref/{ref} 200',
        'GET /repos/{owner}/{repo}/git/ref/{ref} 404',
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments 200',
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments 403',
        'GET /repos/{owner}/{repo}/pulls 200',
        'GET /repos/{owner}/{repo}/pulls 401',
        'GET /repos/{owner}/{repo}/pulls 403',
        'GET /repos/{owner}/{repo}/pulls/{pull_number} 200',
        'GET /repos/{owner}/{repo}/pulls/{pull_number} 404',
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id} 200',
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id} 404',
        'POST /repos/{owner}/{repo}/dispatches 204',
        'POST /repos/{owner}/{repo}/dispatches 422',
        'POST /repos/{owner}/{repo}/git/refs 201',
        'POST /repos/{owner}/{repo}/git/refs 403',
        'POST /repos/{owner}/{repo}/git/refs 422',
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments 201',
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments 422',
        'POST /repos/{owner}/{repo}/statuses/{sha} 201',
        'POST /repos/{owner}/{repo}/statuses/{sha} 403',
        'POST /repos/{owner}/{repo}/statuses/{sha} 422',
        'POST /repos/{owner}/{repo}/statuses/{sha} 429',
      ].sort(),
    );
    // Every route the stand-in serves is among them.
    for (const route of REST_ROUTES)
      expect(
        seen.some(({ method, path }) => method === route.method && route.pattern.test(path.split('?')[0])),
      ).toBe(true);

    const failures = seen.flatMap(({ method, path, answer }) => {
      const body = answer.text === '' ? undefined : answer.json;
      return description
        .errors(openapiPath(method, path), method, answer.status, body)
        .map((error) => `${method} ${path} ${answer.status}: ${error}`);
    });
    expect(failures).toEqual([]);
  });

  it('the checker is not blind: a body missing what GitHub requires fails it', () => {
    const description = new GitHubDescription();
    expect(
      description.errors('/repos/{owner}/{repo}/statuses/{sha}', 'POST', 201, { id: 1, state: 'pending' }),
    ).toContain("/ must have required property 'url'");
    expect(description.errors('/repos/{owner}/{repo}/git/refs', 'POST', 422, { errors: [] })).toContain(
      "/ must have required property 'message'",
    );
  });
});

describe('the stand-in’s GraphQL against GitHub’s published schema', () => {
  it('refuses exactly the queries @octokit/graphql-schema’s validate refuses', () => {
    const { graphql } = standIn();
    const queries = [
      '{ viewer { login } }',
      '{ viewer { loginn } }',
      '{ rateLimit { cost limit remaining used resetAt nodeCount } }',
      '{ repository(owner: "acme", name: "app") { pullRequests(states: [OPEN], first: 100, orderBy: { field: CREATED_AT, direction: DESC }) { totalCount pageInfo { hasNextPage endCursor } nodes { number headRefOid headRefName baseRefName commits(last: 1) { nodes { commit { oid status { contexts { id context state description targetUrl createdAt creator { login } } } } } } mergeQueueEntry { headCommit { oid } position state } } } } }',
      '{ repository(owner: "acme", name: "app") { pullRequests(states: [MERGEABLE], first: 1) { totalCount } } }',
      '{ repository(owner: "acme", name: "app") { pullRequests(first: 1) { nodes { status } } } }',
      'query($n: Int!) { repository(owner: "acme", name: "app") { pullRequests(first: $n) { totalCount } } }',
    ];
    for (const query of queries) {
      const refusedByGitHub = validate(query).length > 0;
      const answer = graphql(query, { variables: { n: 5 } }).json as { data?: unknown; errors?: unknown[] };
      expect([query, answer.data === undefined]).toEqual([query, refusedByGitHub]);
    }
  });
});
