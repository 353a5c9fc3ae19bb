/**
 * A workflow run answer of 50,000 jobs (about 7 MB, under the client's 16 MiB answer limit), shaped to
 * hit each piece of work that once grew with the square of the job count: each job needs the job listed AFTER it (so
 * ordering by `requiredJobKeys` that rescans the remaining jobs per placement is quadratic), names
 * and keys that Markdown escapes, and an error per job. Served as a raw body (the simulator's `body`
 * fault) so the test process serialises it once. Used by __tests__/security/huge-runs.test.ts,
 * __tests__/e2e/security/runs-bundles.test.ts and `npm run bench`.
 */

import type { Simulator } from '../../simulator/index.js';

export const HUGE_RUN_JOBS = 50_000;
export const HUGE_RUN_ID = '5e5e5e5e-0000-4000-8000-000000000050';
const COMMIT = 'c0ffee'.padEnd(40, '0');

/** The run's `data`: `status` for the run, `jobStatus` for every job. */
export function hugeRun(status: string, jobStatus: string): Record<string, unknown> {
  // Only the fields the service must send, so that 50,000 of them stay under the answer limit.
  const jobs = Array.from({ length: HUGE_RUN_JOBS }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    key: `job_${i}`,
    name: `Job *${i}* [of](run)`,
    status: jobStatus,
    requiredJobKeys: i + 1 < HUGE_RUN_JOBS ? [`job_${i + 1}`] : [],
    ...(jobStatus === 'failure' ? { errors: [`Step ${i} failed`] } : {}),
  }));
  return {
    id: HUGE_RUN_ID,
    status,
    url: `https://svc.example/runs/${HUGE_RUN_ID}`,
    gitCommitHash: COMMIT,
    gitCommitMessage: 'A run of many jobs',
    requestedGitRef: 'refs/heads/main',
    triggerEventType: 'MANUAL',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:05:00.000Z',
    jobs,
  };
}

/** The answer of `GET /v2/workflows/runs/:id` for `hugeRun`, as the service sends it. */
export function hugeRunBody(status: string, jobStatus: string): string {
  return JSON.stringify({ data: hugeRun(status, jobStatus) });
}

/** Makes every read of HUGE_RUN_ID on `sim` answer `hugeRun(status, jobStatus)`. */
export function serveHugeRun(sim: Simulator, status: string, jobStatus: string): void {
  sim.injectFault({
    method: 'GET',
    path: `/v2/workflows/runs/${HUGE_RUN_ID}`,
    times: 10_000,
    kind: 'body',
    status: 200,
    body: hugeRunBody(status, jobStatus),
  });
}
