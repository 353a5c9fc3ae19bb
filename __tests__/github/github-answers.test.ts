/**
 * GitHub's answers as sync-statuses reads them (src/github/github-answers.ts): each answer GitHub
 * documents, as Octokit throws it, reads as one kind, and its words name what to change.
 */
import { RequestError } from '@octokit/request-error';
import { GraphqlResponseError } from '@octokit/graphql';
import { answerWords, readAnswer, waitWithin, type Permission } from '../../src/github/github-answers.js';

const NOW = Date.parse('2026-11-02T09:00:00Z');
const request = { method: 'GET' as const, url: 'https://api.github.com/x', headers: {} };

function answered(status: number, headers: Record<string, string> = {}, data: unknown = {}): RequestError {
  return new RequestError('failed', status, {
    request,
    response: { status, url: request.url, headers, data },
  });
}
const read = (error: unknown, need: Permission = 'statuses: write') => readAnswer(error, need, NOW);

describe('readAnswer', () => {
  it('401: the token refused, named', () => {
    const answer = read(answered(401, {}, { message: 'Bad credentials' }));
    expect(answer).toEqual({ kind: 'token-refused', status: 401 });
    expect(answerWords(answer)).toBe(
      'GitHub refused `github-token` (401: it is not a valid token, or it expired)',
    );
  });

  it('403 for a permission: GitHub’s x-accepted-github-permissions first, else what the call needs', () => {
    const accepted = read(
      answered(
        403,
        { 'x-accepted-github-permissions': 'pull_requests=read; contents=read' },
        {
          message: 'Resource not accessible by integration',
        },
      ),
      'statuses: read',
    );
    expect(accepted).toEqual({ kind: 'permission', status: 403, permission: 'pull-requests: read' });
    expect(answerWords(accepted)).toBe(
      'GitHub answered 403: `github-token` needs `pull-requests: read` (`permissions:` of the workflow or job)',
    );
    expect(read(answered(403, {}, { message: 'Resource not accessible by integration' }))).toEqual({
      kind: 'permission',
      status: 403,
      permission: 'statuses: write',
    });
  });

  it('primary limit: 403 or 429 with x-ratelimit-remaining 0, until x-ratelimit-reset', () => {
    const reset = String(NOW / 1000 + 30);
    for (const status of [403, 429]) {
      const answer = read(answered(status, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }));
      expect(answer).toEqual({ kind: 'primary-limit', status, resetAt: NOW + 30_000 });
      expect(waitWithin(answer, NOW, 60_000)).toBe(30_000);
    }
    const later = read(
      answered(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 900) }),
    );
    expect(waitWithin(later, NOW, 60_000)).toBeUndefined();
    expect(answerWords(later)).toBe(
      "GitHub's rate limit for `github-token` is spent (403; it resets at 2026-11-02T09:15:00Z)",
    );
  });

  it('secondary limit: retry-after, or GitHub’s message without it; never a permission', () => {
    expect(read(answered(429, { 'retry-after': '20' }))).toEqual({
      kind: 'secondary-limit',
      status: 429,
      retryAt: NOW + 20_000,
    });
    const message = read(
      answered(
        403,
        { 'x-ratelimit-remaining': '812' },
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        },
      ),
    );
    expect(message).toEqual({ kind: 'secondary-limit', status: 403 });
    expect(waitWithin(message, NOW, 60_000)).toBeUndefined();
    expect(answerWords(message)).toBe(
      "GitHub's secondary rate limit was reached (403; GitHub gave no time; it asks to wait at least a minute)",
    );
  });

  it('404, 422, a 5xx with an HTML page, no answer at all', () => {
    expect(read(answered(404))).toEqual({ kind: 'not-found', status: 404 });
    expect(read(answered(422, {}, { message: 'Validation Failed' }))).toEqual({
      kind: 'validation',
      status: 422,
    });
    expect(read(answered(502, { 'content-type': 'text/html' }, '<html>Unicorn!</html>'))).toEqual({
      kind: 'failing',
      status: 502,
    });
    const reset = new RequestError('socket hang up', 500, { request, cause: { code: 'ECONNRESET' } });
    expect(read(reset)).toEqual({ kind: 'not-reached', reason: 'ECONNRESET' });
    const timeout = new RequestError('The operation timed out', 500, {
      request,
      cause: Object.assign(new Error('timed out'), { name: 'TimeoutError' }),
    });
    expect(read(timeout)).toEqual({ kind: 'not-reached', reason: 'no answer in time' });
    expect(answerWords(read(reset), 'https://api.github.com')).toBe(
      "GitHub's API at api.github.com could not be reached (ECONNRESET)",
    );
  });

  it('GraphQL 200 with RATE_LIMITED or FORBIDDEN', () => {
    const graphql = (type: string, headers: Record<string, string> = {}) =>
      new GraphqlResponseError({ method: 'POST', url: '/graphql' }, headers, {
        data: { viewer: { login: 'x' }, repository: null },
        errors: [
          { type, message: 'no', locations: [{ line: 1, column: 1 }], path: ['repository'], extensions: {} },
        ],
      });
    expect(
      read(graphql('RATE_LIMITED', { 'x-ratelimit-reset': String(NOW / 1000 + 10) }), 'pull-requests: read'),
    ).toEqual({
      kind: 'primary-limit',
      status: 200,
      resetAt: NOW + 10_000,
    });
    expect(read(graphql('FORBIDDEN'), 'pull-requests: read')).toEqual({
      kind: 'permission',
      status: 200,
      permission: 'pull-requests: read',
    });
  });
});
