/**
 * The gate's commit statuses within GitHub's limits (issue 39, part 2 item 7, and item 1 for the
 * gate), on the step clock: CommitStatuses against a GitHub that answers as each case scripts, every
 * request recorded with the step clock's time when it arrived. Writes a second apart, final states
 * included; one read-back per batch; reads and writes within one budget; the back-off (longer each
 * time, a reset waited for only when `x-ratelimit-remaining` is 0, a secondary limit as `retry-after`
 * says, else a minute and longer); the settle window; the cancellation; and every answer of GitHub's
 * told in words, never thrown. The gate's whole step: __tests__/runs/commit-statuses.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { createTestIO, type RecordingIO } from '../../testkit/world/io.js';
import { replaceStepClock } from '../../src/text/clock.js';
import { CommitStatuses } from '../../src/github/statuses.js';
import { REQUEST_BUDGET, SETTLE_MIN_MS, settleWindowMs } from '../../src/github/status-budget.js';
import { NoRepository, troubleOf } from '../../src/github/status-trouble.js';
import { STOP_ON_CANCEL_MS } from '../../src/runner/timings.js';

const SHA = 'c0ffee'.padEnd(40, '1');
const RUN = '0a0a0a0a-0000-4000-8000-000000000001';

/** One scripted answer: a status and body, or a connection reset. */
type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'reset';

interface Received {
  method: string;
  path: string;
  /** The step clock's time when the request arrived. */
  at: number;
  context?: string;
  state?: string;
}

let server: Server;
let url: string;
let clock: VirtualClock;
let restoreClock: () => void;
let received: Received[];
/** Answers for the next writes, in order; then 201. */
let writeAnswers: Answer[];
let posted: Array<{ context: string; state: string; description: string }>;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = raw ? (JSON.parse(raw) as { context?: string; state?: string; description?: string }) : {};
      received.push({ method: request.method!, path: request.url!, at: clock.now(), ...pick(body) });
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(JSON.stringify([...posted].reverse().map((status, id) => ({ id, ...status }))));
      }
      const answer = writeAnswers.shift() ?? { status: 201 };
      if (answer === 'reset') return request.socket.destroy();
      if (answer.status === 201)
        posted.push({ context: body.context!, state: body.state!, description: body.description! });
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body ?? JSON.stringify({ message: 'scripted' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // @actions/github takes its API's address from the environment once, as it loads.
  const { defaults } = await import('@actions/github/lib/utils');
  defaults.baseUrl = url;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  received = [];
  writeAnswers = [];
  posted = [];
  clock = new VirtualClock();
  restoreClock = replaceStepClock(clock);
});
afterEach(() => restoreClock());

function pick(body: { context?: string; state?: string }): { context?: string; state?: string } {
  return body.context ? { context: body.context, state: body.state } : {};
}

function statuses(io: RecordingIO): CommitStatuses {
  const statuses = new CommitStatuses(
    io,
    'ghs_limitsToken0123456789',
    { serviceRunId: RUN, githubRunId: '901', githubAttempt: '1' },
    { GITHUB_API_URL: url, GITHUB_REPOSITORY: 'acme/app' },
  );
  statuses.onCommit(SHA);
  return statuses;
}

const writes = () => received.filter((request) => request.method === 'POST');
const reads = () => received.filter((request) => request.method === 'GET');
const gaps = (times: number[]) => times.slice(1).map((at, i) => at - times[i]);
const warnings = (io: RecordingIO) => io.log.filter(({ kind }) => kind === 'warning').map(({ text }) => text);

/** The most writes in any minute: for each write, those within the 60 s that start with it. */
function mostInAMinute(times: number[]): number {
  return Math.max(
    0,
    ...times.map((start) => times.filter((at) => at >= start && at < start + 60_000).length),
  );
}

/** A gate's statuses: the run's context and `jobs` job contexts, each first `pending`, flushed. */
async function openGate(io: RecordingIO, jobs: number): Promise<CommitStatuses> {
  const gate = statuses(io);
  gate.set('svc/pipeline', 'pending', 'Running', true);
  for (let i = 0; i < jobs; i++) gate.set(`svc/pipeline/job_${i}`, 'pending', 'Queued');
  await gate.flush();
  return gate;
}

describe('writes a second apart, one read-back per batch, one budget', () => {
  it('61 contexts whose jobs end at once: never two writes within a second, at most 60 in any minute, all settled', async () => {
    const io = createTestIO();
    const gate = await openGate(io, 60);
    for (let i = 0; i < 60; i++) gate.set(`svc/pipeline/job_${i}`, 'success', 'Succeeded');
    gate.set('svc/pipeline', 'success', 'Succeeded', true);
    await gate.settle({ cancelled: false });
    const times = writes().map((write) => write.at);
    // 61 first posts: 60 fit the first minute's pace, the last job's goes straight to its end.
    expect(times).toHaveLength(121);
    expect(Math.min(...gaps(times))).toBeGreaterThanOrEqual(1_000);
    expect(mostInAMinute(times)).toBeLessThanOrEqual(60);
    // The run's context first at the end, then the jobs' final states.
    expect(writes()[60]).toMatchObject({ context: 'svc/pipeline', state: 'success' });
    const latest = new Map(posted.map(({ context, state }) => [context, state]));
    expect(latest.size).toBe(61);
    expect([...latest.values()].every((state) => state === 'success')).toBe(true);
    // Once a batch, not once a write: the first batch, the final one, and the look after the last.
    expect(reads()).toHaveLength(3);
    expect(received.length).toBeLessThanOrEqual(REQUEST_BUDGET);
    expect(warnings(io)).toEqual([]);
  });

  it('contexts that differ only in case are one: posted once, in the spelling first set', async () => {
    const io = createTestIO();
    const gate = statuses(io);
    gate.set('svc/pipeline/Build', 'pending', 'Queued');
    gate.set('svc/pipeline/build', 'success', 'Succeeded');
    await gate.settle({ cancelled: false });
    expect(writes().map(({ context, state }) => [context, state])).toEqual([
      ['svc/pipeline/Build', 'success'],
    ]);
  });
});

describe('the settle window', () => {
  it('a second per context owed, never under 60 s, at most 180 s', () => {
    expect(settleWindowMs(3)).toBe(SETTLE_MIN_MS);
    expect(settleWindowMs(61)).toBe(91_000);
    expect(settleWindowMs(1_000)).toBe(180_000);
  });

  it('GitHub failing until the window is over: the contexts posted pending are left pending, named with the commit and sync-statuses', async () => {
    const io = createTestIO();
    const gate = await openGate(io, 2);
    const start = clock.now();
    gate.set('svc/pipeline', 'failure', 'Failed', true);
    for (const job of ['job_0', 'job_1']) gate.set(`svc/pipeline/${job}`, 'error', 'Not followed');
    gate.set('svc/pipeline/job_2', 'pending', 'Queued');
    writeAnswers = Array.from({ length: 1_000 }, () => ({
      status: 502,
      body: '<html><h1>Bad gateway</h1></html>',
    }));
    await gate.settle({ cancelled: false });
    expect(clock.now() - start).toBeLessThanOrEqual(SETTLE_MIN_MS + 15_000);
    expect(clock.now() - start).toBeGreaterThanOrEqual(SETTLE_MIN_MS - 15_000);
    expect(warnings(io)).toEqual([
      `Commit statuses left unset on commit ${SHA}: \`svc/pipeline\` (left pending), \`svc/pipeline/job_0\` (left pending), \`svc/pipeline/job_1\` (left pending), \`svc/pipeline/job_2\` (never posted: a re-run posts it): GitHub answered 502. ` +
        `sync-statuses settles those left pending (on its schedule, or with \`commit: ${SHA}\`); a re-run of this job posts them all again.`,
    ]);
    expect(io.text()).not.toContain('Bad gateway');
  });
});

describe('on cancellation', () => {
  it("the run's own context is posted first and alone; the rest are left as they are, named in the warning", async () => {
    const io = createTestIO();
    const gate = await openGate(io, 10);
    const before = writes().length;
    const start = clock.now();
    for (let i = 0; i < 10; i++) gate.set(`svc/pipeline/job_${i}`, 'success', 'Succeeded');
    gate.set('svc/pipeline', 'error', 'Not followed to its end: the step was cancelled', true);
    await gate.settle({ cancelled: true });
    expect(
      writes()
        .slice(before)
        .map(({ context, state }) => [context, state]),
    ).toEqual([['svc/pipeline', 'error']]);
    expect(clock.now() - start).toBeLessThanOrEqual(STOP_ON_CANCEL_MS);
    const [warning] = warnings(io);
    expect(warning).toContain("the step was cancelled: only the run's own context is posted then");
    expect(warning).toContain('`svc/pipeline/job_0` (left pending)');
    expect(warning).toContain(
      `sync-statuses settles those left pending (on its schedule, or with \`commit: ${SHA}\`)`,
    );
  });
});

describe('the back-off: longer each time; a reset waited for only when remaining is 0', () => {
  /** The waits between the attempts at one write, on the step clock. */
  async function attemptGaps(answers: Answer[]): Promise<{ gaps: number[]; io: RecordingIO }> {
    const io = createTestIO();
    const gate = statuses(io);
    gate.set('svc/pipeline', 'success', 'Succeeded', true);
    writeAnswers = answers;
    await gate.settle({ cancelled: false });
    return { gaps: gaps(writes().map((write) => write.at)), io };
  }

  it('5xx and a reset connection: retried sooner than a minute, each wait at least as long as the one before', async () => {
    const { gaps: waits, io } = await attemptGaps([
      { status: 502, body: '<html>Bad gateway</html>' },
      'reset',
      { status: 503 },
      { status: 500 },
    ]);
    expect(waits).toHaveLength(4);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]);
    expect(Math.max(...waits)).toBeLessThan(60_000);
    expect(posted).toHaveLength(1);
    expect(warnings(io)).toEqual([]);
  });

  /** The waits between attempts while the gate follows its run (a flush a second), for `count` writes. */
  async function followingGaps(answers: Answer[], count: number): Promise<number[]> {
    const gate = statuses(createTestIO());
    gate.set('svc/pipeline', 'pending', 'Running', true);
    writeAnswers = answers;
    const start = clock.now();
    while (writes().length < count && clock.now() - start < 3_600_000) {
      await gate.flush();
      await clock.sleep(1_000);
    }
    return gaps(writes().map((write) => write.at));
  }

  it('a secondary limit without retry-after: at least a minute, then longer; never until x-ratelimit-reset', async () => {
    const farReset = String(Math.floor(clock.now() / 1000) + 3_600);
    const secondary = {
      status: 403,
      headers: { 'x-ratelimit-remaining': '40', 'x-ratelimit-reset': farReset },
      body: JSON.stringify({ message: 'You have exceeded a secondary rate limit.' }),
    };
    const waits = await followingGaps([secondary, { ...secondary, status: 429 }], 3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(60_000);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    expect(waits[0] + waits[1]).toBeLessThan(3_600_000);
  });

  it('a secondary limit with retry-after: as it says', async () => {
    const { gaps: waits } = await attemptGaps([{ status: 429, headers: { 'retry-after': '7' } }]);
    expect(waits).toEqual([7_000]);
  });

  it('a primary limit (remaining 0): waited for until its reset, when that is within the window', async () => {
    const reset = Math.floor(clock.now() / 1000) + 40;
    const { gaps: waits, io } = await attemptGaps([
      { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } },
    ]);
    expect(waits[0]).toBeGreaterThanOrEqual(39_000);
    expect(io.text()).toContain("Commit statuses: GitHub's rate limit (403) was reached; trying again in");
    expect(posted).toHaveLength(1);
  });
});

describe("GitHub's answers, each in words, never thrown", () => {
  const cases: Array<[string, Answer, RegExp]> = [
    [
      '401',
      { status: 401 },
      /^Commit statuses were not posted: GitHub answered 401: the github-token was refused\.$/,
    ],
    [
      '403 for a permission, naming what GitHub accepts',
      { status: 403, headers: { 'x-accepted-github-permissions': 'statuses=write' } },
      /needs the `statuses: write` permission/,
    ],
    ['404', { status: 404 }, /GitHub answered 404: the github-token needs the `statuses: write` permission/],
    ['422', { status: 422 }, /GitHub refused a status \(422\)/],
  ];
  it.each(cases)('%s: one warning, no retry', async (_, answer, words) => {
    const io = createTestIO();
    const gate = statuses(io);
    gate.set('svc/pipeline', 'success', 'Succeeded', true);
    writeAnswers = [answer];
    await expect(gate.settle({ cancelled: false })).resolves.toBeUndefined();
    expect(warnings(io)).toEqual([expect.stringMatching(words)]);
    expect(writes()).toHaveLength(1);
  });

  it('GITHUB_REPOSITORY naming no repository is known by its type, not by its words: said, never retried', () => {
    expect(troubleOf(new NoRepository(), 0, 1, undefined)).toEqual({
      words: 'GITHUB_REPOSITORY does not name a repository.',
      final: true,
      retryAt: 0,
    });
    // The same words from elsewhere are no such refusal.
    const lookalike = troubleOf(new Error('GITHUB_REPOSITORY does not name a repository'), 0, 1, undefined);
    expect(lookalike.words).not.toBe('GITHUB_REPOSITORY does not name a repository.');
  });

  it('a time-out (no answer within the request time-out) is GitHub not reached, retried', () => {
    // What Octokit throws when the request's AbortSignal.timeout fires (its cause a TimeoutError).
    const timedOut = Object.assign(new Error('The operation was aborted due to timeout'), {
      status: 500,
      cause: new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
    });
    const trouble = troubleOf(timedOut, 0, 1, 'https://api.github.com');
    expect(trouble).toMatchObject({
      words: "GitHub's API at api.github.com could not be reached (no answer in time)",
      final: false,
    });
  });
});
