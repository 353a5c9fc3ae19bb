/**
 * The stand-in's rate limits and counts (issue 39, part 1): a repository's workflow tokens share
 * 1,000 REST requests and 1,000 GraphQL points an hour, a user's tokens 5,000, figures a world can
 * change; `x-ratelimit-*` on every answer; past the limits GitHub's refusals; secondary limits of 80
 * writes a minute and 500 an hour per repository on the stand-in's clock; every request counted.
 */
import { describe, expect, it } from '@jest/globals';
import { SHA, standIn, status } from './github-helpers.js';

const RESET = String(Date.parse('2026-11-02T10:00:00Z') / 1000);

describe("the stand-in's primary limits", () => {
  it('1,000 REST requests an hour for a repository’s workflow tokens, shared; 403 with remaining 0 past them', () => {
    const { rest, advance } = standIn({ limits: { writesPerMinute: 10_000, writesPerHour: 10_000 } });
    const first = rest('GET', '/repos/acme/app/pulls', { token: 'job-1' });
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      'x-ratelimit-used': '1',
      'x-ratelimit-reset': RESET,
      'x-ratelimit-resource': 'core',
    });
    // Another job's token of the same repository draws on the same budget, whichever repository it reads.
    for (let n = 1; n < 1000; n++) rest('GET', '/repos/acme/other/pulls', { token: `job-${n % 7}` });
    const past = rest('POST', `/repos/acme/app/statuses/${SHA}`, { token: 'job-2', body: status('svc/a') });
    expect(past.status).toBe(403);
    expect(past.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '1000' });
    expect((past.json as { message: string }).message).toMatch(
      /^API rate limit exceeded for installation ID \d+\./,
    );
    advance(3_600_000);
    const after = rest('GET', '/repos/acme/app/pulls', { token: 'job-1' });
    expect([after.status, after.headers['x-ratelimit-remaining']]).toEqual([200, '999']);
  });

  it('a world sets other figures (15,000), the answer past them (429), and a user’s own 5,000', () => {
    const { rest } = standIn({
      limits: { rest: 15_000, primaryStatus: 429 },
      tokens: { pat: { kind: 'user', login: 'octo-dev' } },
    });
    expect(rest('GET', '/repos/acme/app/pulls').headers['x-ratelimit-limit']).toBe('15000');
    expect(rest('GET', '/repos/acme/app/pulls', { token: 'pat' }).headers['x-ratelimit-limit']).toBe('5000');
    const tight = standIn({ limits: { rest: 1, primaryStatus: 429 } });
    tight.rest('GET', '/repos/acme/app/pulls');
    expect(tight.rest('GET', '/repos/acme/app/pulls').status).toBe(429);
  });

  it('GraphQL: points from their own budget; past it a 200 whose errors say RATE_LIMITED', () => {
    const { graphql, rest } = standIn({ limits: { graphql: 2 } });
    const query = '{ viewer { login } }';
    expect(graphql(query).headers).toMatchObject({
      'x-ratelimit-resource': 'graphql',
      'x-ratelimit-used': '1',
    });
    graphql(query);
    const past = graphql(query);
    expect(past.status).toBe(200);
    expect(past.headers['x-ratelimit-remaining']).toBe('0');
    expect(past.json).toEqual({
      errors: [
        {
          type: 'RATE_LIMITED',
          message: expect.stringMatching(/^API rate limit already exceeded for installation ID \d+\.$/),
        },
      ],
    });
    expect(rest('GET', '/repos/acme/app/pulls').status).toBe(200);
  });
});

describe("the stand-in's secondary limits", () => {
  it('80 writes a minute per repository: then 403 and 429 in turn, with retry-after and without; reads go on', () => {
    const { rest, advance, github } = standIn();
    const post = (): ReturnType<typeof rest> =>
      rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a') });
    for (let n = 0; n < 80; n++) {
      expect(post().status).toBe(201);
      advance(100);
    }
    const refusals = [post(), post(), post()];
    expect(refusals.map((r) => [r.status, r.headers['retry-after']])).toEqual([
      [403, '52'],
      [429, undefined],
      [403, '52'],
    ]);
    expect((refusals[0].json as { message: string }).message).toMatch(
      /^You have exceeded a secondary rate limit/,
    );
    expect(rest('GET', `/repos/acme/app/commits/${SHA}/statuses`).status).toBe(200);
    expect(rest('POST', `/repos/acme/other/statuses/${SHA}`, { body: status('svc/a') }).status).toBe(201);
    advance(52_000);
    expect(post().status).toBe(201);
    expect(github.statuses.filter((s) => s.repository === 'acme/app')).toHaveLength(81);
  });

  it('500 writes an hour, whatever the pace; a world sets the figures and the answers', () => {
    const { rest, advance } = standIn({
      limits: { writesPerHour: 5, secondaryStatus: 429, secondaryRetryAfter: 'never' },
    });
    for (let n = 0; n < 5; n++) {
      expect(rest('POST', '/repos/acme/app/issues/1/comments', { body: { body: `${n}` } }).status).toBe(201);
      advance(600_000);
    }
    const refused = rest('POST', '/repos/acme/app/issues/1/comments', { body: { body: 'more' } });
    expect([refused.status, refused.headers['retry-after']]).toEqual([429, undefined]);
    advance(600_000);
    expect(rest('POST', '/repos/acme/app/issues/1/comments', { body: { body: 'later' } }).status).toBe(201);
  });
});

describe("the stand-in's counts", () => {
  it('counts requests per repository and token, by kind, refusals included; tokens named by account', () => {
    const { rest, graphql, github } = standIn({ tokens: { pat: { kind: 'user', login: 'octo-dev' } } });
    rest('GET', '/repos/acme/app/pulls');
    rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a') });
    rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a', 'bogus') });
    graphql(
      '{ repository(owner: "acme", name: "app") { pullRequests(first: 100) { nodes { commits(last: 1) { totalCount } } } } }',
    );
    rest('GET', '/repos/acme/other/pulls', { token: 'pat' });
    expect(github.counts()).toEqual([
      {
        repository: 'acme/app',
        token: 'installation:github-actions[bot]',
        restReads: 1,
        restWrites: 2,
        graphqlRequests: 1,
        graphqlPoints: 1,
        refused: 1,
      },
      {
        repository: 'acme/other',
        token: 'user:octo-dev',
        restReads: 1,
        restWrites: 0,
        graphqlRequests: 0,
        graphqlPoints: 0,
        refused: 0,
      },
    ]);
    expect(JSON.stringify(github.counts())).not.toContain('pat');
    expect(github.totals('acme/app')).toMatchObject({ restReads: 1, restWrites: 2, graphqlPoints: 1 });
  });
});
