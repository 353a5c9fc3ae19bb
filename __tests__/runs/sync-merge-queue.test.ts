/**
 * sync-statuses settles the merge queue's commits (issue 40 item 2), each step run in process from
 * the sources against GitHub's stand-in: a `merge_group` gate that did not wait leaves its statuses
 * pending on the queue's commit; the sync finds that commit as the head commit of the pull request's
 * merge-queue entry, in the same GraphQL query as the heads (no read beyond the listing), and settles
 * it. An entry whose commit is not built yet, or a pull request that left the queue, is skipped
 * without an error. The sync is refused on `merge_group` itself. Through the bundles, in
 * __tests__/e2e/merge-queue-bundles.test.ts.
 */
import { IN_PROCESS, type ActionRun } from '../../testkit/runner/in-process.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { apiRequests } from '../../testkit/world/world.js';
import { closeGitHubWorld, untilRunEnded, warningTexts } from '../../testkit/world/github-world.js';
import {
  QUEUED_PR,
  createQueueWorld,
  resetQueueWorld,
  mergeGroupEnv,
  queueGate,
  queueSync,
  type QueueWorld,
} from '../../testkit/world/queue-fixtures.js';

let fixture: QueueWorld;
beforeAll(async () => {
  fixture = await createQueueWorld(10);
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => {
  fixture.github.reset();
  resetQueueWorld(fixture);
});

/** The gate on merge_group that leaves: pending on the queue's commit, once its run has ended. */
async function leftInQueue(): Promise<ActionRun> {
  const left = await queueGate(IN_PROCESS, fixture, { wait: 'false' });
  expect(left.outputs.outcome).toBe('dispatched');
  await untilRunEnded(fixture.world, left.outputs['run-id']);
  return left;
}

/** sync-statuses on a schedule, on a step clock an hour on (the stand-in's minute of writes follows it). */
function sync(inputs: Record<string, string> = {}, env: Record<string, string> = {}): Promise<ActionRun> {
  const clock = new VirtualClock(Date.now() + 3_600_000);
  fixture.github.configure({ now: () => clock.now() });
  return queueSync(IN_PROCESS, fixture, inputs, env, clock);
}

const graphqlQueries = () => fixture.github.requests.filter((request) => request.path === '/graphql').length;

describe('sync-statuses and the merge queue', () => {
  it("settles a queue entry's statuses on its commit, found in the one query that lists the heads", async () => {
    const { github, queue, head } = fixture;
    await leftInQueue();
    github.requests.length = 0;
    const run = await sync();
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({ settled: '3', pending: '0', refused: '0' });
    expect(github.states(queue)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
    expect(github.states(head)).toEqual({});
    // One GraphQL query for the pull requests and their queue entries; then only the posts and one read-back.
    expect(graphqlQueries()).toBe(1);
    expect(github.requests.filter((request) => request.path !== '/graphql').map((r) => r.method)).toEqual([
      'POST',
      'POST',
      'POST',
      'GET',
    ]);
    expect(run.stdout).toContain(`Settled \`svc/pipeline\` on ${queue}: success`);
  });

  it('an entry whose commit is not built yet, and a pull request that left the queue: skipped, no error', async () => {
    const { github, queue } = fixture;
    await leftInQueue();
    // Queued, its commit not built yet: GraphQL's headCommit is null.
    github.addPullRequest({ number: QUEUED_PR, head: fixture.head, queue: { head: '' } });
    const unbuilt = await sync();
    expect(unbuilt.exitCode).toBe(0);
    expect(unbuilt.outputs).toEqual({ settled: '0', pending: '0', refused: '0' });
    expect(warningTexts(unbuilt)).toEqual([]);
    // Left the queue (removed, or merged): its commit is no longer looked at.
    github.addPullRequest({ number: QUEUED_PR, head: fixture.head });
    const left = await sync();
    expect(left.exitCode).toBe(0);
    expect(left.outputs).toEqual({ settled: '0', pending: '0', refused: '0' });
    expect(warningTexts(left)).toEqual([]);
    expect(Object.values(github.states(queue)).every((state) => state === 'pending')).toBe(true);
  });

  it('is refused on merge_group itself, before any request, saying it finds the queue commits itself', async () => {
    const { world, github } = fixture;
    const run = await sync(
      {},
      { GITHUB_EVENT_NAME: 'merge_group', GITHUB_EVENT_PATH: mergeGroupEnv(fixture).GITHUB_EVENT_PATH },
    );
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([
      expect.stringContaining(
        "sync-statuses is not run on `merge_group`: it finds the merge queue's commits itself",
      ),
    ]);
    expect(apiRequests(world.sim)).toEqual([]);
    expect(github.requests).toEqual([]);
  });
});
