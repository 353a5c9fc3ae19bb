/**
 * 7c. Hostile run-side input (issue 24, items 4 and 5), through the real bundles:
 * - a run answer of 50,000 jobs (testkit/world/huge-run.ts, about 7 MB, each job needing the
 *   one listed after it): from the read that sees it finished to the step's exit (ordering the jobs,
 *   the outputs, a summary of the first 500 rows), and from a SIGINT sent after a read of it to the exit;
 * - a 0.9 MB workflow file of 105,000 keys in one mapping in the workspace: run-workflow with
 *   `dry-run: true`, from the start of the step to its exit (git, parse, the node bound).
 * The tests (__tests__/security/huge-runs.test.ts, huge-workflow-file.test.ts, and through the
 * bundles __tests__/e2e/security/runs-bundles.test.ts) assert the behaviour without a duration; the
 * figures are here.
 */
import { runAction } from '../../testkit/runner/step.js';
import { runStep } from '../../testkit/runner/step.js';
import { HUGE_RUN_ID, serveHugeRun } from '../../testkit/world/huge-run.js';
import { createGitWorkspace } from '../../testkit/world/git-workspace.js';
import { timedRow } from './table.js';
import { check, serviceRequests, type World } from './world.js';

/** In units of `node -e 0` (3 s and 5 s on a machine whose bare start-up is 20 ms). */
const HUGE_RUN_BUDGET = 150;
const HUGE_FILE_BUDGET = 250;
const REPS = Number(process.env.BENCH_TIMED_REPS) || 3;

export async function hugeRun(world: World): Promise<void> {
  const follow = (status: string, onSpawn?: Parameters<typeof runAction>[0]['onSpawn']) => {
    world.sim.clearFaults();
    serveHugeRun(world.sim, status, status);
    return runStep('wait-for-run', {
      timeoutMs: 120_000,
      onSpawn,
      inputs: {
        token: world.api.token,
        'base-url': world.api['base-url'],
        'run-id': HUGE_RUN_ID,
        'expected-commit': '',
        'poll-interval-seconds': '0.2',
      },
    });
  };
  const afterReads: number[] = [];
  const afterSignals: number[] = [];
  let summaryKb = 0;
  let exit = '';
  try {
    for (let rep = 0; rep < REPS; rep++) {
      const since = Date.now();
      const finished = await follow('success');
      const exitedAt = Date.now();
      check(finished, '50,000-job run');
      afterReads.push(exitedAt - Date.parse(serviceRequests(world.sim, since).at(-1)!.receivedAt));
      summaryKb = Math.round(Buffer.byteLength(finished.summary) / 1024);

      let output = '';
      let sentAt = 0;
      const interrupted = await follow('in-progress', (child) =>
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (!sentAt && output.includes('run: in-progress')) {
            sentAt = Date.now();
            child.kill('SIGINT');
          }
        }),
      );
      afterSignals.push(Date.now() - sentAt);
      if (interrupted.signal === 'SIGKILL') throw new Error('50,000-job run: the step did not answer SIGINT');
      exit = String(interrupted.exitCode ?? interrupted.signal);
    }
    timedRow(
      `50,000-job run answer (7 MB): the read that sees it finished → step exited (summary ${summaryKb} kB)`,
      afterReads,
      HUGE_RUN_BUDGET,
    );
    timedRow(
      `50,000-job run answer: SIGINT after a read of it → step exited (exit ${exit})`,
      afterSignals,
      HUGE_RUN_BUDGET,
    );
  } finally {
    world.sim.clearFaults();
  }

  const keys = Array.from({ length: 105_000 }, (_, i) => `k${i.toString(36)}: 1`).join(',');
  const workspace = createGitWorkspace({
    'huge.yml': `name: Huge\non: workflow_dispatch\njobs:\n  build:\n    type: build\n    env: {${keys}}\n`,
  });
  try {
    const took: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      const since = Date.now();
      const dry = await runStep('run-workflow', {
        timeoutMs: 120_000,
        env: { GITHUB_WORKSPACE: workspace.path },
        inputs: { ...world.api, workflow: 'huge.yml', 'git-ref': workspace.headSha, 'dry-run': 'true' },
      });
      took.push(Date.now() - since);
      check(dry, 'huge workflow file');
    }
    timedRow(
      'Workflow file of 105,000 keys (0.9 MB) in the workspace: run-workflow dry-run, step start → exit',
      took,
      HUGE_FILE_BUDGET,
    );
  } finally {
    workspace.remove();
  }
}
