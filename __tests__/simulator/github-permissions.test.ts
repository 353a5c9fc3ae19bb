/**
 * The stand-in's tokens and permissions (issue 39, part 1): a world gives each token its account,
 * kind and permissions and says which repositories are public; GitHub's refusals in REST (401, 403
 * with the token kind's words and `x-accepted-github-permissions`) and in GraphQL (a 200, the field
 * null, a FORBIDDEN error).
 */
import { describe, expect, it } from '@jest/globals';
import { SHA, standIn, status } from './github-helpers.js';

const WORLD = {
  tokens: {
    'ghs-readonly': { permissions: { statuses: 'read', pull_requests: 'none' } },
    'ghs-no-issues': { permissions: { statuses: 'write', pull_requests: 'read', issues: 'none' } },
    github_pat_dev: { kind: 'user', login: 'octo-dev', permissions: { statuses: 'read' } },
    'ghs-writer': {},
  },
  unknownTokens: 'refuse',
} as const;

describe("the stand-in's permissions", () => {
  it('a token GitHub does not know: 401 Bad credentials (when the world names its tokens)', () => {
    const { rest, graphql } = standIn(WORLD);
    for (const answer of [
      rest('GET', '/repos/acme/app/pulls', { token: 'ghs-unknown' }),
      graphql('{ viewer { login } }'),
    ])
      expect([answer.status, answer.json]).toEqual([
        401,
        { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
      ]);
  });

  it('a missing permission: 403 with the words of the token’s kind and the permissions the route accepts', () => {
    const { rest, github } = standIn(WORLD);
    const post = rest('POST', `/repos/acme/app/statuses/${SHA}`, {
      token: 'ghs-readonly',
      body: status('svc/a'),
    });
    expect(post.status).toBe(403);
    expect(post.json).toEqual({
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
      status: '403',
    });
    expect(post.headers['x-accepted-github-permissions']).toBe('statuses=write');
    expect(github.statuses).toEqual([]);
    const pulls = rest('GET', '/repos/acme/app/pulls', { token: 'ghs-readonly' });
    expect([pulls.status, pulls.headers['x-accepted-github-permissions']]).toEqual([
      403,
      'pull_requests=read',
    ]);
    const comment = rest('POST', '/repos/acme/app/issues/7/comments', {
      token: 'ghs-no-issues',
      body: { body: 'x' },
    });
    expect([comment.status, comment.headers['x-accepted-github-permissions']]).toEqual([
      403,
      'issues=write; pull_requests=write',
    ]);
    const personal = rest('POST', `/repos/acme/app/statuses/${SHA}`, {
      token: 'github_pat_dev',
      body: status('a'),
    });
    expect([personal.status, (personal.json as { message: string }).message]).toEqual([
      403,
      'Resource not accessible by personal access token',
    ]);
    expect(rest('GET', `/repos/acme/app/commits/${SHA}/statuses`, { token: 'github_pat_dev' }).status).toBe(
      200,
    );
    expect(
      rest('POST', `/repos/acme/app/statuses/${SHA}`, { token: 'ghs-writer', body: status('a') }).status,
    ).toBe(201);
  });

  it('a public repository allows reads without the permission, never writes', () => {
    const { rest } = standIn({ ...WORLD, publicRepositories: ['acme/app'] });
    expect(rest('GET', '/repos/acme/app/pulls', { token: 'ghs-readonly' }).status).toBe(200);
    expect(rest('GET', '/repos/acme/private/pulls', { token: 'ghs-readonly' }).status).toBe(403);
    expect(
      rest('POST', '/repos/acme/app/git/refs', {
        token: 'ghs-readonly',
        body: { ref: 'refs/tags/x', sha: SHA },
      }).status,
    ).toBe(403);
  });

  it('GraphQL: the field the token may not read is null, with a FORBIDDEN error; the rest is answered', () => {
    const { github, graphql, rest } = standIn(WORLD);
    github.addPullRequest({ number: 1, head: SHA });
    rest('POST', `/repos/acme/app/statuses/${SHA}`, { token: 'ghs-writer', body: status('svc/a') });
    const query =
      '{ viewer { login } repository(owner: "acme", name: "app") { pullRequests(first: 10) { nodes { number commits(last: 1) { nodes { commit { status { contexts { context } } } } } } } } }';
    expect(graphql(query, { token: 'ghs-readonly' }).json).toEqual({
      // `pullRequests` is non-null in GitHub's schema: its null reaches `repository`, as on GitHub.
      data: { viewer: { login: 'github-actions[bot]' }, repository: null },
      errors: [
        {
          type: 'FORBIDDEN',
          path: ['repository', 'pullRequests'],
          locations: [{ line: 1, column: 61 }],
          message: 'Resource not accessible by integration',
        },
      ],
    });
    const noStatuses = graphql(query, { token: 'github_pat_dev' }).json as {
      errors: Array<{ message: string }>;
    };
    expect(noStatuses.errors[0].message).toBe('Resource not accessible by personal access token');
    const allowed = graphql(query, { token: 'ghs-no-issues' }).json;
    expect(allowed).toEqual({
      data: {
        viewer: { login: 'github-actions[bot]' },
        repository: {
          pullRequests: {
            nodes: [
              {
                number: 1,
                commits: { nodes: [{ commit: { status: { contexts: [{ context: 'svc/a' }] } } }] },
              },
            ],
          },
        },
      },
    });
  });

  it('by default any token is the repository’s GITHUB_TOKEN (statuses and contents write, pull requests read, issues write)', () => {
    const { rest } = standIn();
    expect(
      rest('POST', `/repos/acme/app/statuses/${SHA}`, { token: 'whatever', body: status('a') }).status,
    ).toBe(201);
    expect(rest('GET', '/repos/acme/app/pulls', { token: 'whatever' }).status).toBe(200);
    expect(rest('POST', '/repos/acme/app/issues/1/comments', { body: { body: 'hi' } }).status).toBe(201);
  });
});
