/**
 * A run answer of 50,000 jobs (testkit/world/huge-run.ts, about 7 MB) costs the step work in
 * proportion to its size: the jobs are ordered by `requiredJobKeys` through a map, the job summary
 * renders the first jobs and says how many more (under GitHub's 1 MiB), the log and the error name a
 * bounded number of jobs, and the step honours a small `timeout-minutes` and SIGINT. Run through the
 * built bundle (wait-for-run), the answer served by the simulator.
 *
 * Nothing here asserts a duration: the harness's time limit is only a safety net (a step it has to
 * kill ends with SIGKILL and no exit code, which fails the test). The figures are in `npm run bench`.
 */
import { followRunStep, createWorld, type World } from '../../../testkit/world/world.js';
import type { ActionRun, StepOptions } from '../../../testkit/runner/step.js';
import { HUGE_RUN_ID, HUGE_RUN_JOBS, serveHugeRun } from '../../../testkit/world/huge-run.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

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

/** The outputs of jobs, bounded together (GitHub keeps 1 MB of outputs per job). */
const JOB_OUTPUTS = ['jobs', 'job-outputs', 'build-ids', 'submission-ids', 'failed-jobs'];
const outputsBytes = (run: ActionRun): number =>
  JOB_OUTPUTS.reduce((sum, name) => sum + Buffer.byteLength(run.outputs[name] ?? ''), 0);
const warnings = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
/** The job numbers of the `jobs` output, each element a job of the run (no marker element). */
function keptJobs(run: ActionRun): number[] {
  const jobs = JSON.parse(run.outputs.jobs) as Array<Record<string, unknown>>;
  for (const job of jobs)
    expect(job).toEqual(expect.objectContaining({ id: expect.any(String), status: expect.any(String) }));
  return jobs.map((job) => Number(String(job.key).replace('job_', '')));
}

const errorLine = (run: ActionRun): string =>
  run.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? '';
const jobLines = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((line) => /\] job job_\d+/.test(line));

describe('a run of 50,000 jobs', () => {
  it('succeeded: the outputs hold the first jobs in pipeline order under 512 KiB together, one warning says how many were left out; a summary of the first 500 under 1 MiB', async () => {
    const run = await follow('success', 'success');
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('success');
    // The step's outputs together, well under GitHub's 1 MB per job.
    expect(outputsBytes(run)).toBeLessThanOrEqual(512 * 1024);
    // Each job needs the one listed after it: the pipeline starts with the last one listed, so the
    // outputs hold the last jobs listed, in the service's order, and nothing else.
    const kept = keptJobs(run);
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => HUGE_RUN_JOBS - kept.length + i));
    expect(Object.keys(JSON.parse(run.outputs['job-outputs']) as object)).toHaveLength(kept.length);
    expect(warnings(run)).toEqual([
      `::warning::The run has 50000 jobs; the \`jobs\`, \`job-outputs\`, \`build-ids\`, \`submission-ids\` and \`failed-jobs\` outputs hold the first ${kept.length} in pipeline order (the followed jobs first) and leave out ${HUGE_RUN_JOBS - kept.length}, so that these outputs stay under 512 KiB together (GitHub keeps at most 1 MB of outputs per job). The run's page lists every job: https://svc.example/runs/${HUGE_RUN_ID}.`,
    ]);
    expect(run.outputs['failed-jobs']).toBe('');
    expect(Buffer.byteLength(run.summary)).toBeLessThan(MIB);
    // Each job needs the one listed after it: the pipeline starts with the last one listed.
    const rows = run.summary.split('\n').filter((line) => line.startsWith('| Job \\*'));
    expect(rows).toHaveLength(500);
    expect(rows[0]).toContain('`job_49999`');
    expect(rows[499]).toContain('`job_49500`');
    expect(run.summary).toContain("| … and 49500 more (every job is on the run's page) |");
    // A progress line for the first 100 jobs, and one line that says the rest are elsewhere.
    expect(jobLines(run)).toHaveLength(100);
    expect(run.stdout).toContain(
      "The run has 50000 jobs: progress lines for the first 100; more in the job summary and the outputs, every job on the run's page.",
    );
  });

  it('failed: the error and the summary name the first 20 failed jobs and how many more', async () => {
    const run = await follow('failure', 'failure');
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.outputs.outcome).toBe('failure');
    // The failed jobs the outputs hold: those of the `jobs` output, no more; the warning counts the others.
    expect(outputsBytes(run)).toBeLessThanOrEqual(512 * 1024);
    const kept = keptJobs(run);
    expect(run.outputs['failed-jobs']).toBe(kept.map((n) => `job_${n}`).join(','));
    expect(warnings(run)).toHaveLength(1);
    expect(warnings(run)[0]).toContain(
      `leave out ${HUGE_RUN_JOBS - kept.length}, ${HUGE_RUN_JOBS - kept.length} of them not successful, so that`,
    );
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

describe('the bound of the outputs of jobs', () => {
  it.each(['run-workflow', 'wait-for-run'])(
    'is in the description of each of them (%s/action.yml)',
    (command) => {
      const action = parseYaml(readFileSync(`${command}/action.yml`, 'utf8')) as {
        outputs: Record<string, { description: string }>;
      };
      for (const name of JOB_OUTPUTS) expect(action.outputs[name].description).toContain('under 512 KiB');
    },
  );
});
