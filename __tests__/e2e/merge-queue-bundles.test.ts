/**
 * The merge queue through the committed bundles (issue 40's "Done when"): a `merge_group` gate,
 * waiting and not waiting, posts on the queue's commit (`merge_group.head_sha`), never on the pull
 * request's head, under the contexts the pull request's gate posts. Their behaviour is tested in
 * process in __tests__/runs/merge-group.test.ts.
 */
import { BUNDLES } from '../../testkit/runner/step.js';
import { closeGitHubWorld, resetStatusesWorld, statusWords } from '../../testkit/world/github-world.js';
import {
  QUEUED_PR,
  createQueueWorld,
  queueGate,
  type QueueWorld,
} from '../../testkit/world/queue-fixtures.js';

let fixture: QueueWorld;
beforeAll(async () => {
  fixture = await createQueueWorld(40);
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => {
  resetStatusesWorld(fixture);
  fixture.github.pullRequests = [];
  fixture.github.addPullRequest({ number: QUEUED_PR, head: fixture.head, queue: { head: fixture.queue } });
});

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
});
