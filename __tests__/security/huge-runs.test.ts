/**
 * A run answer of 50,000 jobs (testkit/world/huge-run.ts, about 7 MB) costs the step work in
 * proportion to its size: the jobs are ordered by `requiredJobKeys` through a map, the job summary
 * renders the first jobs and says how many more (under GitHub's 1 MiB), the log and the error name
 * a bounded number of jobs. Run in process from the sources (wait-for-run), the answer served by
 * the simulator. Through the bundle, in __tests__/e2e/security/runs-bundles.test.ts: a run that
 * succeeded, and a small `timeout-minutes` and SIGINT (a signal needs a process of the step's own);
 * jobs whose outputs are huge, in __tests__/e2e/bounds-bundles.test.ts.
 *
 * Nothing here asserts a duration: Jest's time limit is only a safety net (in process, a step is
 * not killed). The figures are in `npm run bench`.
 */
import { createWorld, type World } from '../../testkit/world/world.js';
import { IN_PROCESS, renderLog, type ActionRun } from '../../testkit/runner/in-process.js';
import { HUGE_RUN_JOBS } from '../../testkit/world/huge-run.js';
import {
  JOB_OUTPUTS,
  followHugeRun,
  jobOutputsBytes,
  keptJobNumbers,
} from '../../testkit/world/huge-fixtures.js';
import { warningTexts } from '../../testkit/world/github-world.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

const MIB = 1024 * 1024;

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

/** wait-for-run on the huge run, every read answered with it (run `status`, every job `jobStatus`). */
const follow = (status: string, jobStatus: string): Promise<ActionRun> =>
  followHugeRun(IN_PROCESS, world, status, jobStatus);

const outputsBytes = jobOutputsBytes;
/** The texts of the step's warning annotations, as GitHub shows them. */
const warnings = warningTexts;
/** The job numbers of the `jobs` output, each element a job of the run (no marker element). */
const keptJobs = keptJobNumbers;

describe('a run of 50,000 jobs', () => {
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
    expect(run.errors).toHaveLength(1);
    const [error] = run.errors;
    expect(error).toContain('Failed jobs: job_0 (Job *0* [of](run)) (failure: Step 0 failed), ');
    expect(error).toContain(', … and 49980 more.');
    expect(error.length).toBeLessThan(10_000);
    expect(Buffer.byteLength(run.summary)).toBeLessThan(MIB);
    // Each entry: the job, then its error quoted as text (a fenced block inside a blockquote).
    expect(run.summary).toMatch(/\*\*Failed jobs\*\*\n\n(- .*\n( {2}> .*\n)*){20}- … and 49980 more\n/);
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

describe('a run of 1,200 jobs, gated on its last', () => {
  it('`jobs: job_1199` has its progress lines, wherever the job is in the run', async () => {
    const RUN_ID = '5e5e5e5e-0000-4000-8000-000000001200';
    const answer = (jobStatus: string, lastStatus: string): string =>
      JSON.stringify({
        data: {
          id: RUN_ID,
          status: 'in-progress',
          url: `https://svc.example/runs/${RUN_ID}`,
          gitCommitHash: 'c0ffee'.padEnd(40, '0'),
          createdAt: '2026-11-21T10:00:00.000Z',
          updatedAt: '2026-11-21T10:05:00.000Z',
          jobs: Array.from({ length: 1200 }, (_, i) => ({
            id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            key: `job_${i}`,
            status: i === 1199 ? lastStatus : jobStatus,
          })),
        },
      });
    // Two reads: the gated job in progress, then succeeded while the run goes on.
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/workflows/runs/${RUN_ID}`,
      times: 1,
      kind: 'body',
      status: 200,
      body: answer('in-progress', 'in-progress'),
    });
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/workflows/runs/${RUN_ID}`,
      times: 10,
      kind: 'body',
      status: 200,
      body: answer('in-progress', 'success'),
    });
    const run = await IN_PROCESS.runStep('wait-for-run', {
      inputs: {
        token: world.token,
        'base-url': world.sim.url,
        'run-id': RUN_ID,
        'expected-commit': '',
        jobs: 'job_1199',
        'poll-interval-seconds': '0.05',
      },
    });
    expect(run.exitCode).toBe(0);
    const lines = renderLog(run.stdout).split('\n');
    expect(lines.filter((line) => /job job_1199: /.test(line))).toEqual([
      expect.stringMatching(/job job_1199: in-progress$/),
      expect.stringMatching(/job job_1199: success$/),
    ]);
    expect(lines).toContainEqual(
      expect.stringContaining(
        "The run has 1200 jobs: progress lines for the 1 `jobs` selects and the first others, up to 100; more in the job summary and the outputs, every job on the run's page.",
      ),
    );
    // 100 jobs in all have a line: the gated one and the first 99 others.
    const logged = new Set(lines.flatMap((line) => /job (job_\d+): /.exec(line)?.[1] ?? []));
    expect(logged.size).toBe(100);
    expect(logged.has('job_98')).toBe(true);
    expect(logged.has('job_99')).toBe(false);
  });
});
