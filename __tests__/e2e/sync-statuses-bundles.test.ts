/**
 * sync-statuses through the bundle, against GitHub's stand-in as GitHub answers (issue 39, section 3),
 * one case each: a github-token without `pull-requests: read`; GitHub's rate limit; the service
 * refusing `token`; 150 open pull requests with the oldest gated; an unreachable service; a re-run's
 * verdict posted during the sync's posts. Everything else about them, on the step clock, is in
 * __tests__/runs/sync-statuses.test.ts. One write a second is real time here: each case posts three.
 * The `wait: false` dispatch, the sync's trust rules, GitHub's 401, a 422 and a secondary limit are in
 * no-runner-bundles.test.ts.
 */
import { BUNDLES, type ActionRun } from '../../testkit/runner/step.js';
import { apiRequests, type World } from '../../testkit/world/world.js';
import type { GitHubStandIn } from '../../simulator/index.js';
import { closeGitHubWorld, untilRunEnded, warningTexts } from '../../testkit/world/github-world.js';
import {
  createSyncWorld,
  dispatchAndLeaveStep,
  resetSyncCase,
  SYNC_TOKEN,
  syncStatusesStep,
  type SyncWorld,
  statusBeforeNextPost,
} from '../../testkit/world/status-fixtures.js';

let fixture: SyncWorld;
let world: World;
let github: GitHubStandIn;
let head: string;
beforeAll(async () => {
  fixture = await createSyncWorld(40);
  ({ world, github, head } = fixture);
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetSyncCase(fixture));

const sync = (inputs: Record<string, string> = {}): Promise<ActionRun> =>
  syncStatusesStep(BUNDLES, fixture, inputs);
const errors = (run: ActionRun) =>
  run.annotations.filter(({ kind }) => kind === 'error').map(({ text }) => text);
const runReads = () =>
  apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')).length;
const PENDING = { 'svc/pipeline': 'pending', 'svc/pipeline/build': 'pending', 'svc/pipeline/e2e': 'pending' };

/** A gate that left pending statuses on `head`, its run ended. */
async function gateLeft(): Promise<{ runId: string; runUrl: string }> {
  const left = await dispatchAndLeaveStep(BUNDLES, fixture);
  await untilRunEnded(world, left.outputs['run-id']);
  return { runId: left.outputs['run-id'], runUrl: left.outputs['run-url'] };
}

describe('sync-statuses through the bundle, GitHub answering as it does', () => {
  it('without pull-requests: read: fails naming the permission, outputs set, statuses as they were', async () => {
    await gateLeft();
    github.configure({ tokens: { [SYNC_TOKEN]: { permissions: { statuses: 'write' } } } });
    const run = await sync();
    expect(run.exitCode).toBe(1);
    expect(run.outputs).toEqual({ settled: '0', pending: '0', refused: '0' });
    expect(errors(run)).toEqual([expect.stringContaining('`github-token` needs `pull-requests: read`')]);
    expect(run.stdout).not.toContain('Unexpected error');
    expect(github.states(head)).toEqual(PENDING);
  });

  it('on a rate limit: no wait of an hour, a warning with the reset time, exit 0, statuses pending', async () => {
    await gateLeft();
    github.configure({ limits: { graphql: 0 } });
    const run = await sync();
    expect(run.exitCode).toBe(0);
    expect(warningTexts(run)).toEqual([
      expect.stringMatching(/rate limit for `github-token` is spent .*it resets at /),
    ]);
    expect(github.states(head)).toEqual(PENDING);
  });

  it('the service refuses `token`: the step fails naming token and base-url, every status pending', async () => {
    await gateLeft();
    const before = runReads();
    const run = await sync({ token: 'svc_wrongToken000000000000' });
    expect(run.exitCode).toBe(1);
    expect(runReads() - before).toBe(1);
    expect(errors(run)).toEqual([expect.stringContaining('(`base-url`) refused `token`')]);
    expect(run.outputs).toEqual({ settled: '0', pending: '3', refused: '0' });
    expect(github.states(head)).toEqual(PENDING);
  });

  it('150 open pull requests, the oldest gated: settled within two calls', async () => {
    github.pullRequests = [];
    github.addPullRequest({ number: 1, head, created_at: '2026-10-01T00:00:00Z' });
    for (let number = 2; number <= 150; number++)
      github.addPullRequest({ number, head: number.toString(16).padStart(40, 'b') });
    await gateLeft();
    let run = await sync();
    if (run.outputs.settled === '0') run = await sync();
    expect(run.exitCode).toBe(0);
    expect(github.states(head)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
  });

  it('an unreachable service: two attempts, no more runs read, one warning, every status pending', async () => {
    await gateLeft();
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      kind: 'status',
      status: 503,
      times: 10,
    });
    const before = runReads();
    const run = await sync();
    expect(run.exitCode).toBe(0);
    expect(runReads() - before).toBe(2);
    expect(warningTexts(run)).toEqual([expect.stringContaining('could not be reached')]);
    expect(github.states(head)).toEqual(PENDING);
  });

  it('a re-run’s verdict posted during the sync’s posts ends on top', async () => {
    const { runUrl } = await gateLeft();
    // Its service run 0b0b0b0b-0000-4000-8000-0000000000dd, GitHub run 901 (p1 in base 36), attempt 2.
    const rerunMarker = '[svc:~CwsLCwAAQACAAAAAAAAA3Q/p1.2]';
    // The re-run's step, with the same workflow token, says its verdict just before the sync's post.
    const undo = statusBeforeNextPost(github, {
      context: 'svc/pipeline',
      state: 'success',
      description: `Succeeded ${rerunMarker}`,
      target_url: runUrl,
    });
    try {
      const run = await sync();
      expect(run.exitCode).toBe(0);
    } finally {
      undo();
    }
    expect(github.latest(head, 'svc/pipeline')).toMatchObject({
      state: 'success',
      description: `Succeeded ${rerunMarker}`,
    });
  });
});
