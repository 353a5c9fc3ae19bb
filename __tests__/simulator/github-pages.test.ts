/**
 * The stand-in's REST pages and lists (issue 39, part 1): `per_page` of at most 100 (default 30), a
 * `link` header with prev/next/last/first, open pull requests and a commit's statuses newest first,
 * and comments that belong to one issue of one repository.
 */
import { describe, expect, it } from '@jest/globals';
import { API, SHA, standIn, status } from './github-helpers.js';

describe("the stand-in's pages", () => {
  it('per_page defaults to 30 and is at most 100; link names the pages that exist', () => {
    const { github, rest } = standIn();
    for (let n = 1; n <= 250; n++) github.addPullRequest({ number: n, head: SHA });
    const byDefault = rest('GET', '/repos/acme/app/pulls?state=open');
    expect((byDefault.json as unknown[]).length).toBe(30);
    const base = `${API}/repos/acme/app/pulls?state=open`;
    expect(byDefault.headers.link).toBe(
      `<${base}&per_page=30&page=2>; rel="next", <${base}&per_page=30&page=9>; rel="last"`,
    );
    const capped = rest('GET', '/repos/acme/app/pulls?state=open&per_page=500&page=2');
    expect((capped.json as Array<{ number: number }>).map((pr) => pr.number)).toEqual(
      Array.from({ length: 100 }, (_, i) => 150 - i),
    );
    expect(capped.headers.link).toBe(
      [
        `<${base}&per_page=100&page=1>; rel="prev"`,
        `<${base}&per_page=100&page=3>; rel="next"`,
        `<${base}&per_page=100&page=3>; rel="last"`,
        `<${base}&per_page=100&page=1>; rel="first"`,
      ].join(', '),
    );
    const last = rest('GET', '/repos/acme/app/pulls?state=open&per_page=100&page=3');
    expect((last.json as unknown[]).length).toBe(50);
    expect(last.headers.link).not.toMatch(/rel="next"/);
    const one = rest('GET', '/repos/acme/app/pulls?per_page=100&page=9');
    expect([one.json, one.headers.link]).toEqual([[], expect.stringContaining('rel="prev"')]);
  });

  it('open pull requests newest first (REST’s default sort), oldest first with direction=asc', () => {
    const { github, rest } = standIn();
    for (const n of [3, 1, 2]) github.addPullRequest({ number: n, head: SHA });
    const numbers = (path: string): number[] =>
      (rest('GET', path).json as Array<{ number: number; head: { sha: string } }>).map((pr) => pr.number);
    expect(numbers('/repos/acme/app/pulls')).toEqual([2, 1, 3]);
    expect(numbers('/repos/acme/app/pulls?direction=asc')).toEqual([3, 1, 2]);
    expect(numbers('/repos/acme/app/pulls?state=closed')).toEqual([]);
    expect(numbers('/repos/acme/other/pulls')).toEqual([]);
  });

  it('a commit’s statuses newest first, in pages, each repository its own', () => {
    const { rest } = standIn();
    for (let n = 1; n <= 35; n++)
      rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status(`svc/${n}`) });
    rest('POST', `/repos/acme/other/statuses/${SHA}`, { body: status('svc/elsewhere') });
    const first = rest('GET', `/repos/acme/app/commits/${SHA}/statuses`);
    const contexts = (first.json as Array<{ context: string }>).map((s) => s.context);
    expect(contexts.length).toBe(30);
    expect(contexts.slice(0, 2)).toEqual(['svc/35', 'svc/34']);
    expect(first.headers.link).toContain('rel="next"');
    const second = rest('GET', `/repos/acme/app/commits/${SHA}/statuses?page=2`);
    expect((second.json as Array<{ context: string }>).map((s) => s.context)).toEqual([
      'svc/5',
      'svc/4',
      'svc/3',
      'svc/2',
      'svc/1',
    ]);
    const other = rest('GET', `/repos/acme/other/commits/${SHA}/statuses`).json as Array<{ context: string }>;
    expect(other.map((s) => s.context)).toEqual(['svc/elsewhere']);
  });
});

describe("the stand-in's comments", () => {
  it('belong to one issue of one repository: listed, edited and shown there only', () => {
    const { github, rest } = standIn();
    const post = (repo: string, issue: number, body: string): number =>
      (
        rest('POST', `/repos/acme/${repo}/issues/${issue}/comments`, { body: { body } }).json as {
          id: number;
        }
      ).id;
    const mine = post('app', 7, 'on 7');
    post('app', 8, 'on 8');
    const elsewhere = post('other', 7, 'on other 7');
    const listed = rest('GET', '/repos/acme/app/issues/7/comments').json as Array<Record<string, unknown>>;
    expect(listed).toEqual([
      expect.objectContaining({
        id: mine,
        body: 'on 7',
        issue_url: `${API}/repos/acme/app/issues/7`,
        user: expect.objectContaining({ login: 'github-actions[bot]', type: 'Bot' }),
      }),
    ]);
    expect(
      rest('PATCH', `/repos/acme/app/issues/comments/${elsewhere}`, { body: { body: 'x' } }).status,
    ).toBe(404);
    expect(
      rest('PATCH', `/repos/acme/app/issues/comments/${mine}`, { body: { body: 'edited' } }).status,
    ).toBe(200);
    expect(github.commentsOn(7).map((c) => c.body)).toEqual(['edited']);
    expect(github.commentsOn(7, 'acme/other').map((c) => c.body)).toEqual(['on other 7']);
    for (let n = 0; n < 31; n++) post('app', 9, `c${n}`);
    const paged = rest('GET', '/repos/acme/app/issues/9/comments');
    expect((paged.json as unknown[]).length).toBe(30);
    expect(paged.headers.link).toContain('rel="next"');
  });
});
