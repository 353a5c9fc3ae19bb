/**
 * wait-for-run's failure, as the step says it (its error annotation), compared whole for each way
 * it ends without success: a job fails, the run is canceled on the service, a run of another commit.
 * The steps run in this process from the sources against the simulator (testkit/runner/in-process.ts),
 * so a line added to one of these sentences fails here, not only in the report's own test.
 */
import { runAction } from '../../testkit/runner/in-process.js';
import { createWorld, until, type World } from '../../testkit/world/world.js';
import { BUILD_IOS, workflow } from '../../testkit/docs/workflows.js';

const WORKFLOW = workflow('Pull request checks', {
  ...BUILD_IOS,
  e2e: { name: 'End-to-end tests', needs: ['build_ios'], steps: [{ run: 'npm test' }] },
});

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': WORKFLOW }, { readinessDelayMs: 300, defaultJobDurationMs: 200 });
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

/** A run of e2e.yml dispatched by an earlier run-workflow step (`wait: false`): its id and page. */
async function dispatched(): Promise<{ id: string; url: string }> {
  const step = await runAction({
    entry: 'run-workflow',
    inputs: { ...world.api, workflow: 'e2e.yml', 'git-ref': 'main', wait: 'false' },
  });
  return { id: step.outputs['run-id'], url: step.outputs['run-url'] };
}

const waitFor = (runId: string, inputs: Record<string, string> = {}) =>
  runAction({
    entry: 'wait-for-run',
    inputs: {
      ...world.api,
      'run-id': runId,
      'expected-commit': '',
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });

test('a job fails', async () => {
  world.sim.setJobBehaviour('e2e', {
    durationMs: 100,
    outcome: 'failure',
    errorMessage: 'Detox: 3 of 120 tests failed',
  });
  const run = await dispatched();
  const step = await waitFor(run.id);
  expect([step.exitCode, step.outputs.outcome]).toEqual([1, 'failure']);
  expect(step.errors).toEqual([
    `Workflow run ${run.id} ended with status failure. Failed jobs: e2e (End-to-end tests) (failure: Detox: 3 of 120 tests failed). ${run.url}`,
  ]);
});

test('the run is canceled on the service', async () => {
  world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
  const run = await dispatched();
  const step = waitFor(run.id);
  await until(() =>
    world.sim
      .runs()
      .some((each) => each.jobs.some((job) => job.key === 'e2e' && job.status === 'in-progress')),
  );
  world.sim.cancelRun(run.id);
  const ended = await step;
  expect([ended.exitCode, ended.outputs.outcome]).toEqual([1, 'canceled']);
  expect(ended.errors).toEqual([
    `Workflow run ${run.id} ended with status canceled. Canceled jobs: e2e (End-to-end tests). ${run.url}`,
  ]);
});

test('a run of another commit than `expected-commit`', async () => {
  const run = await dispatched();
  const step = await waitFor(run.id, { 'expected-commit': 'deadbee' });
  expect([step.exitCode, step.outputs.outcome]).toEqual([1, 'failure']);
  expect(step.errors).toEqual([
    `Workflow run ${run.id} is a run of commit ${world.repo.headSha}, not of the expected commit deadbee (\`expected-commit\`): a run of another commit cannot gate this one. Follow a run of deadbee, or set \`expected-commit: ''\` to accept a run of any commit. ${run.url}`,
  ]);
});
