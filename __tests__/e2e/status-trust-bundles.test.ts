/**
 * What the pull request shows can be trusted (issue 30), through the committed bundles, each step a
 * Node 24 process as the runner starts it, against GitHub's stand-in (issue 42 item 3). The behaviours
 * held here:
 * - the statuses' trust cases: a status says `success` only for the step's own verdict on a run of
 *   that exact commit: wait-for-run refuses a run of another commit and sets no state anywhere; a run
 *   that names no whole commit sets none; the comment's ✅ only for the commit under review; a job key
 *   that echoes the step's token (registered as a secret by the bundle's own process) never becomes a
 *   context;
 * - the shared-context guard: two steps of one GitHub run (one after the other, each a process of its
 *   own) never share a context silently: the second says `error` and names status-context; a later
 *   attempt of the same GitHub run replaces its statuses without a word, another GitHub run replaces
 *   them with a warning naming both;
 * - the dry run writes nothing: no GitHub request and no service write, whatever its outcome, a
 *   failing dry run with `comment: true` included.
 * Everything else about them, on the step clock, is in __tests__/runs/status-trust.test.ts and
 * __tests__/github/comment-legs.test.ts; two legs at the same time, in __tests__/e2e/runs-bundles.test.ts.
 * One write a second is real time here: the gates that post use a one-job workflow (two contexts).
 */
import { BUNDLES, type ActionRun } from '../../testkit/runner/step.js';
import {
  apiRequests,
  followRunStep,
  mutateRunReads,
  serviceRequests,
  type World,
} from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';
import type { GitHubStandIn } from '../../simulator/index.js';
import {
  closeGitHubWorld,
  resetStatusesWorld,
  statusWords,
  untilRunEnded,
  warningTexts,
} from '../../testkit/world/github-world.js';
import {
  STATUSES_TOKEN,
  TRUST_GITHUB_RUN,
  createTrustWorld,
  trustEnv,
  trustGate,
  type TrustWorld,
} from '../../testkit/world/status-fixtures.js';

let fixture: TrustWorld;
let world: World;
let github: GitHubStandIn;
/** The pull request's head commit (main), another commit on branch `release`, one on branch `one`. */
let head: string;
let release: string;
let one: string;
beforeAll(async () => {
  fixture = await createTrustWorld(40);
  ({ world, github, head, release } = fixture);
  // A one-job workflow on a branch of its own (main stays the pull request's head): two contexts, so
  // that a gate's posts take a few seconds of real time, not eight.
  one = world.repo.commit({ 'one.yml': workflow('One', { build: { type: 'build' } }) }, 'One job', 'one');
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => {
  world.sim.clearFaults();
  resetStatusesWorld(fixture);
});

const gate = (inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> =>
  trustGate(BUNDLES, fixture, inputs, { env });
/** A gate on the one-job workflow, its statuses on commit `one`. */
const oneJobGate = (env: Record<string, string> = {}): Promise<ActionRun> =>
  gate({ workflow: 'one.yml', 'git-ref': 'one' }, env);
/** Writes the service received: what a dry run never makes. */
const serviceWrites = () => serviceRequests(world.sim).filter((request) => request.method !== 'GET');

describe("the statuses' trust: success only for the step's own verdict on that exact commit's run", () => {
  it('wait-for-run refuses a run of another commit: no state is set anywhere, nothing reaches GitHub', async () => {
    const dispatched = await BUNDLES.runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'release', wait: 'false' },
    });
    await untilRunEnded(world, dispatched.outputs['run-id']);
    const followed = await followRunStep(
      BUNDLES,
      world,
      dispatched.outputs['run-id'],
      {
        'commit-statuses': 'true',
        'status-context': 'svc/gate',
        'expected-commit': head,
        'github-token': STATUSES_TOKEN,
      },
      { env: trustEnv(fixture) },
    );
    expect(followed.exitCode).toBe(1);
    expect(followed.errors.join('\n')).toContain(
      `is a run of commit ${release}, not of the expected commit ${head}`,
    );
    expect(github.statuses).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it('a run that names no whole commit: no state is set, and a warning says why', async () => {
    mutateRunReads(world, (run) => (run.gitCommitHash = 'abc1234'));
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    expect(github.statuses).toEqual([]);
    expect(warningTexts(run)).toEqual([
      expect.stringContaining(
        'the run does not name its commit as a whole SHA (`gitCommitHash`), so no commit status is posted',
      ),
    ]);
  });

  it('the comment: ✅ only for a run of the commit under review; a run of another commit says which commit it tested', async () => {
    const run = await gate({ 'commit-statuses': 'false', comment: 'true', 'git-ref': 'release' });
    expect(run.exitCode).toBe(0);
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0].body;
    const heading = body.split('\n')[1];
    expect(heading).not.toContain('✅');
    expect(heading).toContain(
      `the run succeeded on commit \`${release.slice(0, 12)}\`, which is not the commit under review (\`${head.slice(0, 12)}\`)`,
    );
    expect(github.statuses).toEqual([]);
  });

  it("a job key that echoes the step's token never becomes a context; the other contexts are posted", async () => {
    mutateRunReads(world, ({ jobs }) => {
      if (jobs[0])
        jobs.push({ ...jobs[0], id: '0c0c0c0c-0000-4000-8000-00000000000c', key: `leak-${world.token}` });
    });
    const run = await oneJobGate();
    expect(run.exitCode).toBe(0);
    expect(github.states(one)).toEqual({ 'svc/one': 'success', 'svc/one/build': 'success' });
    for (const request of github.requests) expect(JSON.stringify(request)).not.toContain(world.token);
  });
});

describe('the shared-context guard: two steps never share a status context silently', () => {
  it('a second step of the same GitHub run and attempt (another matrix leg, one after the other): error naming status-context, one warning', async () => {
    const first = await oneJobGate();
    expect(first.exitCode).toBe(0);
    expect(github.states(one)).toEqual({ 'svc/one': 'success', 'svc/one/build': 'success' });
    const second = await oneJobGate();
    // The gate's own result stands; what GitHub shows says the context is shared.
    expect(second.exitCode).toBe(0);
    expect(second.outputs['run-id']).not.toBe(first.outputs['run-id']);
    for (const context of ['svc/one', 'svc/one/build']) {
      expect(github.latest(one, context)?.state).toBe('error');
      expect(statusWords(github.latest(one, context)?.description)).toContain('set status-context per step');
    }
    const said = warningTexts(second);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('Give each step its own `status-context`');
  });

  it('a later attempt of the same GitHub run replaces the statuses without a word; another GitHub run, with a warning naming both', async () => {
    const first = await oneJobGate();
    expect(first.exitCode).toBe(0);
    const rerun = await oneJobGate({ GITHUB_RUN_ATTEMPT: '2' });
    expect(rerun.exitCode).toBe(0);
    expect(github.states(one)).toEqual({ 'svc/one': 'success', 'svc/one/build': 'success' });
    expect(warningTexts(rerun)).toEqual([]);
    const other = await oneJobGate({ GITHUB_RUN_ID: '778' });
    expect(other.exitCode).toBe(0);
    expect(github.states(one)).toEqual({ 'svc/one': 'success', 'svc/one/build': 'success' });
    expect(warningTexts(other)).toEqual([
      expect.stringContaining(
        `was also posted by GitHub run ${TRUST_GITHUB_RUN} (service run ${rerun.outputs['run-id']}); this step's (GitHub run 778, service run ${other.outputs['run-id']}) replaces it`,
      ),
    ]);
  });
});

describe('the dry run writes nothing, whatever its outcome', () => {
  it('passing, and failing with comment: true: no GitHub request, no service write, no run', async () => {
    const [passing, failing] = await Promise.all([
      gate({ 'dry-run': 'true', comment: 'true' }),
      gate({ 'dry-run': 'true', comment: 'true', token: 'svc_robot_revoked000000000000000' }),
    ]);
    expect(passing.exitCode).toBe(0);
    expect(passing.outputs.outcome).toBe('dry-run');
    expect(passing.stdout).toContain(
      'nothing was written to GitHub (no commit status, no pull request comment)',
    );
    expect(failing.exitCode).toBe(1);
    expect(failing.outputs.outcome).toBe('failure');
    expect(failing.errors).toEqual([expect.stringContaining('Dry run: the service at ')]);
    for (const run of [passing, failing])
      expect(run.stdout).toContain('Dry run: no pull request comment was posted.');
    expect(github.requests).toEqual([]);
    expect(serviceWrites()).toEqual([]);
    expect(apiRequests(world.sim).length).toBeGreaterThan(0);
    expect(world.sim.runs()).toEqual([]);
  });
});
