import {
  backoffDelayMs,
  isRetryable,
  parseRetryAfterMs,
  retryDelayMs,
  DEFAULT_RETRY_POLICY,
  MIN_DELAY_MS,
} from '../../src/service/retry.js';
import { NetworkError, ResponseFormatError, ServiceError } from '../../src/service/errors.js';
import { poll, type PollClock } from '../../src/service/poll.js';
import { neutraliseLines } from '../../src/text/neutralise.js';
import { oneLine } from '../../src/text/one-line.js';
import { formatElapsed } from '../../src/text/time.js';

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

/**
 * A clock for poll whose time moves only by the waits poll asks for: the tests assert the waits
 * scheduled and the reads made, not gaps measured on a machine whose load stretches them. `hold`:
 * a wait passes only when its signal aborts.
 */
function fakeClock(hold = false): PollClock & { waits: number[] } {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: (ms, signal) => {
      waits.push(ms);
      if (!hold) {
        now += ms;
        return Promise.resolve();
      }
      return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
}

describe('poll', () => {
  it('reads one interval apart until done', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const reads: number[] = [];
    const outcome = await poll({
      read: async () => reads.push(clock.now() - start),
      isDone: (count) => count === 3,
      intervalMs: 40,
      deadline: start + 5000,
      clock,
    });
    expect(outcome).toEqual({ kind: 'done', value: 3 });
    expect(clock.waits).toEqual([40, 40, 40]);
    expect(reads).toEqual([40, 80, 120]);
  });

  it('times out with the last value, reading once at the deadline', async () => {
    const clock = fakeClock();
    let reads = 0;
    const outcome = await poll({
      read: async () => ++reads,
      isDone: () => false,
      intervalMs: 30,
      deadline: clock.now() + 100,
      clock,
    });
    expect(outcome).toEqual({ kind: 'timeout', last: 4 });
    // One read per interval, then the one at the deadline itself (10 ms after the third).
    expect(clock.waits).toEqual([30, 30, 30, 10]);
  });

  it('stops at once when aborted', async () => {
    const clock = fakeClock(true);
    const controller = new AbortController();
    let reads = 0;
    const polling = poll({
      read: async () => ++reads,
      isDone: () => false,
      intervalMs: 10_000,
      deadline: clock.now() + 60_000,
      signal: controller.signal,
      clock,
    });
    controller.abort();
    // Aborted in the middle of the one 10 s wait: no read, no further wait.
    expect(await polling).toEqual({ kind: 'aborted', last: undefined });
    expect(clock.waits).toEqual([10_000]);
    expect(reads).toBe(0);
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
