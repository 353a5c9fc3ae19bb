/**
 * A run answer of 50,000 jobs (__tests__/harness/huge-run.ts, about 7 MB) costs the step work in
 * proportion to its size: the jobs are ordered by `requiredJobKeys` through a map, the job summary
 * renders the first jobs and says how many more (under GitHub's 1 MiB), the log and the error name a
 * bounded number of jobs, and the step honours a small `timeout-minutes` and SIGINT. Run through the
 * built bundle (wait-for-run), the answer served by the simulator.
 *
 * Nothing here asserts a duration: the harness's time limit is only a safety net (a step it has to
 * kill ends with SIGKILL and no exit code, which fails the test). The figures are in `npm run bench`.
 */
import { followRunStep, createWorld, type World } from '../../harness/world.js';
import type { ActionRun, StepOptions } from '../../harness/runner/step.js';
import { HUGE_RUN_ID, HUGE_RUN_JOBS, serveHugeRun } from '../../harness/huge-run.js';

/** Far above what the step needs (a few seconds), far below what the quadratic ordering took (a minute). */
const SAFETY_NET_MS = 45_000;
const MIB = 1024 * 1024;

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

/** wait-for-run on the huge run, every read answered with it (run `status`, every job `jobStatus`). */
function follow(
  status: string,
  jobStatus: string,
  inputs: Record<string, string> = {},
  onSpawn?: StepOptions['onSpawn'],
): Promise<ActionRun> {
  serveHugeRun(world.sim, status, jobStatus);
  return followRunStep(
    world,
    HUGE_RUN_ID,
    { 'expected-commit': '', 'poll-interval-seconds': '0.2', ...inputs },
    { timeoutMs: SAFETY_NET_MS, onSpawn },
  );
}

const errorLine = (run: ActionRun): string =>
  run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
const jobLines = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((line) => /\] job job_\d+/.test(line));

describe('a run of 50,000 jobs', () => {
  it('succeeded: every job in the outputs, a summary of the first 500 in pipeline order under 1 MiB', async () => {
    const run = await follow('success', 'success');
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('success');
    expect(JSON.parse(run.outputs.jobs)).toHaveLength(HUGE_RUN_JOBS);
    expect(run.outputs['failed-jobs']).toBe('');
    expect(Buffer.byteLength(run.summary)).toBeLessThan(MIB);
    // Each job needs the one listed after it: the pipeline starts with the last one listed.
    const rows = run.summary.split('\n').filter((line) => line.startsWith('| Job \\*'));
    expect(rows).toHaveLength(500);
    expect(rows[0]).toContain('`job_49999`');
    expect(rows[499]).toContain('`job_49500`');
    expect(run.summary).toContain('| … and 49500 more (all of them in the `jobs` output) |');
    // A progress line for the first 100 jobs, and one line that says the rest are elsewhere.
    expect(jobLines(run)).toHaveLength(100);
    expect(run.stdout).toContain('The run has 50000 jobs: progress lines for the first 100;');
  });

  it('failed: the error and the summary name the first 20 failed jobs and how many more', async () => {
    const run = await follow('failure', 'failure');
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.outputs.outcome).toBe('failure');
    expect(run.outputs['failed-jobs'].split(',')).toHaveLength(HUGE_RUN_JOBS);
    const error = errorLine(run);
    expect(error).toContain('Failed jobs: job_0 (Job *0* [of](run)) (failure: Step 0 failed), ');
    expect(error).toContain(', … and 49980 more.');
    expect(error.length).toBeLessThan(10_000);
    expect(Buffer.byteLength(run.summary)).toBeLessThan(MIB);
    // Each entry: the job, then its error quoted as text (a fenced block inside a blockquote).
    expect(run.summary).toMatch(/\*\*Failed jobs\*\*\n\n(- .*\n( {2}> .*\n)*){20}- … and 49980 more\n/);
  });

  it('going on: a small timeout-minutes ends the step, timed out, and SIGINT ends it, interrupted', async () => {
    let output = '';
    let sentAt = 0;
    const [timedOut, interrupted] = await Promise.all([
      // 1.2 s: reached on the first reads of the run.
      follow('in-progress', 'in-progress', { 'timeout-minutes': '0.02' }),
      follow('in-progress', 'in-progress', {}, (child) =>
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          // The first read of the run has been handled: the step follows the huge run now.
          if (!sentAt && output.includes('run: in-progress')) {
            sentAt = Date.now();
            child.kill('SIGINT');
          }
        }),
      ),
    ]);
    expect(timedOut.signal).toBeNull();
    expect(timedOut.exitCode).toBe(1);
    expect(timedOut.outputs.outcome).toBe('timed-out');
    expect(errorLine(timedOut)).toContain('did not finish within timeout-minutes (0.02)');
    expect(Buffer.byteLength(timedOut.summary)).toBeLessThan(MIB);

    expect(sentAt).toBeGreaterThan(0);
    expect(interrupted.signal).toBeNull();
    expect(interrupted.exitCode).toBe(1);
    expect(interrupted.outputs.outcome).toBe('interrupted');
    expect(interrupted.stdout).toContain('Received SIGINT: cancelling.');
    expect(Buffer.byteLength(interrupted.summary)).toBeLessThan(MIB);
  });
});
