/**
 * 11. GitHub's side: what a gate and a sync cost a repository's GitHub budgets (1,000 REST requests
 * and 1,000 GraphQL points an hour for its workflow tokens; 80 writes a minute, 500 an hour), counted
 * by GitHub's stand-in, the steps run in process on a VirtualClock shared with the stand-in (so a
 * second between writes and GitHub's windows are simulated time, printed as such):
 * - a gate (`commit-statuses: true`) of 1, 10 and 60 jobs that all end at once: REST reads, writes,
 *   the most writes in any minute, the shortest gap between two writes;
 * - a sync over 10, 100 and 1,000 open pull requests, with nothing pending and with 10 pending runs
 *   (ten gates left pending with `wait: false`, each its own `status-context`, on one pull request);
 * - a model of an hour of a repository, its assumptions printed, against 1,000 REST requests and
 *   500 writes an hour.
 * Counts, not times: every budget here is absolute.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction, type ActionRun } from '../../testkit/runner/in-process.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { GitHubStandIn, type GitHubCount } from '../../simulator/index.js';
import { createWorld } from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';
import { note, row } from './table.js';

const TOKEN = 'ghs_benchGitHubSide0123456789';
const REPOSITORY = 'acme/app';
/** The sync's schedule the README recommends, and the hour's figures GitHub gives a repository. */
const SCHEDULE_MINUTES = 5;
const REST_AN_HOUR = 1000;
const WRITES_AN_HOUR = 500;
/** The issue's bound for a sync over 1,000 open pull requests with nothing pending. */
const SYNC_1000_BOUND = 12;

type Totals = Omit<GitHubCount, 'repository' | 'token'>;

interface GateCost {
  jobs: number;
  reads: number;
  writes: number;
  mostInAMinute: number;
  shortestGapMs: number;
}

interface SyncCost {
  pulls: number;
  pending: number;
  requests: number;
  restReads: number;
  restWrites: number;
  graphqlRequests: number;
  graphqlPoints: number;
  settled: string;
}

const diff = (after: Totals, before: Totals): Totals => ({
  restReads: after.restReads - before.restReads,
  restWrites: after.restWrites - before.restWrites,
  graphqlRequests: after.graphqlRequests - before.graphqlRequests,
  graphqlPoints: after.graphqlPoints - before.graphqlPoints,
  refused: after.refused - before.refused,
});

function succeeded(run: ActionRun, what: string): void {
  if (run.exitCode !== 0) throw new Error(`${what}: the step failed (exit ${run.exitCode}):\n${run.stdout}`);
}

/** The statuses' write times on the stand-in: the most in any 60 s window and the shortest gap. */
function pacing(times: number[]): { most: number; shortest: number } {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let shortest = Infinity;
  for (let i = 0, start = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[start] >= 60_000) start++;
    most = Math.max(most, i - start + 1);
    if (i > 0) shortest = Math.min(shortest, sorted[i] - sorted[i - 1]);
  }
  return { most, shortest };
}

/** A gate of `jobs` jobs that all end at once, in process on `clock`, against `github`. */
async function gateOf(jobs: number, env: Record<string, string>): Promise<GateCost> {
  const clock = new VirtualClock();
  const github = new GitHubStandIn('', { now: () => clock.now() });
  await github.start();
  const keys = Array.from({ length: jobs }, (_, i) => `job_${i}`);
  const world = await createWorld(
    { 'gate.yml': workflow('Gate', Object.fromEntries(keys.map((key) => [key, { type: 'build' }]))) },
    { readinessDelayMs: 0, defaultJobDurationMs: 60_000 },
  );
  try {
    // Three reads of every job running, then every job done at once.
    let reads = 0;
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      times: 1000,
      kind: 'mutate',
      mutate: (json) => {
        const envelope = json as { data?: { jobs?: Array<{ status: string }>; status?: string } };
        if (!envelope.data?.jobs) return json;
        const done = ++reads > 3;
        for (const job of envelope.data.jobs) job.status = done ? 'success' : 'in-progress';
        envelope.data.status = done ? 'success' : 'in-progress';
        return envelope;
      },
    });
    const run = await runAction({
      inputs: {
        command: 'run-workflow',
        ...world.api,
        workflow: 'gate.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '5',
        'commit-statuses': 'true',
        'github-token': TOKEN,
      },
      env: { ...env, GITHUB_API_URL: github.url, GITHUB_SHA: world.repo.headSha },
      clock,
    });
    succeeded(run, `gate of ${jobs} jobs`);
    const totals = github.totals(REPOSITORY);
    const { most, shortest } = pacing(github.statuses.map((status) => status.receivedAt ?? 0));
    return {
      jobs,
      reads: totals.restReads + totals.graphqlRequests,
      writes: totals.restWrites,
      mostInAMinute: most,
      shortestGapMs: shortest,
    };
  } finally {
    await world.sim.close();
    await github.close();
  }
}

/** A sync over `pulls` open pull requests, `pending` gates left pending on the first one. */
async function syncOver(pulls: number, pending: number, env: Record<string, string>): Promise<SyncCost> {
  const clock = new VirtualClock();
  const github = new GitHubStandIn('', { now: () => clock.now() });
  await github.start();
  const world = await createWorld(
    { 'gate.yml': workflow('Gate', { build: { type: 'build' } }) },
    { readinessDelayMs: 0, defaultJobDurationMs: 5 },
  );
  try {
    const head = world.repo.headSha;
    github.addPullRequest({ number: 1, head, created_at: '2026-10-01T00:00:00Z' });
    for (let number = 2; number <= pulls; number++)
      github.addPullRequest({
        number,
        head: number.toString(16).padStart(40, 'a'),
        created_at: new Date(Date.parse('2026-10-02T00:00:00Z') + number * 1000).toISOString(),
      });
    for (let i = 0; i < pending; i++)
      succeeded(
        await runAction({
          inputs: {
            command: 'run-workflow',
            ...world.api,
            workflow: 'gate.yml',
            'git-ref': 'main',
            wait: 'false',
            'commit-statuses': 'true',
            'status-context': `svc/gate-${i}`,
            'github-token': TOKEN,
          },
          env: { ...env, GITHUB_API_URL: github.url, GITHUB_EVENT_NAME: 'pull_request' },
          clock,
        }),
        'a gate that leaves',
      );
    // The runs end (5 ms jobs, real time): the sync then has something to settle.
    while (world.sim.runs().some((run) => !['success', 'failure', 'canceled'].includes(run.status)))
      await new Promise((resolve) => setTimeout(resolve, 10));
    const before = github.totals(REPOSITORY);
    const run = await runAction({
      inputs: {
        command: 'sync-statuses',
        token: world.token,
        'base-url': world.sim.url,
        'github-token': TOKEN,
      },
      env: { ...env, GITHUB_API_URL: github.url, GITHUB_EVENT_NAME: 'schedule', GITHUB_RUN_ID: '902' },
      clock,
    });
    succeeded(run, `sync over ${pulls} pull requests`);
    const spent = diff(github.totals(REPOSITORY), before);
    return {
      pulls,
      pending,
      requests: spent.restReads + spent.restWrites + spent.graphqlRequests,
      ...spent,
      settled: run.outputs.settled ?? '?',
    };
  } finally {
    await world.sim.close();
    await github.close();
  }
}

export async function githubSide(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-github-'));
  writeFileSync(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: 1, head: {} } }));
  const env = {
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_RUN_ID: '901',
    GITHUB_RUN_ATTEMPT: '1',
  };
  try {
    const gates: GateCost[] = [];
    for (const jobs of [1, 10, 60]) gates.push(await gateOf(jobs, env));
    for (const gate of gates)
      row(
        `GitHub, a gate of ${gate.jobs} job(s) ending at once (in process, simulated time): reads; writes; most writes in a minute; shortest gap`,
        `${gate.reads}; ${gate.writes}; ${gate.mostInAMinute}; ${gate.shortestGapMs === Infinity ? '—' : `${(gate.shortestGapMs / 1000).toFixed(1)} s`}`,
        'writes ≥ 1 s apart, ≤ 60 in any minute',
        gate.shortestGapMs >= 1000 && gate.mostInAMinute <= 60,
      );

    const syncs: SyncCost[] = [];
    for (const pulls of [10, 100, 1000])
      for (const pending of [0, 10]) syncs.push(await syncOver(pulls, pending, env));
    for (const sync of syncs)
      row(
        `GitHub, a sync over ${sync.pulls} open pull requests, ${sync.pending ? `${sync.pending} runs pending` : 'nothing pending'}: HTTP requests (GraphQL queries, points; REST reads; writes)`,
        `${sync.requests} (${sync.graphqlRequests}, ${sync.graphqlPoints} points; ${sync.restReads}; ${sync.restWrites}); settled ${sync.settled}`,
        sync.pulls === 1000 && sync.pending === 0 ? `≤ ${SYNC_1000_BOUND} requests` : 'reported',
        sync.pulls === 1000 && sync.pending === 0 ? sync.requests <= SYNC_1000_BOUND : undefined,
      );

    // An hour of a busy repository, from the figures above.
    const openPulls = 100;
    const gatesAnHour = 20;
    const jobsEach = 10;
    const gate = gates.find((g) => g.jobs === jobsEach)!;
    const idleSync = syncs.find((s) => s.pulls === openPulls && s.pending === 0)!;
    const busySync = syncs.find((s) => s.pulls === openPulls && s.pending === 10)!;
    const syncsAnHour = 60 / SCHEDULE_MINUTES;
    // Most calls find nothing pending; at most one call in four settles ten runs.
    const busyCalls = Math.ceil(syncsAnHour / 4);
    const rest =
      gatesAnHour * (gate.reads + gate.writes) +
      busyCalls * (busySync.restReads + busySync.restWrites) +
      (syncsAnHour - busyCalls) * (idleSync.restReads + idleSync.restWrites);
    const writes = gatesAnHour * gate.writes + busyCalls * busySync.restWrites;
    const points = busyCalls * busySync.graphqlPoints + (syncsAnHour - busyCalls) * idleSync.graphqlPoints;
    row(
      `GitHub, an hour of a repository (model): ${openPulls} open pull requests, ${gatesAnHour} waiting gates of ${jobsEach} jobs, a sync every ${SCHEDULE_MINUTES} min (${busyCalls} of ${syncsAnHour} calls settling 10 runs)`,
      `${rest} REST requests (${REST_AN_HOUR - rest} left for other workflows), ${writes} writes, ${points} GraphQL points`,
      `≤ ${REST_AN_HOUR} REST and ≤ ${WRITES_AN_HOUR} writes an hour`,
      rest <= REST_AN_HOUR && writes <= WRITES_AN_HOUR,
    );
    note(
      `GitHub model: every job's GITHUB_TOKEN of one repository draws on its 1,000 REST requests and 1,000 GraphQL points an hour; writes share 80 a minute and 500 an hour. ` +
        `A gate of ${jobsEach} jobs costs ${gate.reads} reads and ${gate.writes} writes (its run context and each job's, pending then final); ` +
        `a sync finding nothing pending costs ${idleSync.requests} request(s) at ${openPulls} open pull requests. ` +
        `The figures are counted by GitHub's stand-in (simulator/github/), the steps run in process on a VirtualClock.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
