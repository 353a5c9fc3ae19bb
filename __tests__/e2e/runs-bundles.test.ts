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
import {
  renderLog,
  runAction,
  runStep,
  type ActionRun,
  type StepOptions,
} from '../../testkit/runner/step.js';
import { apiRequests, createWorld, followRunStep, until, type World } from '../../testkit/world/world.js';
import { BUILD_ANDROID, BUILD_IOS, GATE, STORE, workflow } from '../../testkit/docs/workflows.js';
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

describe('run-workflow (__tests__/runs/run-workflow.test.ts)', () => {
  const RUN_GATE = workflow(
    'Gate',
    {
      ...BUILD_IOS,
      ...BUILD_ANDROID,
      test: { name: 'Tests', needs: ['build_ios'], outputs: { result: 'passed' } },
      submit: { type: 'submit', needs: ['test', 'build_android'], params: { platform: 'ios' } },
    },
    { profile: { type: 'choice', options: ['preview', 'production'], default: 'preview', required: true } },
  );
  /** The two ways to call the command, as a workflow writes them. */
  const ACTIONS = ['run-workflow', 'root'] as const;
  type Action = (typeof ACTIONS)[number];

  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'gate.yml': RUN_GATE }, { defaultJobDurationMs: 40 });
  });
  afterAll(() => world.sim.close());
  beforeEach(() => world.sim.reset());
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  function run(action: Action, inputs: Record<string, string> = {}, options: StepOptions = {}) {
    return runStep(action, {
      ...options,
      inputs: {
        ...(action === 'root' ? { command: 'run-workflow' } : {}),
        ...world.api,
        workflow: 'gate.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '0.05',
        ...inputs,
      },
    });
  }
  /** Both doors at once; each result is matched to its run by the `run-id` it output. */
  async function both(inputs: Record<string, string> = {}): Promise<Array<[Action, ActionRun]>> {
    const results = await Promise.all(ACTIONS.map((action) => run(action, inputs)));
    return ACTIONS.map((action, index) => [action, results[index]]);
  }
  function simRunOf(result: ActionRun): WorkflowRun {
    const simRun = world.sim.getRun(result.outputs['run-id']);
    if (!simRun) throw new Error(`no run ${result.outputs['run-id']} in the simulator:\n${result.stdout}`);
    return simRun;
  }
  const jobsOf = (result: ActionRun): Array<{ key: string; status: string; buildId: string | null }> =>
    JSON.parse(result.outputs.jobs);

  it('gates on a successful run: outputs, summary, one dispatch then reads on one connection', async () => {
    for (const [action, result] of await both({ inputs: 'profile: production' })) {
      expect({ action, stderr: result.stderr, exitCode: result.exitCode }).toEqual({
        action,
        stderr: '',
        exitCode: 0,
      });
      // The defaults the runner fills in are not "inputs this command does not use".
      expect(result.annotations.filter(({ kind }) => kind === 'warning')).toEqual([]);
      const simRun = simRunOf(result);
      expect(simRun.status).toBe('success');
      expect(result.outputs).toMatchObject({
        'run-url': simRun.url,
        status: 'success',
        'git-commit-hash': world.repo.headSha,
        outcome: 'success',
      });
      const jobs = jobsOf(result);
      expect(jobs.map((job) => [job.key, job.status])).toEqual([
        ['build_ios', 'success'],
        ['build_android', 'success'],
        ['test', 'success'],
        ['submit', 'success'],
      ]);
      expect(JSON.parse(result.outputs['build-ids'])).toEqual([jobs[0].buildId, jobs[1].buildId]);
      expect(JSON.parse(result.outputs['submission-ids'])).toHaveLength(1);
      expect(JSON.parse(result.outputs['job-outputs'])).toMatchObject({ test: { result: 'passed' } });
      expect(result.stdout).toMatch(/\[\d+s\] job build_ios \(Build iOS\): success/);
      expect(result.summary).toContain('succeeded');
      expect(result.summary).toMatch(/\| Build iOS \(`build_ios`\) \| ✅ success \|.*build `[0-9a-f-]{36}`/);

      // One dispatch, then reads of that run only, all on the dispatch's keep-alive connection.
      const reads = world.sim.requests.filter(
        (request) => request.path === `/v2/workflows/runs/${simRun.id}`,
      );
      expect(reads.length).toBeGreaterThan(0);
      expect(new Set(reads.map((request) => request.connectionId)).size).toBe(1);
      const dispatch = world.sim.requests.find(
        (request) => request.method === 'POST' && request.connectionId === reads[0].connectionId,
      );
      expect(dispatch?.path).toBe('/v2/workflows/dispatch');
      expect(dispatch?.body).toEqual({
        appId: world.project.id,
        gitRef: 'main',
        fileName: 'gate.yml',
        inputs: { profile: 'production' },
      });
      expect(dispatch?.headers.authorization).toBe(`Bearer ${world.token}`);
    }
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toHaveLength(2);
  });

  // A signal needs a process of the step's own: kept whole here.
  it('SIGINT while waiting: exits 1, saying that the run goes on', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const signalled: Record<string, number> = {};
    const results = await Promise.all(
      ACTIONS.map((action) =>
        run(
          action,
          {},
          {
            onSpawn: (child) => {
              // Once it follows the run (its first progress line), as a cancelled job would be.
              child.stdout?.on('data', (chunk: Buffer) => {
                if (!signalled[action] && chunk.toString().includes('run: in-progress')) {
                  signalled[action] = Date.now();
                  child.kill('SIGINT');
                }
              });
            },
          },
        ),
      ),
    );
    for (const result of results) {
      const simRun = simRunOf(result);
      expect(result.exitCode).toBe(1);
      expect(result.outputs.outcome).toBe('interrupted');
      expect(result.stdout).toContain('Received SIGINT: cancelling.');
      expect(result.errors).toEqual([
        expect.stringContaining(
          `Stopped waiting for workflow run ${simRun.id}: the step was cancelled. The run goes on. ${simRun.url}`,
        ),
      ]);
      // The step only stopped following: the run itself was not cancelled.
      expect(simRun.status).toBe('in-progress');
    }
    expect(Object.keys(signalled).sort()).toEqual([...ACTIONS].sort());
  });
});
