/** 6. A run with 1,000 jobs, through the real bundle; peak RSS from inside the step's process. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest } from '../../simulator/index.js';
import { DEFAULT_RUNTIME, RUNTIMES, runAction } from '../../testkit/runner/step.js';
import { mb, MB, row, timedRow } from './table.js';
import { check, serviceRequests, type World } from './world.js';

const JOBS = 1000;
/** In units of `node -e 0` (100 ms on a machine whose bare start-up is 20 ms). */
const AFTER_LAST_READ_BUDGET = 5;
const REPS = Number(process.env.BENCH_TIMED_REPS) || 3;

let cachedJobs: unknown[] | undefined;

/** The run with 1,000 jobs (built once, so the simulator's side of each answer stays small). */
function thousandJobs(run: Record<string, unknown>): Record<string, unknown> {
  cachedJobs ??= Array.from({ length: JOBS }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    key: `job_${i}`,
    name: `Job number ${i}`,
    type: i % 3 === 0 ? 'build' : i % 3 === 1 ? 'submit' : 'custom',
    status: 'success',
    requiredJobKeys: i ? [`job_${i - 1}`] : [],
    environment: null,
    outputs: { index: String(i), artifact: `https://example.invalid/artifacts/${i}.apk` },
    errors: [],
    buildId: i % 3 === 0 ? `b${String(i).padStart(8, '0')}-0000-4000-8000-000000000000` : null,
    submissionId: i % 3 === 1 ? `s${String(i).padStart(8, '0')}-0000-4000-8000-000000000000` : null,
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:05:00.000Z',
  }));
  return { ...run, status: 'success', jobs: cachedJobs };
}

export async function bigRun(world: World): Promise<void> {
  const rssFile = join(mkdtempSync(join(tmpdir(), 'svc-bench-')), 'rss.cjs');
  const rssOut = `${rssFile}.out`;
  writeFileSync(
    rssFile,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(rssOut)}, String(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  const runtime = DEFAULT_RUNTIME;
  world.sim.setJobBehaviour('only', { durationMs: 50 });
  world.sim.injectFault({
    method: 'GET',
    path: '/v2/workflows/runs/',
    times: 1000,
    kind: 'mutate',
    mutate: (json) => {
      const envelope = json as { data?: Record<string, unknown> };
      return envelope.data ? { data: thousandJobs(envelope.data) } : json;
    },
  });
  const afterLastResponses: number[] = [];
  let run: Awaited<ReturnType<typeof runAction>> | undefined;
  for (let rep = 0; rep < REPS; rep++) {
    const since = Date.now();
    run = await runAction({
      runtime,
      env: { NODE_OPTIONS: `--require ${rssFile}` },
      inputs: {
        command: 'run-workflow',
        ...world.api,
        workflow: 'bench.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '0.05',
      },
    });
    const exitedAt = Date.now();
    check(run, '1,000-job run');
    const last = serviceRequests(world.sim, since).at(-1) as RecordedRequest;
    afterLastResponses.push(exitedAt - Date.parse(last.receivedAt));
  }
  world.sim.clearFaults();
  const jobs = JSON.parse(run!.outputs.jobs ?? '[]') as unknown[];
  // The summary shows the first 500 jobs of the pipeline and says how many more.
  if (jobs.length !== JOBS || !run!.summary.includes('job_499') || !run!.summary.includes('… and 500 more'))
    throw new Error(`1,000-job run: outputs have ${jobs.length} jobs`);
  const rss = Number(readFileSync(rssOut, 'utf8'));
  spawnSync(RUNTIMES[runtime], ['-e', '0'], {
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--require ${rssFile}` },
  });
  const bareRss = Number(readFileSync(rssOut, 'utf8'));
  rmSync(join(rssFile, '..'), { recursive: true, force: true });
  timedRow(
    `1,000-job run on ${runtime} (root action, command: run-workflow): last read received → step exited (serve ~${(JSON.stringify(thousandJobs({})).length / 1024).toFixed(0)} kB, parse, 8 outputs, summary, exit)`,
    afterLastResponses,
    AFTER_LAST_READ_BUDGET,
  );
  row(
    `1,000-job run on ${runtime}: peak RSS of the step process`,
    `${mb(rss)} (node -e 0: ${mb(bareRss)})`,
    '< 100 MB',
    rss / MB < 100,
  );
}
