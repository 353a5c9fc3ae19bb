/**
 * The run commands through the committed bundles (dist/), each step a Node 24 process as the runner
 * starts it. Their behaviour is tested in the unit tier, in process from the sources
 * (__tests__/runs/, __tests__/github/pr-comment.test.ts); this file keeps what only the bundles show:
 *
 * - one case for each of those files that earlier issues required "through the bundles": the case
 *   that file's header names as its point (or its first). Each `describe` below names the file it
 *   stands for; the case is no longer in that file.
 * - the cases that need a process of the step's own, kept whole: a signal while the step waits
 *   (SIGINT), two steps at the same time (in process they run one after the other), and what reads
 *   the bundle itself.
 */
import { renderLog, runAction, runStep, type ActionRun } from '../../testkit/runner/step.js';
import { apiRequests, createWorld, followRunStep, until, type World } from '../../testkit/world/world.js';
import { GATE, STORE, workflow } from '../../testkit/docs/workflows.js';
import type { WorkflowRun } from '../../simulator/index.js';

const ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('messages (__tests__/runs/messages.test.ts)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': 'on: workflow_dispatch\njobs:\n  build:\n    type: build\n' });
  });
  afterAll(() => world.sim.close());

  it('wait-for-run: `run-id` one character off is shown, with what is wrong', async () => {
    const value = ID.slice(0, -1);
    const result = await runAction({
      entry: 'wait-for-run',
      inputs: { ...world.api, 'run-id': value },
    });
    expect(result.exitCode).toBe(1);
    const log = renderLog(result.stdout);
    expect(log).toContain(
      `\`run-id\` must be a UUID (8-4-4-4-12 hexadecimal digits); got \`${value}\` (35 characters instead of 36 (groups of 8-4-4-4-11 digits)).`,
    );
    expect(log).not.toContain('looks like a credential');
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

describe('summaries (__tests__/runs/summaries.test.ts)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'gate.yml': GATE }, { defaultJobDurationMs: 30 });
  });
  afterAll(() => world.sim.close());
  beforeEach(() => world.sim.reset());

  const dispatch = (inputs: Record<string, string> = {}) =>
    runAction({
      entry: 'run-workflow',
      inputs: {
        ...world.api,
        workflow: 'gate.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '0.05',
        ...inputs,
      },
    });
  /** The header of the summary's first table. */
  const header = (summary: string): string =>
    summary.split('\n').find((line) => line.startsWith('| Run')) ?? '';

  it('the Ref column only when it differs from the commit: shown for a branch, not for the SHA itself', async () => {
    const byBranch = await dispatch();
    expect(byBranch.exitCode).toBe(0);
    expect(header(byBranch.summary)).toBe('| Run | Status | Ref | Commit | Waited |');
    expect(byBranch.summary).toContain('`refs/heads/main`');

    world.sim.reset();
    const bySha = await dispatch({ 'git-ref': world.repo.headSha });
    expect(bySha.exitCode).toBe(0);
    expect(header(bySha.summary)).toBe('| Run | Status | Commit | Waited |');
  });
});

describe('run-endings (__tests__/runs/run-endings.test.ts)', () => {
  const PIPELINE = workflow('Pipeline', {
    build: { type: 'build' },
    e2e: { name: 'End to end', needs: ['build'] },
    lint: {},
    report: { needs: ['e2e'] },
  });
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'pipeline.yml': PIPELINE }, { defaultJobDurationMs: 40 });
  });
  afterAll(() => world.sim.close());

  function dispatch(inputs: Record<string, string>): Promise<ActionRun> {
    return runStep('run-workflow', {
      inputs: { ...world.api, 'git-ref': 'main', 'poll-interval-seconds': '0.05', ...inputs },
    });
  }

  it('a canceled run: headed canceled, its error lists canceled jobs, not failed ones', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    const pending = dispatch({ workflow: 'pipeline.yml' });
    // Cancel once `e2e` runs and `lint` (beside it, 40 ms) has succeeded: the ending asserted below.
    // Waiting for `e2e` alone let a loaded machine cancel `lint` too (CI saw "e2e,lint,report").
    const statusOf = (
      run: { jobs: Array<{ key: string; status: string }> },
      key: string,
    ): string | undefined => run.jobs.find((job) => job.key === key)?.status;
    const running = await until(() =>
      world.sim
        .runs()
        .find((run) => statusOf(run, 'e2e') === 'in-progress' && statusOf(run, 'lint') === 'success'),
    );
    world.sim.cancelRun(running.id);
    const result = await pending;
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'canceled', outcome: 'canceled' });
    expect(result.summary).toMatch(/^### Workflow run pipeline\\?\.yml: ⏹️ canceled$/m);
    expect(result.summary).not.toContain('❌');
    expect(result.summary).toMatch(/\*\*Canceled jobs\*\*\n\n- End to end \(`e2e`\)\n/);
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors;
    expect(error).toContain(
      `Workflow run ${running.id} ended with status canceled. Canceled jobs: e2e (End to end`,
    );
    expect(error).not.toContain('Failed jobs');
    // `report` never ran: canceled before it started; `e2e` was canceled while it ran.
    expect(result.outputs['failed-jobs']).toBe('e2e,report');
  });
});

describe('wait-for-run (__tests__/runs/wait-for-run.test.ts)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'store.yml': STORE }, { defaultJobDurationMs: 40 });
  });
  afterAll(() => world.sim.close());
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  /** A run nobody in this job dispatched, its first jobs started (see the unit file). */
  async function someoneElsesRun(): Promise<WorkflowRun> {
    const run = await world.sim.createRun({ appId: world.project.id, gitRef: 'main', fileName: 'store.yml' });
    return until(() => {
      const current = world.sim.getRun(run.id);
      return current?.jobs.every((job) => job.key === 'submit' || job.status !== 'new') && current;
    });
  }
  const follow = (runId: string) => followRunStep(world, runId);
  const jobsOf = (result: ActionRun): Array<{ key: string; status: string; buildId: string | null }> =>
    JSON.parse(result.outputs.jobs);

  it('follows a run it did not dispatch to success: the outputs run-workflow sets, a summary, reads only', async () => {
    const started = await someoneElsesRun();
    const result = await follow(started.id);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const simRun = world.sim.getRun(started.id)!;
    expect(simRun.status).toBe('success');
    const jobs = jobsOf(result);
    expect(result.outputs).toEqual({
      'run-id': simRun.id,
      'run-url': simRun.url,
      status: 'success',
      'git-commit-hash': world.repo.headSha,
      jobs: expect.any(String),
      // Issue 25 item 10: the new output, empty when every job succeeded.
      'failed-jobs': '',
      'build-ids': JSON.stringify([jobs[0].buildId, jobs[1].buildId]),
      'submission-ids': expect.stringMatching(/^\["[0-9a-f-]{36}"\]$/),
      'job-outputs': JSON.stringify({ build_ios: {}, build_android: {}, submit: { track: 'beta' } }),
      outcome: 'success',
    });
    expect(jobs.map((job) => [job.key, job.status])).toEqual([
      ['build_ios', 'success'],
      ['build_android', 'success'],
      ['submit', 'success'],
    ]);
    expect(result.stdout).toContain(`Following workflow run ${simRun.id} at 127.0.0.1`);
    expect(result.stdout).toMatch(/\[\d+s\] job submit: success/);
    expect(result.summary).toContain('succeeded');
    expect(result.summary).toMatch(/\| Build iOS \(`build_ios`\) \| ✅ success \|/);
    expect(result.summary).toContain(simRun.url);
    // No app-id is needed, and nothing is dispatched: reads of that run only.
    const requests = apiRequests(world.sim);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((line) => line === `GET /v2/workflows/runs/${simRun.id}`)).toBe(true);
  });
});
