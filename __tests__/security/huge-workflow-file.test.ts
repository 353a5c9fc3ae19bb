/**
 * The workflow file a pull request's author writes is read by run-workflow's check before the
 * dispatch: its work is bounded whatever the file holds (parsed without duplicate-key checking,
 * which was quadratic in the keys of a mapping; at most 100,000 nodes examined), and the deadline
 * is checked before anything is dispatched. Run in process from the sources. Through the bundle, in
 * __tests__/e2e/security/runs-bundles.test.ts: a file of 105,000 keys (with `dry-run: true`, so the
 * simulator never reads the file), and the cancellation (SIGINT, which needs a process of the
 * step's own) during the check.
 *
 * Nothing here asserts a duration: Jest's time limit is only a safety net (in process, a step is
 * not killed). The figures are in `npm run bench`.
 */
import { IN_PROCESS, type StepOptions } from '../../testkit/runner/in-process.js';
import { apiRequests, type World } from '../../testkit/world/world.js';
import {
  closeSlowGitWorld,
  createSlowGitWorld,
  manyKeys,
  slowGitCheck,
  workspaceHeadDispatch,
  type SlowGitWorld,
} from '../../testkit/world/huge-fixtures.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';

/** 30,000 keys in one mapping and a job key written twice: checked (the service judges duplicates). */
const DUPLICATES = `name: Dupes\non: workflow_dispatch\njobs:\n  build:\n    type: build\n    env: ${manyKeys(30_000)}\n  build:\n    type: build\n`;

let fixture: SlowGitWorld;
let world: World;
/** A `git` first on PATH that waits, on its first call, until the test lets it go (a slow check). */
let slowGit: string;
beforeAll(async () => {
  fixture = await createSlowGitWorld({ 'dupes.yml': DUPLICATES }, 10);
  ({ world, slowGit } = fixture);
});
afterAll(() => closeSlowGitWorld(fixture));
beforeEach(() => world.sim.reset());

const dispatch = (inputs: Record<string, string>, options: StepOptions = {}) =>
  workspaceHeadDispatch(IN_PROCESS, fixture, inputs, options);

describe('a huge workflow file in the workspace', () => {
  it('30,000 keys and a duplicate job key: checked, and a job it does not have refused before any request', async () => {
    const result = await dispatch({ workflow: 'dupes.yml', jobs: 'build_web' });
    expect(result.signal).toBeNull();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      '`jobs` lists `build_web`, which the workflow does not have; its jobs are: build.',
    );
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

describe('run-workflow checks the deadline and the cancellation before it dispatches', () => {
  /** run-workflow whose check waits in git until `whileWaiting` has ended. */
  const slowCheck = (
    inputs: Record<string, string>,
    whileWaiting: () => Promise<void>,
    options: StepOptions = {},
  ) =>
    slowGitCheck(
      slowGit,
      (env) => dispatch({ workflow: 'small.yml', ...inputs }, { ...options, env }),
      whileWaiting,
    );

  it('timeout-minutes reached during the check: nothing is dispatched, outcome timed-out', async () => {
    // The step clock moves past the minute while git holds the check, however long git takes.
    const clock = new VirtualClock();
    const result = await slowCheck({ 'timeout-minutes': '1' }, () => Promise.resolve(clock.advance(61_000)), {
      clock,
    });
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('timed-out');
    expect(result.errors).toEqual([
      'timeout-minutes (1) was reached before the dispatch, while the workflow file was checked: nothing was dispatched.',
    ]);
    expect(apiRequests(world.sim)).toEqual([]);
  });
});
