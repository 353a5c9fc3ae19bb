/**
 * The bounds a step keeps whatever the service answers, through the committed bundles, each step a
 * Node 24 process as the runner starts it (issue 42 item 3). The behaviours held here:
 * - the bounded posts: a 5-job run whose jobs flap between queued and running on every read is
 *   posted at most one write a second (real time in the bundle, where the step clock is the
 *   machine's), counted by GitHub's stand-in, and every context still ends as its job ended;
 * - the bounded outputs: jobs whose outputs are huge are left out of the outputs of jobs, which stay
 *   under 512 KiB together, a prefix of the jobs in pipeline order, and one warning says how many were
 *   left out. (Many jobs, 50,000 of them, are in __tests__/e2e/security/runs-bundles.test.ts.)
 * Their cases on the step clock are in __tests__/runs/status-trust.test.ts (100 flapping jobs),
 * __tests__/github/status-limits.test.ts and __tests__/security/huge-runs.test.ts. No assertion here
 * can fail on a busy machine: the bound of writes grows with the step's duration as measured around it.
 */
import { BUNDLES, type ActionRun } from '../../testkit/runner/step.js';
import { createWorld, mutateRunReads, until, type World } from '../../testkit/world/world.js';
import { ONE_BUILD, workflow } from '../../testkit/docs/workflows.js';
import type { GitHubStandIn } from '../../simulator/index.js';
import {
  closeGitHubWorld,
  resetStatusesWorld,
  statusSequences,
  warningTexts,
} from '../../testkit/world/github-world.js';
import { createTrustWorld, trustGate, type TrustWorld } from '../../testkit/world/status-fixtures.js';
import { jobOutputsBytes } from '../../testkit/world/huge-fixtures.js';

describe('the bounded posts: a 5-job run whose jobs flap on every read', () => {
  let fixture: TrustWorld;
  let world: World;
  let github: GitHubStandIn;
  beforeAll(async () => {
    fixture = await createTrustWorld(40);
    ({ world, github } = fixture);
  });
  afterAll(() => closeGitHubWorld(fixture));
  beforeEach(() => resetStatusesWorld(fixture));

  it('at most one write a second, as GitHub counted them; every context ends in success', async () => {
    const keys = Array.from({ length: 5 }, (_, i) => `job_${i}`);
    const flap = world.repo.commit(
      { 'flap.yml': workflow('Flap', Object.fromEntries(keys.map((key) => [key, {}]))) },
      'Flapping jobs',
      'flap',
    );
    // The jobs run until the test ends them: once the step has read them flapping 40 times.
    for (const key of keys) world.sim.setJobBehaviour(key, { durationMs: 600_000 });
    let reads = 0;
    mutateRunReads(world, (run) => {
      reads++;
      if (run.status !== 'success')
        for (const job of run.jobs) job.status = reads % 2 ? 'new' : 'in-progress';
    });
    const pending = trustGate(BUNDLES, fixture, { workflow: 'flap.yml', 'git-ref': 'flap' });
    await until(() => reads > 40, 60_000);
    const [flapping] = world.sim.runs();
    for (const key of keys) world.sim.finishJob(flapping.id, key);
    const run: ActionRun = await pending;
    world.sim.clearFaults();
    expect(run.exitCode).toBe(0);

    // What GitHub counted: the status posts, all of them writes of this repository.
    const writes = github.counts().reduce((sum, row) => sum + row.restWrites, 0);
    expect(writes).toBe(github.statuses.length);
    // Each write waits a second after the answer to the one before, so the writes fit in the step's
    // duration (measured from its start to its end, longer on a busy machine, never shorter) at one a
    // second, with a margin of two; without the bound, each of the 40 flapping reads could post 5 changes.
    expect(writes).toBeLessThanOrEqual(Math.floor(run.durationMs / 1000) + 2);
    // As GitHub received them (its clock is real time here, as the bundle's step clock is): a second
    // apart at least, less what Node's timers may round (libuv's cached loop time), whatever the load.
    const received = github.statuses.map((status) => status.receivedAt!);
    expect(Math.min(...received.slice(1).map((at, i) => at - received[i]))).toBeGreaterThanOrEqual(990);
    // Every context posted, each ending as its job ended (the run's context included).
    const sequences = statusSequences(github);
    expect(Object.keys(sequences).sort()).toEqual(['svc/flap', ...keys.map((key) => `svc/flap/${key}`)]);
    expect(github.states(flap)).toEqual(
      Object.fromEntries(Object.keys(sequences).map((context) => [context, 'success'])),
    );
  });
});

describe('the bounded outputs: jobs whose outputs are huge', () => {
  const KIB = 1024;
  let world: World;
  beforeAll(async () => {
    world = await createWorld(
      {
        'e2e.yml': ONE_BUILD,
        'three.yml': workflow('Three', { a: {}, b: { needs: ['a'] }, c: { needs: ['b'] } }),
      },
      { defaultJobDurationMs: 10 },
    );
  });
  afterAll(() => world.sim.close());

  it('each job 200 KiB of outputs: the outputs of jobs hold the first job in pipeline order, under 512 KiB, one warning says two were left out', async () => {
    mutateRunReads(world, ({ jobs }) => {
      for (const job of jobs) job.outputs = { blob: `${String(job.key)}:${'x'.repeat(200 * KIB)}` };
    });
    const run = await BUNDLES.runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'three.yml', 'git-ref': 'main', 'poll-interval-seconds': '0.05' },
    });
    world.sim.clearFaults();
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('success');
    // A job's outputs count twice (in `jobs` and in `job-outputs`): one job of 200 KiB fits, two do not.
    expect(jobOutputsBytes(run)).toBeLessThanOrEqual(512 * KIB);
    expect(jobOutputsBytes(run)).toBeGreaterThan(400 * KIB);
    const jobs = JSON.parse(run.outputs.jobs) as Array<{ key: string }>;
    expect(jobs.map((job) => job.key)).toEqual(['a']);
    expect(Object.keys(JSON.parse(run.outputs['job-outputs']) as object)).toEqual(['a']);
    const [run_] = world.sim.runs();
    expect(warningTexts(run)).toEqual([
      `The run has 3 jobs; the \`jobs\`, \`job-outputs\`, \`build-ids\`, \`submission-ids\` and \`failed-jobs\` outputs hold the first 1 in pipeline order (the followed jobs first) and leave out 2, so that these outputs stay under 512 KiB together (GitHub keeps at most 1 MB of outputs per job). The run's page lists every job: ${run_.url}.`,
    ]);
  });
});
