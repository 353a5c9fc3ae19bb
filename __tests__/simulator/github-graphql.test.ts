/**
 * The stand-in's GraphQL (issue 39, part 1): queries executed against GitHub's published schema,
 * refused as GitHub refuses them, priced as GitHub prices them, and the pull requests' head commits'
 * latest status per context (case-insensitively) with GitHub's names for a Bot.
 */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'graphql';
import { queryCost } from '../../simulator/github/graphql-cost.js';
import { githubSchema } from '../../simulator/github/graphql-schema.js';
import { SHA, standIn, status } from './github-helpers.js';

const OPEN_PULLS = `query($owner: String!, $name: String!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(states: [OPEN], first: 2, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        number headRefOid headRefName baseRefName
        commits(last: 1) { nodes { commit { oid status { contexts { id context state description targetUrl createdAt creator { login } } } } } }
        mergeQueueEntry { headCommit { oid status { contexts { context state } } } position state }
      }
    }
  }
}`;

type PullsData = {
  data: {
    repository: {
      pullRequests: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string };
        nodes: Array<{
          number: number;
          headRefOid: string;
          commits: {
            nodes: Array<{
              commit: { oid: string; status: { contexts: Array<Record<string, unknown>> } | null };
            }>;
          };
          mergeQueueEntry: null | { headCommit: { oid: string }; position: number; state: string };
        }>;
      };
    };
  };
};

describe("the stand-in's GraphQL", () => {
  it('answers viewer with the Bot’s login as GitHub gives it, and what the query cost', () => {
    const { graphql } = standIn();
    const answer = graphql('query { viewer { login } rateLimit { cost limit remaining used resetAt } }');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      data: {
        viewer: { login: 'github-actions[bot]' },
        rateLimit: { cost: 1, limit: 1000, remaining: 999, used: 1, resetAt: '2026-11-02T10:00:00.000Z' },
      },
    });
  });

  it('lists open pull requests in pages, oldest first, each head commit with the latest status of each context', () => {
    const { github, graphql, rest, advance } = standIn();
    const heads = ['1', '2', '3'].map((d) => d.repeat(40));
    heads.forEach((head, i) => {
      github.addPullRequest({ number: i + 1, head });
      advance(1000);
    });
    github.addPullRequest({ repo: 'other', number: 9, head: SHA });
    rest('POST', `/repos/acme/app/statuses/${heads[0]}`, { body: status('build', 'pending', 'Queued') });
    advance(1000);
    rest('POST', `/repos/acme/app/statuses/${heads[0]}`, { body: status('Build', 'success', 'Done') });
    rest('POST', `/repos/acme/app/statuses/${heads[0]}`, { body: status('svc/e2e', 'failure') });
    github.statuses.push({
      sha: heads[0],
      context: 'svc/other',
      state: 'error',
      creator: { login: 'octo-dev' },
    });
    const first = graphql(OPEN_PULLS, { variables: { owner: 'acme', name: 'app' } }).json as PullsData;
    const page = first.data.repository.pullRequests;
    expect(page.totalCount).toBe(3);
    expect(page.nodes.map((pr) => pr.number)).toEqual([1, 2]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const contexts = page.nodes[0].commits.nodes[0].commit.status!.contexts;
    // `Build` replaced `build`; each context's id is its status's node id; states upper case; the
    // Bot's login without `[bot]`, another account's as it is.
    const listed = rest('GET', `/repos/acme/app/commits/${heads[0]}/statuses`).json as Array<{
      node_id: string;
      context: string;
      created_at: string;
    }>;
    const build = listed.find((s) => s.context === 'Build')!;
    expect(contexts).toEqual([
      {
        id: build.node_id,
        context: 'Build',
        state: 'SUCCESS',
        description: 'Done',
        targetUrl: null,
        createdAt: build.created_at,
        creator: { login: 'github-actions' },
      },
      expect.objectContaining({ context: 'svc/e2e', state: 'FAILURE', creator: { login: 'github-actions' } }),
      expect.objectContaining({ context: 'svc/other', state: 'ERROR', creator: { login: 'octo-dev' } }),
    ]);
    expect(build.created_at).toBe('2026-11-02T09:00:04.000Z');
    expect(page.nodes[1].commits.nodes[0].commit).toEqual({ oid: heads[1], status: null });
    expect(page.nodes[1].mergeQueueEntry).toBeNull();
    const second = graphql(OPEN_PULLS, {
      variables: { owner: 'acme', name: 'app', after: page.pageInfo.endCursor },
    }).json as PullsData;
    expect(second.data.repository.pullRequests.nodes.map((pr) => pr.headRefOid)).toEqual([heads[2]]);
    expect(second.data.repository.pullRequests.pageInfo.hasNextPage).toBe(false);
  });

  it('newest first with orderBy DESC, last: n from the end, and a queue entry’s head commit when a world sets one', () => {
    const { github, graphql, rest } = standIn();
    for (let n = 1; n <= 4; n++) github.addPullRequest({ number: n, head: String(n).repeat(40) });
    github.addPullRequest({ number: 5, head: '5'.repeat(40), queue: { head: 'c'.repeat(40), position: 1 } });
    rest('POST', `/repos/acme/app/statuses/${'c'.repeat(40)}`, { body: status('svc/gate', 'pending') });
    const numbers = (query: string): number[] =>
      (graphql(query).json as PullsData).data.repository.pullRequests.nodes.map((pr) => pr.number);
    const pulls = (args: string): string =>
      `{ repository(owner: "acme", name: "app") { pullRequests(${args}) { nodes { number } } } }`;
    expect(numbers(pulls('first: 2, orderBy: { field: CREATED_AT, direction: DESC }'))).toEqual([5, 4]);
    expect(numbers(pulls('last: 2'))).toEqual([4, 5]);
    expect(numbers(pulls('first: 5, states: [CLOSED]'))).toEqual([]);
    const queued = graphql(
      '{ repository(owner: "acme", name: "app") { pullRequests(last: 1) { nodes { mergeQueueEntry { position state headCommit { oid status { contexts { context state } } } } } } } }',
    ).json as PullsData;
    expect(queued.data.repository.pullRequests.nodes[0].mergeQueueEntry).toEqual({
      position: 1,
      state: 'AWAITING_CHECKS',
      headCommit: { oid: 'c'.repeat(40), status: { contexts: [{ context: 'svc/gate', state: 'PENDING' }] } },
    });
  });

  it('refuses what GitHub’s schema refuses, with a 200 whose errors say why, and runs nothing', () => {
    const { github, graphql } = standIn();
    const unknown = graphql('query { viewer { logn } }');
    expect(unknown.status).toBe(200);
    expect(unknown.json).toEqual({
      errors: [
        {
          extensions: { code: 'undefinedField', typeName: 'User', fieldName: 'logn' },
          locations: [{ line: 1, column: 18 }],
          message: "Field 'logn' doesn't exist on type 'User'",
        },
      ],
    });
    const syntax = graphql('query { viewer { login }');
    expect((syntax.json as { errors: Array<{ message: string }> }).errors[0].message).toMatch(
      /^Syntax Error/,
    );
    const wrongArg = graphql('{ repository(owner: "acme") { name } }');
    expect((wrongArg.json as { errors: Array<{ message: string }> }).errors[0].message).toBe(
      'Field "repository" argument "name" of type "String!" is required, but it was not provided.',
    );
    expect(github.counts()[0]).toMatchObject({ graphqlRequests: 3, refused: 3 });
  });

  it('connections take first or last of 1 to 100, as GitHub says', () => {
    const { graphql } = standIn();
    const pulls = (args: string): unknown =>
      graphql(`{ repository(owner: "acme", name: "app") { pullRequests(${args}) { totalCount } } }`).json;
    expect(pulls('first: 101')).toEqual({
      errors: [
        {
          type: 'EXCESSIVE_PAGINATION',
          path: ['query', 'repository', 'pullRequests'],
          message:
            'Requesting 101 records on the `pullRequests` connection exceeds the `first` limit of 100 records.',
        },
      ],
    });
    expect(pulls('states: [OPEN]')).toEqual({
      errors: [
        {
          type: 'MISSING_PAGINATION_BOUNDARIES',
          path: ['query', 'repository', 'pullRequests'],
          message:
            'You must provide a `first` or `last` value to properly paginate the `pullRequests` connection.',
        },
      ],
    });
    expect(pulls('last: 0')).toMatchObject({ errors: [{ type: 'EXCESSIVE_PAGINATION' }] });
    expect(pulls('first: 100')).toEqual({ data: { repository: { pullRequests: { totalCount: 0 } } } });
  });
});

describe('what a GraphQL query costs', () => {
  it('is GitHub’s documented example: 5,101 requests, 51 points', () => {
    // docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api, "Calculating
    // a rate limit score before running the call".
    const query = parse(`query {
      viewer { login repositories(first: 100) { edges { node { id
        issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } } } } } }
    }`);
    expect(queryCost(githubSchema(), query, {})).toMatchObject({ cost: 51, nodeCount: 100 + 5000 + 300000 });
  });

  it('100 pull requests with their head commit: 101 requests, 1 point, and that point is spent', () => {
    const { graphql } = standIn();
    const answer = graphql(OPEN_PULLS.replace('first: 2', 'first: 100'), {
      variables: { owner: 'acme', name: 'app' },
    });
    expect(answer.headers['x-ratelimit-used']).toBe('1');
    const cost = queryCost(githubSchema(), parse(OPEN_PULLS.replace('first: 2', 'first: 100')), {});
    expect(cost).toMatchObject({ cost: 1, nodeCount: 200 });
  });
});
