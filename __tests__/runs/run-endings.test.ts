/**
 * Each ending of a followed run in its own words (issue 25 items 8 and 10), each step run in process
 * from the sources: a canceled run is canceled (heading, error, outcome: through the bundle, in
 * __tests__/e2e/runs-bundles.test.ts), a skipped job names the job it needed that failed, a job that
 * waits for approval is what the step followed when it ended on it, the `failed-jobs` output lists
 * the jobs that did not succeed, and run-workflow says when its first read comes right after the
 * dispatch.
 */
import { IN_PROCESS, runStep, type ActionRun } from '../../testkit/runner/in-process.js';
import { createWorld, followRunStep, type World } from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';

const PIPELINE = workflow('Pipeline', {
  build: { type: 'build' },
  e2e: { name: 'End to end', needs: ['build'] },
  lint: {},
  report: { needs: ['e2e'] },
});

const APPROVAL = workflow('Release', {
  approve: { type: 'require-approval' },
  build: { type: 'build' },
  release: { needs: ['approve', 'build'] },
});

// run-workflow/README.md's `jobs: type:build` with `on-action-required: fail`: an approval asked for
// before the builds end, and one asked for after them.
const APPROVAL_FIRST = workflow('Release', {
  approve: { type: 'require-approval' },
  build: { type: 'build', needs: ['approve'] },
});
const BUILDS_FIRST = workflow('Release', {
  build: { type: 'build' },
  approve: { type: 'require-approval', needs: ['build'] },
  release: { needs: ['approve'] },
});

let world: World;
beforeAll(async () => {
  world = await createWorld(
    {
      'pipeline.yml': PIPELINE,
      'release.yml': APPROVAL,
      'approval-first.yml': APPROVAL_FIRST,
      'builds-first.yml': BUILDS_FIRST,
    },
    { defaultJobDurationMs: 10 },
  );
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

function dispatch(inputs: Record<string, string>): Promise<ActionRun> {
  return runStep('run-workflow', {
    inputs: { ...world.api, 'git-ref': 'main', 'poll-interval-seconds': '0.05', ...inputs },
  });
}

describe('each ending of a run in its own words', () => {
  it('a skipped job names the job it needed that failed; failed-jobs lists both', async () => {
    world.sim.setJobBehaviour('e2e', { outcome: 'failure', errorMessage: 'Detox: 2 tests failed' });
    const [whole, listed] = await Promise.all([
      dispatch({ workflow: 'pipeline.yml' }),
      dispatch({ workflow: 'pipeline.yml', jobs: 'report, lint' }),
    ]);
    expect(whole.exitCode).toBe(1);
    expect(whole.outputs['failed-jobs']).toBe('e2e,report');
    expect(whole.errors).toEqual([
      expect.stringContaining('Failed jobs: e2e (End to end) (failure: Detox: 2 tests failed).'),
    ]);
    expect(listed.exitCode).toBe(1);
    expect(listed.outputs.outcome).toBe('failure');
    // Only the listed jobs: `lint` succeeded, `report` was skipped.
    expect(listed.outputs['failed-jobs']).toBe('report');
    expect(listed.errors).toEqual([
      expect.stringContaining(
        'Not every listed job succeeded. Skipped jobs: report (needs e2e, which failed: Detox: 2 tests failed).',
      ),
    ]);
    expect(listed.summary).toMatch(/\| `report` \| ⏭️ skipped \(needs `e2e`, which did not succeed\) \|/);
  });

  it('on-action-required: fail with `jobs`: the job that waits is not "(not followed)"', async () => {
    const result = await dispatch({ workflow: 'release.yml', jobs: 'release', 'on-action-required': 'fail' });
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('action-required');
    expect(result.summary).toMatch(/\| `approve` \| ✋ action-required \|/);
    expect(result.summary).not.toMatch(/`approve` \(not followed\)/);
    // `build` is neither listed nor what the step ended on.
    expect(result.summary).toMatch(/\| `build` \(not followed\) \|/);
    expect(result.outputs['failed-jobs']).toBe('');
    world.sim.cancelRun(result.outputs['run-id']);
  });

  it('on-action-required: fail with `jobs: type:build` ends at an approval the builds wait for; builds that ended first decide', async () => {
    const [waiting, built] = await Promise.all([
      dispatch({ workflow: 'approval-first.yml', jobs: 'type:build', 'on-action-required': 'fail' }),
      dispatch({ workflow: 'builds-first.yml', jobs: 'type:build', 'on-action-required': 'fail' }),
    ]);
    expect(waiting.outputs.outcome).toBe('action-required');
    expect(waiting.exitCode).toBe(1);
    // The run waits for its approval after the builds: the step does not, and passes on them.
    expect(built.outputs.outcome).toBe('success');
    expect(built.exitCode).toBe(0);
    for (const result of [waiting, built]) world.sim.cancelRun(result.outputs['run-id']);
  });

  it('run-workflow says when the first read comes right after the dispatch; wait-for-run reads at once', async () => {
    const result = await dispatch({ workflow: 'pipeline.yml', 'poll-interval-seconds': '0.1' });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    const dispatched = lines.findIndex((line) => line.startsWith('Dispatched pipeline.yml: run '));
    expect(lines[dispatched + 1]).toMatch(/^\[0s\] run dispatched; first read in 0\.1 s$/);
    expect(result.outputs['failed-jobs']).toBe('');

    const followed = await followRunStep(IN_PROCESS, world, result.outputs['run-id'], {
      'expected-commit': '',
    });
    expect(followed.exitCode).toBe(0);
    expect(followed.stdout).not.toContain('first read in');
    expect(followed.outputs['failed-jobs']).toBe('');
  });

  it('`type:submit` found only after the dispatch (no checkout): the error gives the service word', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    const result = await dispatch({ workflow: 'pipeline.yml', jobs: 'type:submit' });
    expect(result.exitCode).toBe(1);
    expect(result.errors).toEqual([
      expect.stringContaining(
        'which the run does not have; its jobs are: build (type build), e2e (type custom), lint (type custom), report (type custom). The service calls those of `type:submit` `type:submission`. The run this step dispatched was started and goes on',
      ),
    ]);
    world.sim.cancelRun(result.outputs['run-id']);
  });
});
