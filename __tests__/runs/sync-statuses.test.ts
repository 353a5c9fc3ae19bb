/**
 * A gate that holds no runner (issue 34), each step run in process from the sources against GitHub's
 * stand-in (the simulator's) that lists pull requests and their statuses: `run-workflow` with `wait:
 * false` and `commit-statuses` leaves pending statuses on the run's commit and exits; `sync-statuses`
 * settles them later by one read of each run, trusting nothing it did not write (another account, a
 * link that is not the run, a run the token cannot read, a run of another commit), acting on the
 * latest status of each context only. Through the bundles, in __tests__/e2e/runs-bundles.test.ts: a
 * run still going stays pending and is settled once it has ended, and a failed run, where two syncs
 * run at once (two processes) and end alike.
 */
import { IN_PROCESS, runStep, type ActionRun } from '../../testkit/runner/in-process.js';
import { apiRequests, type World } from '../../testkit/world/world.js';
import type { GitHubStandIn, PostedStatus } from '../../simulator/index.js';
import { closeGitHubWorld, statusWords, untilRunEnded } from '../../testkit/world/github-world.js';
import {
  SYNC_PIPELINE as PIPELINE,
  createSyncWorld,
  dispatchAndLeaveStep,
  resetSyncWorld,
  syncStatusesStep,
  type SyncWorld,
} from '../../testkit/world/status-fixtures.js';

let fixture: SyncWorld;
let world: World;
let github: GitHubStandIn;
let head: string;
let other: string;
beforeAll(async () => {
  fixture = await createSyncWorld(10);
  ({ world, github, head } = fixture);
  other = world.repo.commit({ 'pipeline.yml': PIPELINE }, 'Another commit', 'other');
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetSyncWorld(fixture));

/** The gate that leaves: dispatch, one read, pending statuses, exit. */
function dispatchAndLeave(inputs: Record<string, string> = {}, event = 'pull_request'): Promise<ActionRun> {
  return dispatchAndLeaveStep(IN_PROCESS, fixture, inputs, event);
}

function sync(inputs: Record<string, string> = {}): Promise<ActionRun> {
  return syncStatusesStep(IN_PROCESS, fixture, inputs);
}

const words = (status: PostedStatus | undefined) => statusWords(status?.description);
const runEnded = (runId: string) => untilRunEnded(world, runId);

describe('run-workflow, wait: false, commit-statuses: true', () => {
  it('reads the run once, posts pending on its commit with the run id and link, and exits', async () => {
    world.sim.setJobBehaviour('build', { durationMs: 60_000 });
    const run = await dispatchAndLeave();
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('dispatched');
    const runId = run.outputs['run-id'];
    // One dispatch and one read of the run, nothing more.
    expect(
      apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')),
    ).toHaveLength(1);
    const latest = github.latest(head, 'svc/pipeline');
    expect(latest).toMatchObject({ state: 'pending', target_url: run.outputs['run-url'] });
    expect(latest?.description).toBe(`Dispatched; sync-statuses settles it [svc:${runId} gh:901/1]`);
    for (const status of github.statuses) {
      expect(status.state).toBe('pending');
      expect(status.description).toContain('sync-statuses settles it');
    }
    expect(run.stdout).toContain('sync-statuses settles its commit statuses');
    world.sim.cancelRun(runId);
  });

  it('outside a pull-request event, and with jobs or on-action-required: fail, is refused before any request', async () => {
    const push = await dispatchAndLeave({}, 'push');
    expect(push.exitCode).toBe(1);
    expect(push.stdout).toContain(
      '`commit-statuses: true` with `wait: false` needs a `pull_request` or `pull_request_target` event',
    );
    const jobs = await dispatchAndLeave({ jobs: 'build' });
    expect(jobs.exitCode).toBe(1);
    expect(jobs.stdout).toContain('`jobs` has no effect with `wait: false`');
    expect(apiRequests(world.sim)).toEqual([]);
    expect(github.requests).toEqual([]);
  });
});

describe('sync-statuses', () => {
  it('max-runs bounds the runs read: the rest stay pending, one warning says so', async () => {
    const first = await dispatchAndLeave({ 'status-context': 'svc/one' });
    const second = await dispatchAndLeave({ 'status-context': 'svc/two' });
    await runEnded(first.outputs['run-id']);
    await runEnded(second.outputs['run-id']);
    const reads = () =>
      apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')).length;
    const before = reads();
    const run = await sync({ 'max-runs': '1' });
    expect(reads() - before).toBe(1);
    expect(Number(run.outputs.settled)).toBeGreaterThan(0);
    expect(Number(run.outputs.pending)).toBeGreaterThan(0);
    const warnings = run.annotations.filter(({ kind }) => kind === 'warning').map(({ text }) => text);
    expect(warnings).toEqual([
      'Left for the next sync-statuses: max-runs (1) reached: runs not read this time.',
    ]);
    const next = await sync({ 'max-runs': '1' });
    expect(next.outputs.pending).toBe('0');
    expect(Object.values(github.states(head)).every((state) => state === 'success')).toBe(true);
  });

  describe('nothing trusted that it did not write', () => {
    /** A pending status on `sha` that names `runId`, as seeded by a test. */
    const seed = (status: Partial<PostedStatus> & { context: string; runId: string; sha?: string }) =>
      github.statuses.push({
        sha: status.sha ?? head,
        context: status.context,
        state: 'pending',
        description: `Running [svc:${status.runId} gh:900/1]`,
        target_url: status.target_url,
        creator: status.creator,
      });

    it('another account’s pending status: left alone; a link that is not the run’s: error, never success', async () => {
      const left = await dispatchAndLeave({ 'status-context': 'svc/gate' });
      const runId = left.outputs['run-id'];
      await runEnded(runId);
      seed({
        context: 'svc/forged',
        runId,
        target_url: left.outputs['run-url'],
        creator: { login: 'mallory' },
      });
      seed({ context: 'svc/linked', runId, target_url: 'https://evil.example/run' });
      const run = await sync();
      expect(run.outputs.refused).toBe('2');
      expect(github.latest(head, 'svc/forged')).toMatchObject({
        state: 'pending',
        creator: { login: 'mallory' },
      });
      expect(github.latest(head, 'svc/linked')?.state).toBe('error');
      expect(words(github.latest(head, 'svc/linked'))).toBe(
        "Not trusted: its link is not the run's own page",
      );
      expect(github.latest(head, 'svc/gate')?.state).toBe('success');
      expect(run.summary).toContain('**Refused**');
      expect(run.summary).toContain('posted by mallory');
    });

    it('a run the token cannot read, and a run of another commit: error, never success', async () => {
      seed({
        context: 'svc/unknown',
        runId: '0b0b0b0b-0000-4000-8000-0000000000aa',
        target_url: 'https://svc.example/x',
      });
      const elsewhere = await runStep('run-workflow', {
        inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'other', wait: 'false' },
      });
      await runEnded(elsewhere.outputs['run-id']);
      seed({
        context: 'svc/elsewhere',
        runId: elsewhere.outputs['run-id'],
        target_url: elsewhere.outputs['run-url'],
      });
      const run = await sync();
      expect(run.outputs).toMatchObject({ settled: '0', refused: '2' });
      expect(github.latest(head, 'svc/unknown')?.state).toBe('error');
      expect(words(github.latest(head, 'svc/unknown'))).toBe(
        'Not trusted: the run cannot be read with this token (404)',
      );
      expect(github.latest(head, 'svc/elsewhere')?.state).toBe('error');
      expect(words(github.latest(head, 'svc/elsewhere'))).toBe(
        `Not trusted: the run is of commit ${other}, not this one`,
      );
    });

    it('only the latest status of a context: an older attempt’s pending under a newer verdict is not settled', async () => {
      const left = await dispatchAndLeave();
      await runEnded(left.outputs['run-id']);
      // A later attempt's step already said failure on the run's context.
      github.statuses.push({
        sha: head,
        context: 'svc/pipeline',
        state: 'failure',
        description: 'Failed [svc:0b0b0b0b-0000-4000-8000-0000000000bb gh:901/2]',
      });
      await sync();
      expect(github.latest(head, 'svc/pipeline')?.state).toBe('failure');
    });

    it('`commit` settles that one commit, without listing pull requests', async () => {
      const left = await dispatchAndLeave();
      await runEnded(left.outputs['run-id']);
      github.pullRequests = [];
      const run = await sync({ commit: head });
      expect(run.exitCode).toBe(0);
      expect(github.states(head)['svc/pipeline']).toBe('success');
      expect(github.requests.some((request) => request.path.includes('/pulls'))).toBe(false);
    });
  });
});
