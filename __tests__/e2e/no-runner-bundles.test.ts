/**
 * The gate that holds no runner (issue 34) and the sync's trust rules and refusals (issue 39), through
 * the committed bundles, each step a Node 24 process as the runner starts it, against GitHub's
 * stand-in (issue 42 item 3). The behaviours held here:
 * - the no-runner dispatch: run-workflow with `wait: false` and `commit-statuses: true` reads the run
 *   once, leaves pending statuses on its commit that name the run and link it, and exits; outside a
 *   pull-request event it is refused before any request;
 * - the sync's trust rules: it settles only what it wrote for a run it can read of that commit:
 *   another account's pending status is left alone, a link that is not the run's and a run of another
 *   commit say `error` (never `success`), a run the token cannot read stays pending;
 * - the sync's refusals from GitHub's stand-in: a github-token GitHub refuses (401), a 422 on one
 *   commit that stops none of the others, and a secondary limit on writes (one wait, then no more
 *   posts this call, the rest left pending).
 * The other refusals (no `pull-requests: read`, the rate limit, the service refusing `token`, an
 * unreachable service) are in sync-statuses-bundles.test.ts; everything about them on the step clock
 * in __tests__/runs/sync-statuses.test.ts. One write a second is real time here, so each sync case
 * seeds the pending statuses it needs (as a gate that left writes them) and posts at most four.
 */
import { BUNDLES, type ActionRun } from '../../testkit/runner/step.js';
import { apiRequests, type World } from '../../testkit/world/world.js';
import type { GitHubStandIn, PostedStatus } from '../../simulator/index.js';
import {
  closeGitHubWorld,
  statusWords,
  untilRunEnded,
  warningTexts,
} from '../../testkit/world/github-world.js';
import {
  SYNC_PIPELINE,
  createSyncWorld,
  dispatchAndLeaveStep,
  resetSyncCase,
  syncStatusesStep,
  type SyncWorld,
} from '../../testkit/world/status-fixtures.js';
import { markerOf } from '../../src/github/status-marker.js';

let fixture: SyncWorld;
let world: World;
let github: GitHubStandIn;
/** The head commit (main) of pull request 7, and another commit, on branch `other`. */
let head: string;
let other: string;
beforeAll(async () => {
  fixture = await createSyncWorld(40);
  ({ world, github, head } = fixture);
  other = world.repo.commit({ 'pipeline.yml': SYNC_PIPELINE }, 'Another commit', 'other');
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetSyncCase(fixture));

const sync = (inputs: Record<string, string> = {}): Promise<ActionRun> =>
  syncStatusesStep(BUNDLES, fixture, inputs);
const runReads = () =>
  apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')).length;

/** A run of `gitRef` dispatched without statuses, ended: what a seeded status can name. */
async function endedRun(gitRef = 'main'): Promise<{ runId: string; runUrl: string }> {
  const dispatched = await BUNDLES.runStep('run-workflow', {
    inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': gitRef, wait: 'false' },
  });
  expect(dispatched.exitCode).toBe(0);
  await untilRunEnded(world, dispatched.outputs['run-id']);
  return { runId: dispatched.outputs['run-id'], runUrl: dispatched.outputs['run-url'] };
}

/** This action's marker for service run `runId`, posted from GitHub run 901, attempt 1. */
const markerOfRun = (runId: string) =>
  markerOf({ serviceRunId: runId, githubRunId: '901', githubAttempt: '1' });

/** A pending status that names `runId` with this action's marker, as a gate that left posts it. */
function seed(status: Partial<PostedStatus> & { context: string; runId: string }): void {
  github.statuses.push({
    sha: status.sha ?? head,
    context: status.context,
    state: 'pending',
    description: `Dispatched; sync-statuses settles it ${markerOfRun(status.runId)}`,
    target_url: status.target_url,
    creator: status.creator,
  });
}

describe('the no-runner dispatch: wait: false, commit-statuses: true', () => {
  it('reads the run once, posts pending on its commit naming and linking the run, and exits; on a push, refused before any request', async () => {
    world.sim.setJobBehaviour('build', { durationMs: 60_000 });
    const [run, push] = await Promise.all([
      dispatchAndLeaveStep(BUNDLES, fixture),
      dispatchAndLeaveStep(BUNDLES, fixture, {}, 'push'),
    ]);
    expect(push.exitCode).toBe(1);
    expect(push.errors).toEqual([
      expect.stringContaining(
        '`commit-statuses: true` with `wait: false` needs a `pull_request`, `pull_request_target` or `merge_group` event',
      ),
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('dispatched');
    const runId = run.outputs['run-id'];
    // One dispatch (the push's step made none) and one read of the run, nothing more.
    expect(apiRequests(world.sim).filter((request) => request.startsWith('POST '))).toHaveLength(1);
    expect(runReads()).toBe(1);
    expect(Object.keys(github.states(head)).sort()).toEqual([
      'svc/pipeline',
      'svc/pipeline/build',
      'svc/pipeline/e2e',
    ]);
    for (const status of github.statuses) {
      expect(status).toMatchObject({ sha: head, state: 'pending' });
      expect(statusWords(status.description)).toMatch(/; sync-statuses settles it$/);
      expect(status.description?.endsWith(` ${markerOfRun(runId)}`)).toBe(true);
    }
    expect(statusWords(github.latest(head, 'svc/pipeline')?.description)).toBe(
      'Dispatched; sync-statuses settles it',
    );
    expect(github.latest(head, 'svc/pipeline')?.target_url).toBe(run.outputs['run-url']);
    expect(run.stdout).toContain('sync-statuses settles its commit statuses');
    world.sim.cancelRun(runId);
  });
});

describe("the sync's trust rules: nothing trusted that it did not write", () => {
  it("another account's pending status: left alone; a link not the run's, a run of another commit: error, never success; a run it cannot read: pending", async () => {
    const { runId, runUrl } = await endedRun();
    const elsewhere = await endedRun('other');
    seed({ context: 'svc/forged', runId, target_url: runUrl, creator: { login: 'mallory' } });
    seed({ context: 'svc/linked', runId, target_url: 'https://evil.example/run' });
    seed({ context: 'svc/elsewhere', runId: elsewhere.runId, target_url: elsewhere.runUrl });
    seed({ context: 'svc/unknown', runId: '0b0b0b0b-0000-4000-8000-0000000000aa' });
    const run = await sync();
    expect(run.exitCode).toBe(0);
    expect(github.states(head)).toEqual({
      'svc/forged': 'pending',
      'svc/linked': 'error',
      'svc/elsewhere': 'error',
      'svc/unknown': 'pending',
    });
    expect(github.latest(head, 'svc/forged')?.creator).toEqual({ login: 'mallory' });
    expect(statusWords(github.latest(head, 'svc/linked')?.description)).toBe(
      "Not trusted: its link is not the run's own page",
    );
    expect(statusWords(github.latest(head, 'svc/elsewhere')?.description)).toBe(
      `Not trusted: the run is of commit ${other}, not this one`,
    );
    expect(run.outputs).toEqual({ settled: '0', pending: '1', refused: '3' });
    expect(warningTexts(run)).toEqual([
      "Pending statuses with this action's marker posted by mallory were left alone: sync-statuses settles only those of `github-token`'s account (github-actions[bot]).",
    ]);
  });
});

describe("the sync's refusals, as GitHub's stand-in answers", () => {
  it('a github-token GitHub refuses (401): an error naming github-token, nothing posted', async () => {
    const { runId, runUrl } = await endedRun();
    seed({ context: 'svc/own', runId, target_url: runUrl });
    github.configure({ unknownTokens: 'refuse' });
    const run = await sync({ 'github-token': 'ghs_notAToken000000000' });
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([expect.stringContaining('GitHub refused `github-token` (401')]);
    expect(run.outputs.settled).toBe('0');
    expect(run.stdout).not.toContain('Unexpected error');
    expect(github.states(head)).toEqual({ 'svc/own': 'pending' });
  });

  it('a 422 on one commit stops none of the others: that one stays pending, the other is settled', async () => {
    github.addPullRequest({ number: 8, head: other });
    const onHead = await endedRun();
    const onOther = await endedRun('other');
    seed({ context: 'svc/own', runId: onHead.runId, target_url: onHead.runUrl });
    seed({ context: 'svc/own', sha: other, runId: onOther.runId, target_url: onOther.runUrl });
    github.nextStatusAnswers = [{ status: 422, message: 'Validation Failed' }];
    const run = await sync();
    expect(run.exitCode).toBe(0);
    // Whichever commit came first got the 422: its status stays pending, the other's is settled.
    const states = [github.states(head)['svc/own'], github.states(other)['svc/own']].sort();
    expect(states).toEqual(['pending', 'success']);
    expect(run.outputs).toEqual({ settled: '3', pending: '3', refused: '0' });
    expect(run.summary).toContain('GitHub refused the post');
    expect(run.stdout).not.toContain('Unexpected error');
  });

  it('a secondary limit on writes: one wait as retry-after says, then no more posts this call; the rest stay pending', async () => {
    const { runId, runUrl } = await endedRun();
    seed({ context: 'svc/own', runId, target_url: runUrl });
    const limit = {
      headers: { 'retry-after': '1' },
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    };
    github.nextStatusAnswers = [
      { status: 403, ...limit },
      { status: 429, ...limit },
    ];
    const run = await sync();
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('statuses: write');
    expect(warningTexts(run)).toEqual([
      expect.stringMatching(
        /^GitHub's secondary rate limit was reached \(429; try again after 20\d\d-.*Z\): sync-statuses stopped its GitHub requests for this call/,
      ),
    ]);
    // The first post refused twice (retried once), no other tried: every status as it was.
    expect(
      github.requests.filter((request) => request.method === 'POST' && request.path.includes('/statuses/')),
    ).toHaveLength(2);
    expect(github.states(head)).toEqual({ 'svc/own': 'pending' });
    expect(run.outputs).toEqual({ settled: '0', pending: '3', refused: '0' });
  });
});
