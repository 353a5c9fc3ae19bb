/**
 * A gate that holds no runner (issue 34), each step run in process from the sources against GitHub's
 * stand-in (the simulator's) that lists pull requests and their statuses: `run-workflow` with `wait:
 * false` and `commit-statuses` leaves pending statuses on the run's commit and exits; `sync-statuses`
 * settles them later by one read of each run, trusting nothing it did not write (another account, a
 * link that is not the run, a run the token cannot read, a run of another commit), acting on the
 * latest status of each context only. Through the bundles, in __tests__/e2e/runs-bundles.test.ts: a
 * run still going stays pending and is settled once it has ended, and a failed run, where two syncs
 * run at once (two processes) and end alike; in __tests__/e2e/no-runner-bundles.test.ts: the
 * `wait: false` dispatch and its refusal on a push, the trust rules, GitHub's 401, a 422 on one commit
 * and a secondary limit on writes; the other refusals in __tests__/e2e/sync-statuses-bundles.test.ts.
 */
import { IN_PROCESS, runStep, type ActionRun } from '../../testkit/runner/in-process.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { apiRequests, type World } from '../../testkit/world/world.js';
import type { GitHubStandIn, PostedStatus } from '../../simulator/index.js';
import { markerOf } from '../../src/github/status-marker.js';
import {
  closeGitHubWorld,
  statusWords,
  untilRunEnded,
  warningTexts,
} from '../../testkit/world/github-world.js';
import {
  SYNC_PIPELINE as PIPELINE,
  createSyncWorld,
  dispatchAndLeaveStep,
  resetSyncCase,
  SYNC_TOKEN,
  syncEnv,
  type SyncWorld,
  statusBeforeNextPost,
} from '../../testkit/world/status-fixtures.js';

let fixture: SyncWorld;
let world: World;
let github: GitHubStandIn;
let head: string;
let other: string;
beforeAll(async () => {
  fixture = await createSyncWorld(10);
  ({ world, github, head } = fixture);
  other = world.repo.commit({ 'pipeline.yml': PIPELINE }, 'Another commit', 'other');
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetSyncCase(fixture));

/** The gate that leaves: dispatch, one read, pending statuses, exit. */
function dispatchAndLeave(inputs: Record<string, string> = {}, event = 'pull_request'): Promise<ActionRun> {
  return dispatchAndLeaveStep(IN_PROCESS, fixture, inputs, event);
}

/**
 * A step clock for a sync: an hour after the gates' real time, so that the stand-in's minute of
 * writes (on this clock) does not count the gates' posts.
 */
const syncClock = () => new VirtualClock(Date.now() + 3_600_000);

/** sync-statuses on the step clock (a new one unless given): its pacing and waits take no real time. */
function sync(inputs: Record<string, string> = {}, clock = syncClock()): Promise<ActionRun> {
  github.configure({ now: () => clock.now() });
  return IN_PROCESS.runStep('sync-statuses', {
    inputs: { token: world.token, 'base-url': world.sim.url, 'github-token': SYNC_TOKEN, ...inputs },
    env: { ...syncEnv(fixture, 'schedule'), GITHUB_RUN_ID: '902' },
    clock,
  });
}

const words = (status: PostedStatus | undefined) => statusWords(status?.description);
/** The marker a step of GitHub run `githubRun` writes for service run `runId` (the compact form). */
const marker = (runId: string, githubRun = '901', attempt = '1') =>
  markerOf({ serviceRunId: runId, githubRunId: githubRun, githubAttempt: attempt });
const runEnded = (runId: string) => untilRunEnded(world, runId);

describe('run-workflow, wait: false, commit-statuses: true', () => {
  it('reads the run once, posts pending on its commit with the run id and link, and exits', async () => {
    world.sim.setJobBehaviour('build', { durationMs: 60_000 });
    const run = await dispatchAndLeave();
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('dispatched');
    const runId = run.outputs['run-id'];
    // One dispatch and one read of the run, nothing more.
    expect(
      apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')),
    ).toHaveLength(1);
    const latest = github.latest(head, 'svc/pipeline');
    expect(latest).toMatchObject({ state: 'pending', target_url: run.outputs['run-url'] });
    expect(latest?.description).toBe(`Dispatched; sync-statuses settles it ${marker(runId)}`);
    for (const status of github.statuses) {
      expect(status.state).toBe('pending');
      expect(status.description).toContain('sync-statuses settles it');
    }
    expect(run.stdout).toContain('sync-statuses settles its commit statuses');
    world.sim.cancelRun(runId);
  });

  it('outside a pull-request event, and with jobs or on-action-required: fail, is refused before any request', async () => {
    const push = await dispatchAndLeave({}, 'push');
    expect(push.exitCode).toBe(1);
    expect(push.stdout).toContain(
      '`commit-statuses: true` with `wait: false` needs a `pull_request`, `pull_request_target` or `merge_group` event',
    );
    const jobs = await dispatchAndLeave({ jobs: 'build' });
    expect(jobs.exitCode).toBe(1);
    expect(jobs.stdout).toContain('`jobs` has no effect with `wait: false`');
    expect(apiRequests(world.sim)).toEqual([]);
    expect(github.requests).toEqual([]);
  });
});

describe('sync-statuses', () => {
  it('max-runs bounds the runs read: the rest stay pending, one warning says so', async () => {
    const first = await dispatchAndLeave({ 'status-context': 'svc/one' });
    const second = await dispatchAndLeave({ 'status-context': 'svc/two' });
    await runEnded(first.outputs['run-id']);
    await runEnded(second.outputs['run-id']);
    const reads = () =>
      apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')).length;
    const before = reads();
    const run = await sync({ 'max-runs': '1' });
    expect(reads() - before).toBe(1);
    expect(Number(run.outputs.settled)).toBeGreaterThan(0);
    expect(Number(run.outputs.pending)).toBeGreaterThan(0);
    const warnings = run.annotations.filter(({ kind }) => kind === 'warning').map(({ text }) => text);
    expect(warnings).toEqual([
      'Left for the next sync-statuses: max-runs (1) reached: 1 run not read this time.',
    ]);
    const next = await sync({ 'max-runs': '1' });
    expect(next.outputs.pending).toBe('0');
    expect(Object.values(github.states(head)).every((state) => state === 'success')).toBe(true);
  });

  it('the statuses a gate of the previous major version left, their marker in the old form: settled, in the compact form', async () => {
    const left = await dispatchAndLeave();
    const runId = left.outputs['run-id'];
    // As that gate wrote them: `[svc:<run id> gh:<GitHub run>/<attempt>]`.
    const old = `[svc:${runId} gh:901/1]`;
    for (const status of github.statuses)
      status.description = status.description?.replace(` ${marker(runId)}`, ` ${old}`);
    expect(github.statuses.map((status) => status.description?.endsWith(` ${old}`))).toEqual([
      true,
      true,
      true,
    ]);
    await runEnded(runId);
    const run = await sync();
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({ settled: '3', pending: '0', refused: '0' });
    expect(github.states(head)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
    expect(github.latest(head, 'svc/pipeline')?.description).toBe(`Succeeded ${marker(runId)}`);
  });

  describe('nothing trusted that it did not write', () => {
    /** A pending status on `sha` that names `runId`, as seeded by a test. */
    const seed = (status: Partial<PostedStatus> & { context: string; runId: string; sha?: string }) =>
      github.statuses.push({
        sha: status.sha ?? head,
        context: status.context,
        state: 'pending',
        description: `Running ${marker(status.runId, '900')}`,
        target_url: status.target_url,
        creator: status.creator,
      });

    it('another account’s pending status: left alone; a link that is not the run’s: error, never success', async () => {
      const left = await dispatchAndLeave({ 'status-context': 'svc/gate' });
      const runId = left.outputs['run-id'];
      await runEnded(runId);
      seed({
        context: 'svc/forged',
        runId,
        target_url: left.outputs['run-url'],
        creator: { login: 'mallory' },
      });
      seed({ context: 'svc/linked', runId, target_url: 'https://evil.example/run' });
      const run = await sync();
      expect(run.outputs.refused).toBe('2');
      expect(github.latest(head, 'svc/forged')).toMatchObject({
        state: 'pending',
        creator: { login: 'mallory' },
      });
      expect(github.latest(head, 'svc/linked')?.state).toBe('error');
      expect(words(github.latest(head, 'svc/linked'))).toBe(
        "Not trusted: its link is not the run's own page",
      );
      expect(github.latest(head, 'svc/gate')?.state).toBe('success');
      expect(run.summary).toContain('**Refused**');
      expect(run.summary).toContain('posted by mallory');
      expect(warningTexts(run)).toEqual([
        "Pending statuses with this action's marker posted by mallory were left alone: sync-statuses settles only those of `github-token`'s account (github-actions[bot]).",
      ]);
    });

    it('a run the token cannot read stays pending (the fail-safe rule); a run of another commit: error, never success', async () => {
      seed({
        context: 'svc/unknown',
        runId: '0b0b0b0b-0000-4000-8000-0000000000aa',
        target_url: 'https://svc.example/x',
      });
      const elsewhere = await runStep('run-workflow', {
        inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'other', wait: 'false' },
      });
      await runEnded(elsewhere.outputs['run-id']);
      seed({
        context: 'svc/elsewhere',
        runId: elsewhere.outputs['run-id'],
        target_url: elsewhere.outputs['run-url'],
      });
      const run = await sync();
      expect(run.exitCode).toBe(0);
      expect(run.outputs).toMatchObject({ settled: '0', pending: '1', refused: '1' });
      expect(github.latest(head, 'svc/unknown')?.state).toBe('pending');
      expect(run.summary).toContain(
        '| `svc/unknown` | run 0b0b0b0b-0000-4000-8000-0000000000aa cannot be read with this token \\(404\\) |',
      );
      // Another run was read: a run of another project's is no reason to warn on every call.
      expect(warningTexts(run)).toEqual([]);
      expect(github.latest(head, 'svc/elsewhere')?.state).toBe('error');
      expect(words(github.latest(head, 'svc/elsewhere'))).toBe(
        `Not trusted: the run is of commit ${other}, not this one`,
      );
    });

    it('every run read 404, and the service answers an id that is not a UUID with 400: a warning that token may be another project’s', async () => {
      seed({ context: 'svc/gone', runId: '0b0b0b0b-0000-4000-8000-0000000000ac' });
      const run = await sync();
      expect(run.exitCode).toBe(0);
      expect(run.outputs).toMatchObject({ settled: '0', pending: '1' });
      expect(apiRequests(world.sim)).toContain('GET /v2/workflows/runs/not-a-uuid');
      expect(warningTexts(run)).toEqual([expect.stringContaining('it may belong to another project')]);
      expect(github.latest(head, 'svc/gone')?.state).toBe('pending');
    });

    it('every run read 404, and an id that is not a UUID 404 too (not the service): an error naming base-url, all pending', async () => {
      seed({ context: 'svc/gone', runId: '0b0b0b0b-0000-4000-8000-0000000000ad' });
      world.sim.injectFault({
        method: 'GET',
        path: '/v2/workflows/runs/not-a-uuid',
        kind: 'status',
        status: 404,
        body: '{"message":"Not Found"}',
      });
      const run = await sync();
      expect(run.exitCode).toBe(1);
      expect(run.outputs).toMatchObject({ settled: '0', pending: '1' });
      expect(errorTexts(run)).toEqual([
        expect.stringContaining(`\`base-url\` ${world.sim.url} does not answer as the service does`),
      ]);
      expect(run.stdout).not.toContain('Unexpected error');
      expect(github.latest(head, 'svc/gone')?.state).toBe('pending');
    });

    it('only the latest status of a context: an older attempt’s pending under a newer verdict is not settled', async () => {
      const left = await dispatchAndLeave();
      await runEnded(left.outputs['run-id']);
      // A later attempt's step already said failure on the run's context.
      github.statuses.push({
        sha: head,
        context: 'svc/pipeline',
        state: 'failure',
        description: `Failed ${marker('0b0b0b0b-0000-4000-8000-0000000000bb', '901', '2')}`,
      });
      await sync();
      expect(github.latest(head, 'svc/pipeline')?.state).toBe('failure');
    });

    it('`commit` settles that one commit, without listing pull requests', async () => {
      const left = await dispatchAndLeave();
      await runEnded(left.outputs['run-id']);
      github.pullRequests = [];
      const run = await sync({ commit: head });
      expect(run.exitCode).toBe(0);
      expect(github.states(head)['svc/pipeline']).toBe('success');
      expect(github.requests.some((request) => request.path.includes('/pulls'))).toBe(false);
    });
  });
});

/** Pending statuses of a gate that left, its run ended: what a sync finds to settle. */
async function gateLeft(context = 'svc/pipeline'): Promise<{ runId: string; runUrl: string }> {
  const left = await dispatchAndLeave({ 'status-context': context });
  await runEnded(left.outputs['run-id']);
  github.requests.length = 0;
  return { runId: left.outputs['run-id'], runUrl: left.outputs['run-url'] };
}
const errorTexts = (run: ActionRun) =>
  run.annotations.filter(({ kind }) => kind === 'error').map(({ text }) => text);
const graphqlQueries = () => github.requests.filter((request) => request.path === '/graphql').length;
const statusPosts = () =>
  github.requests.filter((request) => request.method === 'POST' && request.path.includes('/statuses/'));
const runReads = () =>
  apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')).length;

describe('sync-statuses against GitHub as it answers (issue 39)', () => {
  it('a `commit` with no status of this action (a pull request’s merge commit): a warning naming it and the head SHA’s expression', async () => {
    await gateLeft();
    const merge = 'feedface'.repeat(5);
    const clock = syncClock();
    github.configure({ now: () => clock.now() });
    const run = await IN_PROCESS.runStep('sync-statuses', {
      inputs: { token: world.token, 'base-url': world.sim.url, 'github-token': SYNC_TOKEN, commit: merge },
      env: syncEnv(fixture, 'pull_request'),
      clock,
    });
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({ settled: '0', pending: '0', refused: '0' });
    expect(warningTexts(run)).toEqual([
      `Commit ${merge} (\`commit\`) carries no commit status of this action: nothing to settle there. On a pull request, \`\${{ github.sha }}\` is the merge commit; the gate posts on the head commit, \`\${{ github.event.pull_request.head.sha }}\`.`,
    ]);
    // The head it names is where the statuses are, and a sync of it settles them.
    const head_ = await sync({ commit: head });
    expect(warningTexts(head_)).toEqual([]);
    expect(head_.outputs.settled).toBe('3');
  });

  it('posts one write a second on the step clock, one GraphQL query for the open pull requests, one read-back', async () => {
    await gateLeft();
    const clock = syncClock();
    const run = await sync({}, clock);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({ settled: '3', pending: '0', refused: '0' });
    const posted = github.statuses
      .filter((status) => status.creator?.login && status.receivedAt! >= 0)
      .slice(-3);
    const times = posted.map((status) => status.receivedAt!);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(1_000);
    expect(graphqlQueries()).toBe(1);
    // Three posts and one read-back: nothing read per pull request.
    expect(github.requests.filter((request) => request.path !== '/graphql').map((r) => r.method)).toEqual([
      'POST',
      'POST',
      'POST',
      'GET',
    ]);
  });

  it('150 open pull requests, the oldest gated: settled in one call of two GraphQL queries', async () => {
    github.pullRequests = [];
    github.addPullRequest({ number: 1, head, created_at: '2026-10-01T00:00:00Z' });
    for (let number = 2; number <= 150; number++)
      github.addPullRequest({
        number,
        head: number.toString(16).padStart(40, 'a'),
        created_at: `2026-10-02T00:00:${String(number % 60).padStart(2, '0')}Z`,
      });
    await gateLeft();
    github.requests.length = 0;
    const run = await sync();
    expect(run.outputs.settled).toBe('3');
    expect(github.states(head)['svc/pipeline']).toBe('success');
    expect(graphqlQueries()).toBe(2);
    expect(run.stdout).toContain('Open pull requests: 150;');
  });

  it('a github-token without pull-requests: read: an error naming it, outputs set, no "Unexpected error"', async () => {
    await gateLeft();
    github.configure({ tokens: { [SYNC_TOKEN]: { permissions: { statuses: 'write' } } } });
    const run = await sync();
    expect(run.exitCode).toBe(1);
    expect(run.outputs).toEqual({ settled: '0', pending: '0', refused: '0' });
    expect(errorTexts(run)).toEqual([expect.stringContaining('`github-token` needs `pull-requests: read`')]);
    expect(run.stdout).not.toContain('Unexpected error');
    expect(github.states(head)['svc/pipeline']).toBe('pending');
  });

  it('a github-token GitHub refuses (401): an error naming github-token', async () => {
    await gateLeft();
    github.configure({ unknownTokens: 'refuse' });
    const run = await sync({ 'github-token': 'ghs_notAToken000000000' });
    expect(run.exitCode).toBe(1);
    expect(errorTexts(run)).toEqual([expect.stringContaining('GitHub refused `github-token` (401')]);
    expect(run.outputs.settled).toBe('0');
  });

  it('GraphQL’s hour spent: no request waits an hour; a warning gives the reset time, statuses stay pending', async () => {
    await gateLeft();
    github.configure({ limits: { graphql: 0 } });
    const clock = syncClock();
    const run = await sync({}, clock);
    expect(run.exitCode).toBe(0);
    expect(warningTexts(run)).toEqual([
      expect.stringMatching(/rate limit for `github-token` is spent \(.*it resets at 2026-.*Z\).*next call/),
    ]);
    expect(Math.max(0, ...clock.waits)).toBeLessThanOrEqual(60_000);
    expect(github.states(head)['svc/pipeline']).toBe('pending');
    expect(run.stdout).not.toContain('Unexpected error');
  });

  it('a secondary limit on writes: waits once (within 60 s), then stops posting with a warning; the rest stay pending', async () => {
    await gateLeft();
    github.configure({ limits: { writesPerMinute: 1, secondaryRetryAfter: 'always' } });
    const clock = syncClock();
    const run = await sync({}, clock);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({ settled: '2', pending: '1', refused: '0' });
    expect(warningTexts(run)).toEqual([
      expect.stringMatching(
        /^GitHub's secondary rate limit was reached \(4\d\d; try again after 20\d\d-.*Z\): sync-statuses stopped its GitHub requests for this call/,
      ),
    ]);
    expect(github.states(head)['svc/pipeline/e2e']).toBe('pending');
    // One wait of the limit's retry-after (59 s after a write a second earlier), never a second.
    expect(clock.waits.filter((ms) => ms > 1_000)).toEqual([59_000]);
    expect(run.stdout).not.toContain('Unexpected error');
  });

  it('the service refuses `token` (401): no more runs read, every status pending, an error naming token and base-url', async () => {
    await gateLeft('svc/one');
    await gateLeft('svc/two');
    const before = runReads();
    const run = await sync({ token: 'wrong-token' });
    expect(run.exitCode).toBe(1);
    expect(runReads() - before).toBe(1);
    expect(run.outputs).toEqual({ settled: '0', pending: '6', refused: '0' });
    expect(errorTexts(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^The service at ${world.sim.url.replace(/[.]/g, '\\.')} \\(\`base-url\`\\) refused \`token\``,
        ),
      ),
    ]);
    expect(statusPosts()).toHaveLength(0);
  });

  it('an unreachable service: two attempts on the step clock, no more runs read, one warning; all pending', async () => {
    await gateLeft('svc/one');
    await gateLeft('svc/two');
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      kind: 'status',
      status: 502,
      times: 10,
    });
    const before = runReads();
    const clock = syncClock();
    const run = await sync({}, clock);
    expect(run.exitCode).toBe(0);
    expect(runReads() - before).toBe(2);
    expect(run.outputs).toEqual({ settled: '0', pending: '6', refused: '0' });
    const warnings = warningTexts(run);
    expect(warnings.filter((text) => text.includes('could not be reached'))).toHaveLength(1);
    expect(clock.waits.filter((ms) => ms >= 500 && ms <= 1_000)).toHaveLength(1);
    expect(statusPosts()).toHaveLength(0);
    world.sim.clearFaults();
  });

  it('a re-run’s status posted between the sync’s read and its post ends on top', async () => {
    const { runUrl } = await gateLeft();
    const rerun = '0b0b0b0b-0000-4000-8000-0000000000cc';
    // The re-run's step, with the same workflow token, says its verdict just before the sync's post.
    const undo = statusBeforeNextPost(github, {
      context: 'svc/pipeline',
      state: 'success',
      description: `Succeeded ${marker(rerun, '901', '2')}`,
      target_url: runUrl,
    });
    try {
      const run = await sync();
      expect(run.exitCode).toBe(0);
    } finally {
      undo();
    }
    expect(github.latest(head, 'svc/pipeline')?.description).toBe(`Succeeded ${marker(rerun, '901', '2')}`);
  });

  it('a 422 on one commit does not stop the others; a 502 page from GitHub stops the call with a warning, never "Unexpected error"', async () => {
    github.addPullRequest({ number: 8, head: other });
    const elsewhere = await runStep('run-workflow', {
      inputs: {
        ...world.api,
        workflow: 'pipeline.yml',
        'git-ref': 'other',
        wait: 'false',
        'commit-statuses': 'true',
        'github-token': SYNC_TOKEN,
      },
      env: { ...syncEnv(fixture), GITHUB_EVENT_NAME: 'pull_request' },
    });
    await runEnded(elsewhere.outputs['run-id']);
    await gateLeft();
    github.nextStatusAnswers = [{ status: 422, message: 'Validation Failed' }];
    const run = await sync();
    expect(run.exitCode).toBe(0);
    // The first commit's posts stay pending, the other commit's are settled.
    const states = [github.states(head)['svc/pipeline'], github.states(other)['svc/pipeline']].sort();
    expect(states).toEqual(['pending', 'success']);
    expect(run.summary).toContain('GitHub refused the post');
    expect(run.stdout).not.toContain('Unexpected error');

    github.nextStatusAnswers = [{ status: 502, message: '<html>Unicorn!</html>' }];
    const failing = await sync();
    expect(failing.exitCode).toBe(0);
    expect(warningTexts(failing)).toEqual([expect.stringContaining("GitHub's API failed (502)")]);
    expect(failing.stdout).not.toContain('Unexpected error');
  });
});
