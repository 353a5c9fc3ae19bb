/**
 * The merge queue through the committed bundles (issue 40's "Done when"): a `merge_group` gate,
 * waiting and not waiting, posts on the queue's commit (`merge_group.head_sha`), never on the pull
 * request's head, under the contexts the pull request's gate posts; a sync settles a queue entry's
 * statuses, finding the entry with no read beyond its listing of the open pull requests. Their
 * behaviour is tested in process in __tests__/runs/merge-group.test.ts and sync-merge-queue.test.ts.
 */
import { BUNDLES } from '../../testkit/runner/step.js';
import { closeGitHubWorld, statusWords, untilRunEnded } from '../../testkit/world/github-world.js';
import {
  QUEUED_PR,
  createQueueWorld,
  resetQueueWorld,
  queueGate,
  queueSync,
  type QueueWorld,
} from '../../testkit/world/queue-fixtures.js';

let fixture: QueueWorld;
beforeAll(async () => {
  fixture = await createQueueWorld(40);
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetQueueWorld(fixture));

describe('a merge_group gate through the bundles', () => {
  it("waiting: dispatches on the queue's commit and ends every context there in success", async () => {
    const { github, queue, head } = fixture;
    const run = await queueGate(BUNDLES, fixture);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ outcome: 'success', 'git-commit-hash': queue });
    expect(new Set(github.statuses.map((status) => status.sha))).toEqual(new Set([queue]));
    expect(github.states(queue)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
    expect(github.states(head)).toEqual({});
    expect(run.summary).toContain(
      `**Merge queue**: Commit \`${queue}\` was built by the merge queue of \`main\` to test the entry of pull request \\#&#8203;${QUEUED_PR}`,
    );
  });

  it("not waiting (wait: false): accepted, every context pending on the queue's commit for sync-statuses", async () => {
    const { github, queue } = fixture;
    const run = await queueGate(BUNDLES, fixture, { wait: 'false' });
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('dispatched');
    expect(github.statuses.length).toBeGreaterThan(0);
    for (const status of github.statuses) expect(status).toMatchObject({ sha: queue, state: 'pending' });
    expect(statusWords(github.latest(queue, 'svc/pipeline')?.description)).toBe(
      'Dispatched; sync-statuses settles it',
    );
    fixture.world.sim.cancelRun(run.outputs['run-id']);
  });

  it("a sync settles the queue entry's statuses, found in the listing's one GraphQL query", async () => {
    const { github, queue } = fixture;
    const left = await queueGate(BUNDLES, fixture, { wait: 'false' });
    await untilRunEnded(fixture.world, left.outputs['run-id']);
    github.requests.length = 0;
    const run = await queueSync(BUNDLES, fixture);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ pending: '0', refused: '0' });
    expect(github.states(queue)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
    // The listing (one GraphQL query), then the posts and one read-back: no read of the queue itself.
    expect(github.requests.filter((request) => request.path === '/graphql')).toHaveLength(1);
    expect(
      github.requests.filter((request) => request.path !== '/graphql' && request.method === 'GET'),
    ).toHaveLength(1);
  });
});
