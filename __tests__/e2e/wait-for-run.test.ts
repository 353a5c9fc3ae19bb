/**
 * wait-for-run end to end: the sub-action's bundle follows a run it did not dispatch (started in the
 * simulator by "someone else", or by an earlier run-workflow step with `wait: false` in another job)
 * to the same outputs, summary and exit rules as run-workflow, on Node 24.
 */
import { runStep, type ActionRun, type StepOptions } from '../helpers/run-action.js';
import { apiRequests, createWorld, until, type World } from '../helpers/world.js';
import type { WorkflowRun } from '../../simulator/index.js';

const PIPELINE = `name: Store
on: workflow_dispatch
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  build_android:
    type: build
    params:
      platform: android
  submit:
    type: submit
    needs: [build_ios, build_android]
    params:
      platform: ios
    outputs:
      track: beta
`;

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'store.yml': PIPELINE }, { defaultJobDurationMs: 40 });
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
async function someoneElsesRun(): Promise<WorkflowRun> {
  const run = await world.sim.createRun({ appId: world.project.id, gitRef: 'main', fileName: 'store.yml' });
  return until(() => {
    const current = world.sim.getRun(run.id);
    return current?.jobs.every((job) => job.key === 'submit' || job.status !== 'new') && current;
  });
}

function follow(runId: string, inputs: Record<string, string> = {}, options: StepOptions = {}) {
  return runStep('wait-for-run', {
    ...options,
    inputs: {
      token: world.token,
      'base-url': world.sim.url,
      'run-id': runId,
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}

const jobsOf = (result: ActionRun): Array<{ key: string; status: string; buildId: string | null }> =>
  JSON.parse(result.outputs.jobs);

describe('wait-for-run', () => {
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
      'build-ids': JSON.stringify([jobs[0].buildId, jobs[1].buildId]),
      'submission-ids': expect.stringMatching(/^\["[0-9a-f-]{36}"\]$/),
      'job-outputs': JSON.stringify({ build_ios: {}, build_android: {}, submit: { track: 'beta' } }),
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
    setTimeout(() => world.sim.cancelRun(canceled.id), 150);
    const [failed, cancelled] = await pending;

    expect(failed.exitCode).toBe(1);
    expect(failed.outputs.status).toBe('failure');
    expect(failed.stdout).toContain(
      `::error::Workflow run ${failing.id} ended with status failure. Failed jobs: build_android (failure: Gradle exploded). ${failing.url}`,
    );
    expect(failed.summary).toMatch(/\*\*Failed jobs\*\*\s+- `build_android`: `Gradle exploded`/);

    expect(cancelled.exitCode).toBe(1);
    expect(cancelled.outputs.status).toBe('canceled');
    expect(cancelled.stdout).toContain(`::error::Workflow run ${canceled.id} ended with status canceled.`);
    expect(cancelled.stdout).toContain(canceled.url);
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
    expect(builds.outputs.status).toBe('in-progress');
    // As last read: submit not finished (about to start, or running for 60 s).
    expect(['new', 'in-progress']).toContain(jobsOf(builds).find((job) => job.key === 'submit')?.status);
    expect(world.sim.getRun(gated.id)?.status).toBe('in-progress');

    expect(failedBuild.exitCode).toBe(1);
    expect(failedBuild.stdout).toMatch(
      /::error::Not every listed job succeeded\. Failed jobs: build_ios \(Build iOS\)/,
    );

    expect(unknown.exitCode).toBe(1);
    expect(unknown.stdout).toContain(
      '::error::`jobs` lists `build_web`, which the run does not have; its jobs are: build_ios, build_android, submit.',
    );
    world.sim.cancelRun(gated.id);
  });

  it('times out linking the run, which goes on', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const slow = await someoneElsesRun();
    const result = await follow(slow.id, { 'timeout-minutes': '0.008' });
    expect(result.exitCode).toBe(1);
    expect(result.outputs.status).toBe('in-progress');
    expect(result.stdout).toContain(
      `::error::Workflow run ${slow.id} did not finish within timeout-minutes (0.008); last status: in-progress.`,
    );
    expect(result.stdout).toContain(slow.url);
    world.sim.cancelRun(slow.id);
  });

  it('a run id that is not a UUID, or no run id, is an input error before any request', async () => {
    const [bad, missing] = await Promise.all([
      follow('../workflows/dispatch'),
      follow('', {}, { env: { SVC_RUN_ID: '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b' } }),
    ]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toMatch(/::error::Invalid input: `run-id` .*UUID/);
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toContain('::error::Invalid input: `run-id` is required');
    expect({ ...bad.outputs, ...missing.outputs }).toEqual({});
    expect(world.sim.requests).toEqual([]);
  });

  it('a run the token cannot see is a 404 naming the run', async () => {
    const result = await follow('4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/::error::.*4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b.*404/);
    expect(result.stdout).not.toMatch(/\n\s+at /);
  });
});
