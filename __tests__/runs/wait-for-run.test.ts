/**
 * wait-for-run, run in process from the sources: the sub-action follows a run it did not dispatch
 * (started in the simulator by "someone else", or by an earlier run-workflow step with `wait: false`
 * in another job) to the same outputs, summary and exit rules as run-workflow. Its bundle follows
 * such a run to success in __tests__/e2e/runs-bundles.test.ts.
 */
import { IN_PROCESS, runStep, type ActionRun, type StepOptions } from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, followRunStep, until, type World } from '../../testkit/world/world.js';
import { STORE } from '../../testkit/docs/workflows.js';
import type { WorkflowRun } from '../../simulator/index.js';
import { jobsOutput, someoneElsesStoreRun } from '../../testkit/world/run-fixtures.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'store.yml': STORE }, { defaultJobDurationMs: 10 });
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());
// As in every end-to-end file: nothing a test did leaves a device running.
afterEach(() => {
  expect(world.sim.activeSessions()).toEqual([]);
});

/**
 * A run nobody in this job dispatched: the step only knows its id. Its first jobs have started when
 * this returns, so a job behaviour set afterwards (they apply to jobs started later) cannot reach them.
 */
const someoneElsesRun = (): Promise<WorkflowRun> => someoneElsesStoreRun(world);

const follow = (runId: string, inputs: Record<string, string> = {}, options: StepOptions = {}) =>
  followRunStep(IN_PROCESS, world, runId, inputs, options);

const jobsOf = (result: ActionRun): Array<{ key: string; status: string; buildId: string | null }> =>
  jobsOutput(result);

describe('wait-for-run', () => {
  it('continues a run-workflow step that did not wait (dispatch in one job, wait in another)', async () => {
    const dispatched = await runStep('run-workflow', {
      inputs: {
        ...world.api,
        workflow: 'store.yml',
        'git-ref': 'main',
        wait: 'false',
      },
    });
    expect(dispatched.exitCode).toBe(0);
    expect(dispatched.outputs.status).toBe('new');
    const result = await follow(dispatched.outputs['run-id']);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({
      'run-id': dispatched.outputs['run-id'],
      'run-url': dispatched.outputs['run-url'],
      status: 'success',
    });
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toEqual([
      'POST /v2/workflows/dispatch',
    ]);
  });

  it('fails on a failed run naming the failed job, and on a canceled one, each linking the run', async () => {
    world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: 'Gradle exploded' });
    const failing = await someoneElsesRun();
    world.sim.setJobBehaviour('build_android', { durationMs: 10_000 });
    const canceled = await someoneElsesRun();
    const pending = Promise.all([follow(failing.id), follow(canceled.id)]);
    // Canceled once its step reads it: the step sees it going, then canceled.
    await until(() => world.sim.requests.some((request) => request.path.endsWith(canceled.id)));
    world.sim.cancelRun(canceled.id);
    const [failed, cancelled] = await pending;

    expect(failed.exitCode).toBe(1);
    expect(failed.outputs).toMatchObject({ status: 'failure', outcome: 'failure' });
    expect(failed.errors).toEqual([
      expect.stringContaining(
        `Workflow run ${failing.id} ended with status failure. Failed jobs: build_android (failure: Gradle exploded). ${failing.url}`,
      ),
    ]);
    expect(failed.summary).toContain(
      '**Failed jobs**\n\n- `build_android`\n  > ```text\n  > Gradle exploded\n  > ```',
    );

    expect(cancelled.exitCode).toBe(1);
    expect(cancelled.outputs).toMatchObject({ status: 'canceled', outcome: 'canceled' });
    expect(cancelled.errors).toEqual([
      expect.stringContaining(`Workflow run ${canceled.id} ended with status canceled.`),
    ]);
    expect(cancelled.errors[0]).toContain(canceled.url);
  });

  it('with jobs: succeeds on the builds while submit runs; fails on a failed listed job; fails on an unknown key', async () => {
    world.sim.setJobBehaviour('submit', { durationMs: 60_000 });
    const gated = await someoneElsesRun();
    world.sim.setJobBehaviour('build_ios', { outcome: 'failure' });
    const broken = await someoneElsesRun();
    const [builds, failedBuild, unknown] = await Promise.all([
      follow(gated.id, { jobs: 'build_ios\nbuild_android' }),
      follow(broken.id, { jobs: 'build_ios' }),
      follow(gated.id, { jobs: 'build_ios,build_web' }),
    ]);

    expect(builds.exitCode).toBe(0);
    expect(builds.outputs).toMatchObject({ status: 'in-progress', outcome: 'success' });
    // As last read: submit not finished (about to start, or running for 60 s).
    expect(['new', 'in-progress']).toContain(jobsOf(builds).find((job) => job.key === 'submit')?.status);
    expect(world.sim.getRun(gated.id)?.status).toBe('in-progress');

    expect(failedBuild.exitCode).toBe(1);
    expect(failedBuild.errors).toEqual([
      expect.stringMatching(/^Not every listed job succeeded\. Failed jobs: build_ios \(Build iOS\)/),
    ]);

    expect(unknown.exitCode).toBe(1);
    expect(unknown.outputs.outcome).toBe('failure');
    expect(unknown.errors).toEqual([
      expect.stringContaining(
        `\`jobs\` lists \`build_web\`, which the run does not have; its jobs are: build_ios, build_android, submit. ${gated.url}`,
      ),
    ]);
    // This step did not start the run: it does not say it did.
    expect(unknown.stdout).not.toContain('this step dispatched');
    world.sim.cancelRun(gated.id);
  });

  it('times out linking the run, which goes on', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const slow = await someoneElsesRun();
    // A minute of the step clock, a read every 5 s, however long the machine takes.
    const result = await follow(
      slow.id,
      { 'timeout-minutes': '1', 'poll-interval-seconds': '5' },
      { clock: new VirtualClock() },
    );
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'in-progress', outcome: 'timed-out' });
    expect(result.errors).toEqual([
      expect.stringContaining(
        `Workflow run ${slow.id} did not finish within timeout-minutes (1); last status: in-progress.`,
      ),
    ]);
    expect(result.errors[0]).toContain(slow.url);
    world.sim.cancelRun(slow.id);
  });

  it('a run id that is not a UUID, or no run id, is an input error before any request', async () => {
    const [bad, missing] = await Promise.all([
      follow('../workflows/dispatch'),
      follow('', {}, { env: { SVC_RUN_ID: '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b' } }),
    ]);
    expect(bad.exitCode).toBe(1);
    expect(bad.errors).toEqual([expect.stringMatching(/^Invalid input: `run-id` .*UUID/)]);
    expect(missing.exitCode).toBe(1);
    expect(missing.errors).toEqual([expect.stringContaining('Invalid input: `run-id` is required')]);
    // Nothing but the outcome, which is set on every path.
    expect([bad.outputs, missing.outputs]).toEqual([{ outcome: 'failure' }, { outcome: 'failure' }]);
    expect(world.sim.requests).toEqual([]);
  });

  it('a run that does not exist is not found: nothing "goes on"', async () => {
    const result = await follow('4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toEqual({
      'run-id': '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      outcome: 'failure',
    });
    expect(result.errors).toEqual([
      expect.stringContaining(
        'Workflow run 4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b was not found (404): the service has no run with that id. Check `run-id`.',
      ),
    ]);
    expect(result.stdout).not.toContain('goes on');
    expect(result.stdout).not.toMatch(/\n\s+at /);
  });

  it('a run that fails to be read after it was seen still goes on, and the message says so', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const slow = await someoneElsesRun();
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/workflows/runs/${slow.id}`,
      kind: 'mutate',
      mutate: (json) => json,
    });
    // One good read, then the service answers 404 for good.
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/workflows/runs/${slow.id}`,
      kind: 'status',
      status: 404,
      times: 50,
    });
    const result = await follow(slow.id);
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('failure');
    expect(result.errors).toEqual([
      expect.stringMatching(
        new RegExp(`^Reading workflow run ${slow.id} failed: .*404.*\\. The run goes on: ${slow.url}`),
      ),
    ]);
    world.sim.cancelRun(slow.id);
  });

  it('type:build gates on every build, and on-action-required: fail is accepted', async () => {
    world.sim.setJobBehaviour('submit', { durationMs: 60_000 });
    const gated = await someoneElsesRun();
    const result = await follow(gated.id, { jobs: 'type: build', 'on-action-required': 'fail' });
    expect(result.exitCode).toBe(0);
    expect(result.outputs.outcome).toBe('success');
    expect(result.stdout).toContain(`Following jobs type:build of workflow run ${gated.id}`);
    expect(result.summary).toMatch(/\| `submit` \(not followed\) \|/);
    world.sim.cancelRun(gated.id);
  });
});
