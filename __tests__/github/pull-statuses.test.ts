/**
 * sync-statuses' GraphQL queries against GitHub's published schema (`@octokit/graphql-schema`'s
 * `validate`: the errors GitHub would answer a query with), and the login form they are compared in.
 */
import { validate } from '@octokit/graphql-schema';
import { OPEN_PULLS_QUERY, sameLogin, VIEWER_QUERY } from '../../src/github/pull-statuses.js';

describe("sync-statuses' GraphQL queries", () => {
  it.each([
    ['open pull requests', OPEN_PULLS_QUERY],
    ['the viewer', VIEWER_QUERY],
  ])('%s: valid against GitHub’s schema', (_name, query) => {
    expect(validate(query).map((error) => error.message)).toEqual([]);
  });

  it('a wrong field would fail here as it fails on GitHub', () => {
    const wrong = OPEN_PULLS_QUERY.replace('headRefOid', 'headRefOidd');
    expect(validate(wrong).map((error) => error.message)).toEqual([
      expect.stringContaining('Cannot query field "headRefOidd" on type "PullRequest"'),
    ]);
  });
});

describe('logins compared in one form', () => {
  it('GraphQL’s creator without [bot] is the viewer with it; case does not matter', () => {
    expect(sameLogin('github-actions', 'github-actions[bot]')).toBe(true);
    expect(sameLogin('Octocat', 'octocat')).toBe(true);
    expect(sameLogin('mallory', 'github-actions[bot]')).toBe(false);
    expect(sameLogin(undefined, 'github-actions[bot]')).toBe(false);
  });
});
