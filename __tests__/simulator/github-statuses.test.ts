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
