/**
 * What the job summary of a run says, each step run in process from the sources: the Ref column only
 * where it says more than the commit (through the bundle: __tests__/e2e/runs-bundles.test.ts), a
 * skipped job with the job it needed, a multi-line job error kept as lines in one quoted block, and
 * what is known after a dispatch with `wait: false`.
 */
import { IN_PROCESS } from '../../testkit/runner/in-process.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { GATE } from '../../testkit/docs/workflows.js';
import { gateDispatch, runTableHeader } from '../../testkit/world/run-fixtures.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'gate.yml': GATE }, { defaultJobDurationMs: 10 });
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

const dispatch = (inputs: Record<string, string> = {}) => gateDispatch(IN_PROCESS, world, inputs);

/** The header of the summary's first table. */
const header = runTableHeader;

test('a failed job: its multi-line error kept as lines in one block; the skipped job names the job it needed', async () => {
  const url = 'https://svc.example.com/builds/42/logs';
  world.sim.setJobBehaviour('build_ios', {
    outcome: 'failure',
    errorMessage: `Gradle failed:\nTask :app:compile FAILED\nSee ${url}.`,
  });
  const run = await dispatch();
  expect(run.exitCode).toBe(1);
  // One quoted block under the job, its lines as they came: nothing in it rendered, the URL once.
  expect(run.summary).toContain(
    [
      '- Build iOS (`build_ios`)',
      '  > ```text',
      '  > Gradle failed:',
      '  > Task :app:compile FAILED',
      `  > See ${url}.`,
      '  > ```',
    ].join('\n'),
  );
  expect(run.summary).toMatch(
    /\| Tests \(`test`\) \| ⏭️ skipped \(needs `build_ios`, which did not succeed\) \|/,
  );
});

test('wait: false: the summary shows what is known, the ref dispatched', async () => {
  const run = await dispatch({ wait: 'false' });
  expect(run.exitCode).toBe(0);
  expect(header(run.summary)).toBe('| Run | Status | Ref | Commit | Waited |');
  expect(run.summary).toContain('| 🕒 new | `main` |');
});
