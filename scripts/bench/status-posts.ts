/**
 * 9. Commit statuses posted for a run of 100 jobs (`commit-statuses: true`), the step run in process
 * on a VirtualClock (writes go a second apart on the step clock: through the bundle that would be two
 * minutes of real time a case) against GitHub's stand-in (the simulator's): an ordinary run (every job queued, then running, then successful)
 * and one whose jobs flap between `new` and `in-progress` on every read. Counts, not times: the
 * budget is the step's own (REQUEST_BUDGET requests, reads included, well under GitHub's 500 content-creating requests an hour),
 * and the first read must stay under GitHub's about 80 a minute.
 */
import { runAction } from '../../testkit/runner/in-process.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { GitHubStandIn } from '../../simulator/index.js';
import { REQUEST_BUDGET } from '../../src/github/status-budget.js';
import { row } from './table.js';
import { check, type World } from './world.js';

const JOBS = 100;
const READS = 40;
const COMMIT = 'c0ffee'.padEnd(40, '1');

/** Each read's answer: the run and its jobs in the states `jobStatus` gives for read `n`. */
function scripted(jobStatus: (n: number) => string): (json: unknown) => unknown {
  let reads = 0;
  return (json) => {
    const envelope = json as { data?: Record<string, unknown> };
    if (!envelope.data) return json;
    reads++;
    const done = reads > READS;
    const jobs = Array.from({ length: JOBS }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      key: `job_${i}`,
      status: done ? 'success' : jobStatus(reads),
    }));
    return {
      data: { ...envelope.data, gitCommitHash: COMMIT, status: done ? 'success' : 'in-progress', jobs },
    };
  };
}

/** The statuses GitHub received, and how many the step's first batch posted (its own log line). */
async function posts(
  world: World,
  github: GitHubStandIn,
  clock: VirtualClock,
  jobStatus: (n: number) => string,
): Promise<{ total: number; first: number }> {
  github.statuses.length = 0;
  world.sim.setJobBehaviour('only', { durationMs: 60_000 });
  world.sim.injectFault({
    method: 'GET',
    path: '/v2/workflows/runs/',
    times: READS + 10,
    kind: 'mutate',
    mutate: scripted(jobStatus),
  });
  const run = await runAction({
    inputs: {
      command: 'run-workflow',
      ...world.api,
      workflow: 'bench.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      'commit-statuses': 'true',
      'github-token': 'ghs_benchToken0123456789',
    },
    env: {
      GITHUB_API_URL: github.url,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_SHA: COMMIT,
      GITHUB_RUN_ID: '1',
      GITHUB_RUN_ATTEMPT: '1',
    },
    clock,
  });
  world.sim.clearFaults();
  world.sim.cancelRun(run.outputs['run-id']);
  check(run, 'status posts');
  const first = /Commit statuses: posted (\d+) on commit/.exec(run.stdout);
  return { total: github.statuses.length, first: first ? Number(first[1]) : NaN };
}

export async function statusPosts(world: World): Promise<void> {
  // One step clock for both cases, and the stand-in's limits (80 writes a minute, 500 an hour) on it.
  const clock = new VirtualClock();
  const github = new GitHubStandIn('', { now: () => clock.now() });
  await github.start();
  try {
    const ordinary = await posts(world, github, clock, (n) => (n <= 3 ? 'new' : 'in-progress'));
    row(
      `commit statuses, ordinary run of ${JOBS} jobs: posts in all; at its first read`,
      `${ordinary.total}; ${ordinary.first}`,
      `≤ ${REQUEST_BUDGET}; ≤ 60 (GitHub: about 80 a minute)`,
      ordinary.total <= REQUEST_BUDGET && ordinary.first <= 60,
    );
    const flapping = await posts(world, github, clock, (n) => (n % 2 ? 'new' : 'in-progress'));
    row(
      `commit statuses, ${JOBS} jobs flapping on each of ${READS} reads: posts in all`,
      String(flapping.total),
      `≤ ${REQUEST_BUDGET}`,
      flapping.total <= REQUEST_BUDGET,
    );
  } finally {
    await github.close();
  }
}
