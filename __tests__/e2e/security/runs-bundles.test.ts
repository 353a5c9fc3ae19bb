/**
 * The security cases of the run commands through the committed bundles (dist/), each step a Node 24
 * process as the runner starts it. Their behaviour is tested in the unit tier, in process from the
 * sources (__tests__/security/huge-runs.test.ts, huge-workflow-file.test.ts); this file keeps, for
 * each of those files, the case its header names as its point (earlier issues required it "through
 * the bundles"; it is no longer in that file), and the cases that need a process of the step's own
 * (SIGINT), kept whole. The behaviours held: the bounded outputs of a run of 50,000 jobs (the outputs
 * of jobs under 512 KiB together, one warning, a summary under 1 MiB); `timeout-minutes` and SIGINT
 * while following it; a workflow file of 105,000 keys read at once and left to the service; SIGINT
 * during that check. (Jobs whose outputs are huge: ../bounds-bundles.test.ts.)
 *
 * Nothing here asserts a duration: the harness's time limit is only a safety net (a step it has to
 * kill ends with SIGKILL and no exit code, which fails the test). The figures are in `npm run bench`.
 */
import { BUNDLES, type ActionRun, type StepOptions } from '../../../testkit/runner/step.js';
import { apiRequests, createWorld, type World } from '../../../testkit/world/world.js';
import type { GitWorkspace } from '../../../testkit/world/git-workspace.js';
import { HUGE_RUN_ID, HUGE_RUN_JOBS } from '../../../testkit/world/huge-run.js';
import { warningTexts } from '../../../testkit/world/github-world.js';
import {
  closeSlowGitWorld,
  createSlowGitWorld,
  followHugeRun,
  jobOutputsBytes,
  keptJobNumbers,
  manyKeys,
  slowGitCheck,
  workspaceHeadDispatch,
  type SlowGitWorld,
} from '../../../testkit/world/huge-fixtures.js';

/** Far above what a step needs (a few seconds), far below what the quadratic work took (a minute or more). */
const SAFETY_NET_MS = 45_000;
const MIB = 1024 * 1024;

describe('huge-runs (__tests__/security/huge-runs.test.ts)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  afterAll(() => world.sim.close());
  beforeEach(() => world.sim.reset());

  /** wait-for-run on the huge run, every read answered with it (run `status`, every job `jobStatus`). */
  const follow = (
    status: string,
    jobStatus: string,
    inputs: Record<string, string> = {},
    onSpawn?: StepOptions['onSpawn'],
  ): Promise<ActionRun> =>
    followHugeRun(BUNDLES, world, status, jobStatus, inputs, { timeoutMs: SAFETY_NET_MS, onSpawn });
  const outputsBytes = jobOutputsBytes;
  /** The texts of the step's warning annotations, as GitHub shows them. */
  const warnings = warningTexts;
  /** The job numbers of the `jobs` output, each element a job of the run (no marker element). */
  const keptJobs = keptJobNumbers;
  const jobLines = (run: ActionRun): string[] =>
    run.stdout.split('\n').filter((line) => /\] job job_\d+/.test(line));

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
      `The run has 50000 jobs; the \`jobs\`, \`job-outputs\`, \`build-ids\`, \`submission-ids\` and \`failed-jobs\` outputs hold the first ${kept.length} in pipeline order (the followed jobs first) and leave out ${HUGE_RUN_JOBS - kept.length}, so that these outputs stay under 512 KiB together (GitHub keeps at most 1 MB of outputs per job). The run's page lists every job: https://svc.example/runs/${HUGE_RUN_ID}.`,
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

  // A signal needs a process of the step's own: kept whole here.
  it('going on: a small timeout-minutes ends the step, timed out, and SIGINT ends it, interrupted', async () => {
    let output = '';
    let sent = false;
    const [timedOut, interrupted] = await Promise.all([
      // 1.2 s: reached on the first reads of the run.
      follow('in-progress', 'in-progress', { 'timeout-minutes': '0.02' }),
      follow('in-progress', 'in-progress', {}, (child) =>
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          // The first read of the run has been handled: the step follows the huge run now.
          if (!sent && output.includes('run: in-progress')) {
            sent = true;
            child.kill('SIGINT');
          }
        }),
      ),
    ]);
    expect(timedOut.signal).toBeNull();
    expect(timedOut.exitCode).toBe(1);
    expect(timedOut.outputs.outcome).toBe('timed-out');
    expect(timedOut.errors).toHaveLength(1);
    expect(timedOut.errors[0]).toContain('did not finish within timeout-minutes (0.02)');
    expect(Buffer.byteLength(timedOut.summary)).toBeLessThan(MIB);

    expect(sent).toBe(true);
    expect(interrupted.signal).toBeNull();
    expect(interrupted.exitCode).toBe(1);
    expect(interrupted.outputs.outcome).toBe('interrupted');
    expect(interrupted.stdout).toContain('Received SIGINT: cancelling.');
    expect(Buffer.byteLength(interrupted.summary)).toBeLessThan(MIB);
  });
});

describe('huge-workflow-file (__tests__/security/huge-workflow-file.test.ts)', () => {
  /** 105,000 keys in one mapping: under the 1 MiB the check reads, over the nodes it examines. */
  const HUGE = `name: Huge\non: workflow_dispatch\njobs:\n  build:\n    type: build\n    env: ${manyKeys(105_000)}\n`;

  let fixture: SlowGitWorld;
  let world: World;
  let workspace: GitWorkspace;
  /** A `git` first on PATH that waits, on its first call, until the test lets it go (a slow check). */
  let slowGit: string;
  beforeAll(async () => {
    fixture = await createSlowGitWorld({ 'huge.yml': HUGE }, 40);
    ({ world, workspace, slowGit } = fixture);
  });
  afterAll(() => closeSlowGitWorld(fixture));
  beforeEach(() => world.sim.reset());

  const dispatch = (inputs: Record<string, string>, options: StepOptions = {}) =>
    workspaceHeadDispatch(BUNDLES, fixture, inputs, { timeoutMs: SAFETY_NET_MS, ...options });
  /** run-workflow whose check waits in git until `whileWaiting` has ended (and may kill the step). */
  function slowCheck(inputs: Record<string, string>, whileWaiting: (kill: () => void) => Promise<void>) {
    let child: Parameters<NonNullable<StepOptions['onSpawn']>>[0] | undefined;
    return slowGitCheck(
      slowGit,
      (env) =>
        dispatch({ workflow: 'small.yml', ...inputs }, { env, onSpawn: (spawned) => (child = spawned) }),
      () => whileWaiting(() => child?.kill('SIGINT')),
    );
  }

  it('105,000 keys in one mapping: read at once, too many nodes to examine, left to the service', async () => {
    const result = await dispatch({ workflow: 'huge.yml', jobs: 'build_web', 'dry-run': 'true' });
    expect(result.signal).toBeNull();
    expect(result.exitCode).toBe(0);
    expect(result.outputs.outcome).toBe('dry-run');
    expect(result.stdout).toContain(
      `Not checked: The workflow file: .eas/workflows/huge.yml at ${workspace.headSha.slice(0, 12)} has over 100,000 YAML nodes.`,
    );
    // Nothing created: the dry run's two reads of runs that do not exist.
    expect(apiRequests(world.sim)).toEqual([
      expect.stringMatching(/^GET \/v2\/workflows\/runs\//),
      'GET /v2/workflows/runs/not-a-uuid',
    ]);
  });

  // A signal needs a process of the step's own: kept whole here.
  it('SIGINT during the check: nothing is dispatched, outcome interrupted', async () => {
    const result = await slowCheck({}, async (kill) => kill());
    expect(result.signal).toBeNull();
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('interrupted');
    expect(result.errors).toEqual([
      expect.stringContaining('The step was cancelled before the dispatch: nothing was dispatched.'),
    ]);
    expect(apiRequests(world.sim)).toEqual([]);
  });
});
