/**
 * The stand-in's commit statuses (issue 39, part 1): contexts compared case-insensitively, each
 * status with its id, node id, times from the stand-in's clock and creator, and `receivedAt` for the
 * tests that assert the pacing of writes.
 */
import { describe, expect, it } from '@jest/globals';
import { githubAnswer } from '../../simulator/github/index.js';
import { API, SHA, standIn, status } from './github-helpers.js';

describe("the stand-in's statuses", () => {
  it('compares contexts case-insensitively: the latest of `Build` replaces `build`’s', () => {
    const { github, rest } = standIn();
    rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('build', 'pending') });
    rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('Build', 'failure') });
    rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('e2e', 'success') });
    expect(github.states(SHA)).toEqual({ Build: 'failure', e2e: 'success' });
    expect(github.latest(SHA, 'BUILD')?.state).toBe('failure');
    // The pull request's page shows one row for the context, its latest status's.
    github.addPullRequest({ number: 1, head: SHA });
    const page = githubAnswer(github, 'GET', '/_github/acme/app/pull/1', { accept: 'text/html' }, '');
    const text = String(page?.body);
    expect(text.match(/data-context="[^"]*"/gi)).toEqual(['data-context="Build"', 'data-context="e2e"']);
  });

  it('gives each status an id, a node id, created_at from its clock and its creator; records receivedAt', () => {
    const { github, rest, advance, time } = standIn();
    const first = rest('POST', `/repos/acme/app/statuses/${SHA}`, {
      body: { ...status('svc/a', 'pending', 'Queued'), target_url: 'https://svc.example/run' },
    });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({
      url: `${API}/repos/acme/app/statuses/${SHA}`,
      avatar_url: null,
      id: 1,
      node_id: expect.stringMatching(/^SC_/),
      state: 'pending',
      description: 'Queued',
      target_url: 'https://svc.example/run',
      context: 'svc/a',
      created_at: '2026-11-02T09:00:00.000Z',
      updated_at: '2026-11-02T09:00:00.000Z',
      creator: expect.objectContaining({ login: 'github-actions[bot]', type: 'Bot', id: expect.any(Number) }),
    });
    advance(1500);
    const second = rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/a', 'success') });
    expect(second.json).toMatchObject({ id: 2, created_at: '2026-11-02T09:00:01.500Z' });
    expect((first.json as { node_id: string }).node_id).not.toBe(
      (second.json as { node_id: string }).node_id,
    );
    expect(github.statuses.map((s) => s.receivedAt)).toEqual([time.now - 1500, time.now]);
    // A status a test pushed keeps working: its id is its place among all.
    github.statuses.push({ sha: SHA, context: 'svc/b', state: 'pending', creator: { login: 'mallory' } });
    const listed = rest('GET', `/repos/acme/app/commits/${SHA}/statuses`).json as Array<
      Record<string, unknown>
    >;
    expect(listed.map((s) => [s.id, s.context, (s.creator as { login: string }).login])).toEqual([
      [3, 'svc/b', 'mallory'],
      [2, 'svc/a', 'github-actions[bot]'],
      [1, 'svc/a', 'github-actions[bot]'],
    ]);
  });
});

describe('what GitHub refuses of a status (422)', () => {
  const refusal = (field: string | undefined, message: string): unknown => ({
    message: 'Validation Failed',
    errors: [{ resource: 'Status', code: 'custom', ...(field ? { field } : {}), message }],
    documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
  });

  it('a description over 140 characters, a state GitHub does not know; 140 characters pass', () => {
    const { github, rest } = standIn();
    const post = (body: Record<string, string>) => rest('POST', `/repos/acme/app/statuses/${SHA}`, { body });
    const long = post(status('svc/a', 'pending', 'é'.repeat(141)));
    expect([long.status, long.json]).toEqual([
      422,
      refusal('description', 'description is too long (maximum is 140 characters)'),
    ]);
    expect(post(status('svc/a', 'pending', 'é'.repeat(140))).status).toBe(201);
    for (const state of ['cancelled', 'SUCCESS', ''])
      expect(post(status('svc/a', state)).json).toEqual(
        refusal('state', 'state is not included in the list'),
      );
    expect(github.statuses).toHaveLength(1);
  });

  it('past 1,000 statuses of one commit and context (compared case-insensitively)', () => {
    const { github, rest } = standIn();
    for (let n = 0; n < 1000; n++)
      github.statuses.push({
        sha: SHA,
        context: n % 2 ? 'svc/a' : 'SVC/A',
        state: 'pending',
        repository: 'acme/app',
      });
    const past = rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/A', 'success') });
    expect([past.status, past.json]).toEqual([
      422,
      refusal(undefined, 'This SHA and context has reached the maximum number of statuses.'),
    ]);
    expect(rest('POST', `/repos/acme/app/statuses/${SHA}`, { body: status('svc/b') }).status).toBe(201);
    expect(rest('POST', `/repos/acme/other/statuses/${SHA}`, { body: status('svc/a') }).status).toBe(201);
  });

  it('a commit the repository does not have, when the world knows its commits', () => {
    const { github, rest } = standIn({ knownCommitsOnly: true });
    const unknown = rest('POST', `/repos/acme/app/statuses/${'b'.repeat(40)}`, { body: status('svc/a') });
    expect([unknown.status, unknown.json]).toEqual([
      422,
      {
        message: `No commit found for SHA: ${'b'.repeat(40)}`,
        documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
        status: '422',
      },
    ]);
    github.addPullRequest({ number: 1, head: 'b'.repeat(40), queue: { head: 'c'.repeat(40) } });
    github.addCommit('acme/app', SHA);
    for (const sha of ['b', 'c', 'a'].map((d) => d.repeat(40)))
      expect(rest('POST', `/repos/acme/app/statuses/${sha}`, { body: status('svc/a') }).status).toBe(201);
    expect(rest('POST', `/repos/acme/other/statuses/${SHA}`, { body: status('svc/a') }).status).toBe(422);
  });
});

describe("the stand-in's refs", () => {
  const create = (t: ReturnType<typeof standIn>, ref: unknown, repo = 'app') =>
    t.rest('POST', `/repos/acme/${repo}/git/refs`, { body: { ref, sha: SHA } });

  it('creates a ref once (422 "Reference already exists" after), reads it back, 404 for one it lacks', () => {
    const t = standIn();
    const made = create(t, 'refs/tags/svc-delivery/x');
    expect([made.status, made.json]).toEqual([
      201,
      {
        ref: 'refs/tags/svc-delivery/x',
        node_id: expect.stringMatching(/^REF_/),
        url: `${API}/repos/acme/app/git/refs/tags/svc-delivery/x`,
        object: { type: 'commit', sha: SHA, url: `${API}/repos/acme/app/git/commits/${SHA}` },
      },
    ]);
    const again = create(t, 'refs/tags/svc-delivery/x');
    expect([again.status, (again.json as { message: string }).message]).toEqual([
      422,
      'Reference already exists',
    ]);
    expect(create(t, 'refs/tags/svc-delivery/x', 'other').status).toBe(201);
    expect(t.rest('GET', '/repos/acme/app/git/ref/tags/svc-delivery/x').json).toEqual(made.json);
    expect(t.rest('GET', '/repos/acme/app/git/ref/tags/nothing').status).toBe(404);
  });

  it('a malformed ref, and a ruleset that restricts creation when the world sets one', () => {
    const t = standIn({ refRulesets: ['acme/locked'] });
    for (const ref of ['tags/x', 'refs/x', 'refs/tags/a b', 42]) {
      const answer = create(t, ref);
      expect([answer.status, (answer.json as { message: string }).message]).toEqual([
        422,
        'Reference name must contain at least three slash-separated components.',
      ]);
    }
    const locked = create(t, 'refs/tags/x', 'locked');
    expect([locked.status, (locked.json as { message: string }).message]).toEqual([
      422,
      'Repository rule violations found\n\nCannot create ref due to creations being restricted.\n\n',
    ]);
    expect(t.github.refs).toEqual([]);
  });
});
