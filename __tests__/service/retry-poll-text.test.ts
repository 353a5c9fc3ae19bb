import {
  backoffDelayMs,
  isRetryable,
  parseRetryAfterMs,
  retryDelayMs,
  DEFAULT_RETRY_POLICY,
  MIN_DELAY_MS,
} from '../../src/service/retry.js';
import { NetworkError, ResponseFormatError, ServiceError } from '../../src/service/errors.js';
import { poll } from '../../src/service/poll.js';
import { formatElapsed, neutraliseLines, oneLine } from '../../src/text/plain.js';

const status = (code: number, retryAfterMs?: number) =>
  new ServiceError('x', code, undefined, 'x', retryAfterMs);

describe('retry policy', () => {
  it('retries reads on 5xx, 429, network and format errors, but not on 4xx', () => {
    for (const error of [
      status(500),
      status(503),
      status(429),
      new NetworkError('x', false),
      new ResponseFormatError('x'),
    ]) {
      expect(isRetryable(error, true)).toBe(true);
    }
    for (const error of [status(400), status(401), status(403), status(404), new Error('bug')])
      expect(isRetryable(error, true)).toBe(false);
  });

  it('retries create and dispatch only when the request certainly was not processed', () => {
    expect(isRetryable(new NetworkError('refused', true), false)).toBe(true);
    expect(isRetryable(status(429), false)).toBe(false);
    expect(isRetryable(new NetworkError('reset', false), false)).toBe(false);
    expect(isRetryable(status(502), false)).toBe(false);
    expect(isRetryable(new ResponseFormatError('truncated'), false)).toBe(false);
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 8000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 8000,
    ]);
    expect([1, 2, 3].map((n) => backoffDelayMs(n, policy, () => 0))).toEqual([500, 1000, 2000]);
  });

  it('honours Retry-After in seconds or as a date', () => {
    expect(parseRetryAfterMs('3', 0)).toBe(3000);
    expect(parseRetryAfterMs('0.5', 0)).toBe(500);
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfterMs('soon', 0)).toBeUndefined();
    expect(retryDelayMs(status(429, 7000), 1, DEFAULT_RETRY_POLICY)).toBe(7000);
  });

  it('never waits less than MIN_DELAY_MS: `Retry-After: 0`, a past date, a tiny back-off', () => {
    expect(MIN_DELAY_MS).toBe(50);
    expect(parseRetryAfterMs('0', 0)).toBe(0);
    expect(retryDelayMs(status(429, parseRetryAfterMs('0', 0)), 1, DEFAULT_RETRY_POLICY)).toBe(MIN_DELAY_MS);
    const past = parseRetryAfterMs(new Date(1000).toUTCString(), 60_000);
    expect(retryDelayMs(status(503, past), 3, DEFAULT_RETRY_POLICY)).toBe(MIN_DELAY_MS);
    const tiny = { maxAttempts: 6, baseDelayMs: 1, maxDelayMs: 2 };
    expect(retryDelayMs(new NetworkError('x', false), 1, tiny, () => 0)).toBe(MIN_DELAY_MS);
  });
});

describe('poll', () => {
  it('reads one interval apart until done', async () => {
    const reads: number[] = [];
    const start = Date.now();
    const outcome = await poll({
      read: async () => reads.push(Date.now() - start),
      isDone: (count) => count === 3,
      intervalMs: 40,
      deadline: start + 5000,
    });
    expect(outcome).toEqual({ kind: 'done', value: 3 });
    expect(reads[0]).toBeGreaterThanOrEqual(35);
    expect(reads[2] - reads[1]).toBeGreaterThanOrEqual(35);
  });

  it('times out with the last value, reading once at the deadline', async () => {
    let reads = 0;
    const outcome = await poll({
      read: async () => ++reads,
      isDone: () => false,
      intervalMs: 30,
      deadline: Date.now() + 100,
    });
    expect(outcome.kind).toBe('timeout');
    // At most one read per interval plus the one at the deadline; fewer only on a loaded machine.
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(4);
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const outcome = await poll({
      read: async () => 1,
      isDone: () => false,
      intervalMs: 10_000,
      deadline: Date.now() + 60_000,
      signal: controller.signal,
    });
    expect(outcome).toEqual({ kind: 'aborted', last: undefined });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('text safety', () => {
  it('neutralises lines that would be workflow commands (the full corpus is in neutralise.test.ts)', () => {
    expect(neutraliseLines('ok\n::set-output name=x::y\n  ::error::z\nsee ##[group]g')).toBe(
      'ok\n» ::set-output name=x::y\n» ::error::z\nsee ## [group]g',
    );
  });

  it('flattens server text to one line', () => {
    expect(oneLine('fix\n::add-mask::x\r\n\u001b[31mred')).toBe('fix ::add-mask::x [31mred');
    // Cut between words and marked, never inside a word: one too long is left out whole.
    expect(oneLine('aa bb cc dd', 8)).toBe('aa bb …');
    expect(oneLine('aa bbbbbbbbbb cc', 8)).toBe('aa …');
    expect(oneLine('a'.repeat(10), 5)).toBe('…');
    // Only the start of a huge text is read; its last word read may be incomplete, so it is left out.
    expect(oneLine(`word ${'x'.repeat(1_000_000)}`, 20)).toBe('word …');
    expect(oneLine(`${'a '.repeat(100)}${'b'.repeat(1_000_000)}`, 1000)).toBe(`${'a '.repeat(99)}a …`);
  });

  it('formats elapsed time', () => {
    expect([5_000, 65_000, 3_725_000].map(formatElapsed)).toEqual(['5s', '1m05s', '1h02m']);
  });
});
