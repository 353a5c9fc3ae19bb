/**
 * `commit-statuses: true` (issue 23, part A), each step run in process from the sources, against
 * GitHub's stand-in (the simulator's), its statuses route: the sequence of (context, state) each
 * scenario posts, on the pull request's head commit (never the merge commit GITHUB_SHA), with
 * descriptions in the action's own words; nothing is left pending when the gate stops early; a status
 * that cannot be posted is one warning and never changes the gate's result; wait-for-run without
 * `status-context` is refused before any request. Through the bundle, in
 * __tests__/e2e/runs-bundles.test.ts: a run that succeeds, and a cancelled step (SIGINT, which needs
 * a process of the step's own).
 */
import { virtualStepClockEachTest } from '../../testkit/world/world-hooks.js';
import { IN_PROCESS, runStep } from '../../testkit/runner/in-process.js';
import { apiRequests, followRunStep, until, type World } from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';
import type { GitHubStandIn } from '../../simulator/index.js';
import {
  closeGitHubWorld,
  createGitHubWorld,
  lastStatus,
  pullRequestOnHead,
  resetStatusesWorld,
  statusSequences,
  statusWords as words,
  warningTexts as warningsOf,
  type GitHubWorld,
} from '../../testkit/world/github-world.js';
import {
  STATUSES_PIPELINE as PIPELINE,
  mergeCommitEnv,
  statusesGate,
} from '../../testkit/world/status-fixtures.js';

const RELEASE = workflow('Release', { approve: { type: 'require-approval' }, ship: { needs: ['approve'] } });

let fixture: GitHubWorld;
let world: World;
let github: GitHubStandIn;
beforeAll(async () => {
  fixture = await createGitHubWorld(
    { 'pipeline.yml': PIPELINE, 'release.yml': RELEASE },
    { defaultJobDurationMs: 10 },
    'statuses-',
    pullRequestOnHead(7),
  );
  ({ world, github } = fixture);
});
afterAll(() => closeGitHubWorld(fixture));
// The step clock of every gate here: writes a second apart and the settle window pass in no time.
const stepClock = virtualStepClockEachTest();
beforeEach(() => resetStatusesWorld(fixture));

const env = (): Record<string, string> => mergeCommitEnv(fixture);

function gate(inputs: Record<string, string>) {
  return statusesGate(IN_PROCESS, fixture, inputs);
}

/** Each context's states in the order posted. */
const sequences = (): Record<string, string[]> => statusSequences(github);

const last = (context: string) => lastStatus(github, context);

/** When the stand-in received each status write: its clock is the step clock here. */
const writeTimes = (): number[] => github.statuses.map((status) => status.receivedAt!);

/** The last status of `context`, its description as words. */
const lastSaid = (context: string) => {
  const status = last(context);
  return status && { state: status.state, description: words(status.description) };
};

describe('commit statuses, one per remote job', () => {
  it('a failed job: failure; the job skipped after it: failure naming the job it needed', async () => {
    world.sim.setJobBehaviour('e2e', { outcome: 'failure', errorMessage: 'tests failed' });
    const run = await gate({});
    expect(run.exitCode).toBe(1);
    expect(last('svc/pipeline')?.state).toBe('failure');
    expect(last('svc/pipeline/build')?.state).toBe('success');
    expect(lastSaid('svc/pipeline/e2e')).toEqual({ state: 'failure', description: 'Failed' });
    expect(lastSaid('svc/pipeline/report')).toEqual({
      state: 'failure',
      description: 'Skipped: needed job e2e did not succeed',
    });
  });

  it('a run of 105 jobs: statuses for the run and the first 60 jobs, one warning for the rest', async () => {
    const jobs = Object.fromEntries(Array.from({ length: 105 }, (_, i) => [`job_${i}`, {}]));
    // On a branch of its own: main, which the other cases dispatch, stays the pull request's head.
    world.repo.commit({ 'many.yml': workflow('Many', jobs) }, 'Many jobs', 'many');
    github.configure({ now: () => stepClock().now() });
    const run = await gate({ workflow: 'many.yml', 'git-ref': 'many' }).finally(() =>
      github.configure({ now: () => Date.now() }),
    );
    expect(run.exitCode).toBe(0);
    const times = writeTimes();
    // Within GitHub's limits, on the step clock: never two writes within a second, final states
    // included, so at most 60 in any minute; the step's requests within its budget of 300.
    expect(times.length).toBeGreaterThanOrEqual(61);
    expect(Math.min(...times.slice(1).map((at, i) => at - times[i]))).toBeGreaterThanOrEqual(1_000);
    expect(
      Math.max(...times.map((start) => times.filter((at) => at >= start && at < start + 60_000).length)),
    ).toBeLessThanOrEqual(60);
    expect(github.requests.length).toBeLessThanOrEqual(300);
    const contexts = Object.keys(sequences());
    expect(contexts).toHaveLength(61);
    expect(contexts).toContain('svc/many');
    expect(contexts.filter((context) => context.startsWith('svc/many/'))).toHaveLength(60);
    for (const context of contexts) expect(last(context)?.state).toBe('success');
    const warnings = warningsOf(run).filter((text) => text.startsWith('commit-statuses'));
    expect(warnings).toEqual([
      'commit-statuses: the run has 105 jobs to follow; a status is posted for the first 60 seen and for the run (`svc/many`), which covers them all. Use `jobs` to choose the jobs a ruleset requires.',
    ]);
  });

  it('a canceled run: error; a status-context replaces the svc/<workflow> prefix', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    const pending = gate({ 'status-context': 'svc/e2e-ios' });
    const running = await until(() =>
      world.sim.runs().find((run) => run.jobs.find((job) => job.key === 'e2e')?.status === 'in-progress'),
    );
    world.sim.cancelRun(running.id);
    const run = await pending;
    expect(run.exitCode).toBe(1);
    expect(Object.keys(sequences()).every((context) => context.startsWith('svc/e2e-ios'))).toBe(true);
    expect(lastSaid('svc/e2e-ios')).toEqual({ state: 'error', description: 'Canceled' });
    expect(last('svc/e2e-ios/e2e')?.state).toBe('error');
  });

  it('waiting for approval: pending, "Waiting for approval"; on-action-required: fail leaves none pending', async () => {
    const waiting = gate({ workflow: 'release.yml' });
    // The run's status and the job's are separate requests: wait for the job's, the one this asserts.
    await until(() => words(last('svc/release/approve')?.description) === 'Waiting for approval');
    expect(lastSaid('svc/release/approve')).toEqual({
      state: 'pending',
      description: 'Waiting for approval',
    });
    world.sim.cancelRun(world.sim.runs()[0].id);
    expect((await waiting).outputs.outcome).toBe('canceled');
    expect(last('svc/release/approve')?.state).toBe('error');

    github.statuses.length = 0;
    const run = await gate({ workflow: 'release.yml', 'on-action-required': 'fail' });
    expect(run.outputs.outcome).toBe('action-required');
    for (const context of Object.keys(sequences())) expect(last(context)?.state).not.toBe('pending');
    expect(lastSaid('svc/release')).toEqual({
      state: 'error',
      description: 'Not followed to its end: the run waits for approval (on-action-required: fail)',
    });
    world.sim.cancelRun(run.outputs['run-id']);
  });

  it('timeout-minutes reached: every pending status becomes error, saying so', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    // On the step clock: five minutes of 5 s polls, while e2e runs for a minute of real time.
    const run = await gate({ 'timeout-minutes': '5', 'poll-interval-seconds': '5' });
    expect(run.outputs.outcome).toBe('timed-out');
    for (const context of ['svc/pipeline', 'svc/pipeline/e2e', 'svc/pipeline/report'])
      expect(lastSaid(context)).toEqual({
        state: 'error',
        description: 'Not followed to its end: timeout-minutes reached',
      });
    expect(last('svc/pipeline/build')?.state).toBe('success');
    world.sim.cancelRun(run.outputs['run-id']);
  });

  it('`jobs` satisfied before the run ends: only the listed jobs get a status, the run carries the verdict', async () => {
    world.sim.setJobBehaviour('report', { durationMs: 60_000 });
    const run = await gate({ jobs: 'build' });
    expect(run.exitCode).toBe(0);
    expect(Object.keys(sequences()).sort()).toEqual(['svc/pipeline', 'svc/pipeline/build']);
    expect(last('svc/pipeline/build')?.state).toBe('success');
    expect(lastSaid('svc/pipeline')).toEqual({
      state: 'success',
      description: 'Listed jobs succeeded; the run goes on',
    });
    world.sim.cancelRun(run.outputs['run-id']);
  });

  it('403 (no statuses: write): one warning naming the permission, and the gate passes as it would', async () => {
    github.failStatusesWith = 403;
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    const warnings = warningsOf(run);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('statuses: write');
    // One refused request, then no more.
    expect(github.requests.filter((request) => request.path.includes('/statuses/'))).toHaveLength(1);
  });

  it('wait-for-run: the commit expected-commit binds to; without status-context an input error and no request', async () => {
    const dispatched = await runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'main', wait: 'false' },
    });
    const runId = dispatched.outputs['run-id'];
    const before = apiRequests(world.sim).length;
    const refused = await followRunStep(
      IN_PROCESS,
      world,
      runId,
      { 'commit-statuses': 'true', 'github-token': 'ghs_x0123456789' },
      { env: env() },
    );
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain('`status-context` is required with `commit-statuses: true`');
    expect(apiRequests(world.sim).length).toBe(before);
    expect(github.requests).toEqual([]);

    const followed = await followRunStep(
      IN_PROCESS,
      world,
      runId,
      {
        'commit-statuses': 'true',
        'status-context': 'svc/pipeline-gate',
        'expected-commit': world.repo.headSha.slice(0, 10),
        'github-token': 'ghs_x0123456789',
      },
      { env: env() },
    );
    expect(followed.exitCode).toBe(0);
    expect(new Set(github.statuses.map((status) => status.sha))).toEqual(new Set([world.repo.headSha]));
    expect(last('svc/pipeline-gate')?.state).toBe('success');
  });

  it('an invalid status-context: an input error that points at the first character not allowed, no request', async () => {
    const [space, tooLong] = await Promise.all([
      gate({ 'status-context': 'svc/e2e ios' }),
      gate({ 'status-context': `svc/${'x'.repeat(60)}` }),
    ]);
    expect(space.exitCode).toBe(1);
    expect(space.errors).toEqual([
      expect.stringContaining(
        'Invalid input: `status-context` may hold only letters, digits, `_`, `.`, `/`, `:` and `-`, such as `svc/e2e-ios`; a space at position 8 is not one of them.',
      ),
    ]);
    expect(tooLong.exitCode).toBe(1);
    expect(tooLong.stdout).toContain('`status-context` is 64 characters long; at most 60');
    expect(apiRequests(world.sim)).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it('status-context without commit-statuses: true: one warning that it names no status', async () => {
    const run = await gate({ 'commit-statuses': 'false', 'status-context': 'svc/e2e-ios' });
    expect(run.exitCode).toBe(0);
    expect(warningsOf(run)).toEqual([
      '`status-context` is set, but `commit-statuses` is not `true`: no commit status is posted, so it names none. Add `commit-statuses: true`, or remove `status-context`.',
    ]);
    expect(github.statuses).toEqual([]);
  });
});
