/**
 * 10. What a gate costs in runner minutes, both ways, as a model with its assumptions printed: a
 * remote run scaled down (`--job-duration-ms`, the real duration it stands for `--represents-minutes`)
 * is gated through the real bundles by a step that waits (`commit-statuses: true`) and by one that
 * leaves (`wait: false`, then `sync-statuses`). GitHub bills each job rounded up to a whole minute;
 * a job's start-up (runner, checkout of the action) is an allowance added to each.
 *
 *   npm run bench -- --job-duration-ms 1500 --represents-minutes 30
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../../testkit/runner/step.js';
import { GitHubStandIn } from '../../simulator/index.js';
import { note, row } from './table.js';
import { check } from './world.js';
import { createWorld } from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';

/** A job's start-up on a GitHub-hosted runner, added to every job (an assumption, stated). */
const STARTUP_MINUTES = 0.5;
const SCHEDULE_MINUTES = 5;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export async function gateCost(): Promise<void> {
  const jobMs = option('job-duration-ms', 1500);
  const represents = option('represents-minutes', 30);
  const github = new GitHubStandIn();
  await github.start();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-gate-'));
  // A world of its own: its repository's head is the pull request's head the statuses go on.
  const world = await createWorld({ 'bench.yml': workflow('Bench', { only: {} }) }, { readinessDelayMs: 0 });
  try {
    world.sim.setJobBehaviour('only', { durationMs: jobMs });
    const head = world.repo.headSha;
    github.addPullRequest({ number: 1, head });
    writeFileSync(
      join(dir, 'event.json'),
      JSON.stringify({ pull_request: { number: 1, head: { sha: head } } }),
    );
    const env = {
      GITHUB_API_URL: github.url,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: join(dir, 'event.json'),
      GITHUB_RUN_ID: '1',
      GITHUB_RUN_ATTEMPT: '1',
    };
    const inputs = {
      command: 'run-workflow',
      ...world.api,
      workflow: 'bench.yml',
      'poll-interval-seconds': '0.05',
      'commit-statuses': 'true',
      'github-token': 'ghs_benchToken0123456789',
    };
    const timed = async (run: () => Promise<Awaited<ReturnType<typeof runAction>>>, what: string) => {
      const since = Date.now();
      const result = await run();
      check(result, what);
      return { result, ms: Date.now() - since };
    };
    const waiting = await timed(() => runAction({ inputs, env }), 'gate that waits');
    // Another GitHub run (a later push's): the same contexts from the same run would be a collision.
    const leaving = await timed(
      () => runAction({ inputs: { ...inputs, wait: 'false' }, env: { ...env, GITHUB_RUN_ID: '2' } }),
      'gate that leaves',
    );
    await new Promise((resolve) => setTimeout(resolve, jobMs + 500));
    const sync = await timed(
      () =>
        runAction({
          inputs: {
            command: 'sync-statuses',
            token: world.api.token,
            'base-url': world.api['base-url'],
            'github-token': 'ghs_benchToken0123456789',
          },
          env: { ...env, GITHUB_EVENT_NAME: 'schedule' },
        }),
      'sync-statuses',
    );
    // The remote run is scaled; the step's own time around it (start-up, reads, posts) is real.
    const waitMinutes = Math.ceil(represents + Math.max(0, waiting.ms - jobMs) / 60_000 + STARTUP_MINUTES);
    const leaveMinutes = Math.ceil(leaving.ms / 60_000 + STARTUP_MINUTES);
    const syncMinutes = Math.ceil(sync.ms / 60_000 + STARTUP_MINUTES);
    row(
      `billed runner-minutes per gate, a ${represents}-minute remote run: waiting / dispatch and leave + one sync`,
      `${waitMinutes} / ${leaveMinutes} + ${syncMinutes} (settled ${sync.result.outputs.settled})`,
      'leaving costs less than waiting',
      leaveMinutes + syncMinutes < waitMinutes,
    );
    row(
      'latency from the run’s end to the final status: waiting gate / relay trigger / schedule',
      `≤ one poll / about ${STARTUP_MINUTES} min (a job's start) / ${STARTUP_MINUTES}–${SCHEDULE_MINUTES + STARTUP_MINUTES} min (mean ${SCHEDULE_MINUTES / 2 + STARTUP_MINUTES})`,
      'model',
      undefined,
    );
    note(
      `Gate cost model: the remote run is ${jobMs} ms here standing for ${represents} minutes; GitHub bills each job rounded up to a whole minute; ` +
        `each job adds a start-up allowance of ${STARTUP_MINUTES} min; a schedule every ${SCHEDULE_MINUTES} min costs ${(24 * 60) / SCHEDULE_MINUTES} billed minutes a day on a private ` +
        'repository whatever the pull requests (GitHub may run it later than asked); the relay trigger settles at once only a run that ended with a build job.',
    );
  } finally {
    await world.sim.close();
    await github.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
