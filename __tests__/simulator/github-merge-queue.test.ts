/**
 * The stand-in's merge queue (issue 40 items 4 and 5): an enqueue builds the merge-group commit as a
 * real commit of the linked repository (a dispatch on it works), points `gh-readonly-queue/…` to it,
 * shows the entry in GraphQL, and gives the `merge_group` event; the pull request's page shows the
 * queue commit's statuses beside the head's, whether every required context is success on each, and
 * who posted each status as what source.
 */
import { MemoryRepo } from '../../simulator/index.js';
import { pullRequestPage } from '../../simulator/github/pr-page.js';
import { standIn, status } from './github-helpers.js';

const QUEUE_QUERY = `query { repository(owner: "acme", name: "app") {
  pullRequests(states: OPEN, first: 10) { nodes { number mergeQueueEntry { headCommit { oid status { contexts { context state } } } position state } } }
} }`;

type Entries = {
  data: {
    repository: {
      pullRequests: {
        nodes: Array<{
          number: number;
          mergeQueueEntry: null | {
            headCommit: {
              oid: string;
              status: { contexts: Array<{ context: string; state: string }> } | null;
            };
            position: number;
            state: string;
          };
        }>;
      };
    };
  };
};

/** A repository with `main`, and two pull requests' heads on branches of it. */
function queueWorld(settings: Parameters<typeof standIn>[0] = {}) {
  const test = standIn(settings);
  const repo = new MemoryRepo({ 'e2e.yml': 'name: E2E\n' });
  const base = repo.headSha;
  const first = repo.commit({ 'first.txt': 'one' }, 'First change', 'feature-1');
  repo.branch('feature-2', base);
  const second = repo.commit({ 'second.txt': 'two' }, 'Second change', 'feature-2');
  test.github.linkRepository(repo);
  test.github.addPullRequest({ number: 1, head: first, title: 'First' });
  test.github.addPullRequest({ number: 2, head: second, title: 'Second' });
  return { ...test, repo, base, first, second };
}

describe("the stand-in's merge queue", () => {
  it('builds the merge-group commit in the linked repository, behind the entries ahead, with its ref and event', async () => {
    const { github, repo, base, first, rest } = queueWorld();
    const one = await github.enqueue(1);
    const two = await github.enqueue(2);
    // A real commit of the repository: its files are the base's with the pull request's, and those ahead.
    expect(await repo.workflowFile(one.entry.head, 'e2e.yml')).toBe('name: E2E\n');
    expect(await repo.commitMessage(one.entry.head)).toBe('Merge pull request #1 into main\n\nFirst');
    expect(one.entry).toMatchObject({ position: 1, baseSha: base, baseRef: 'main' });
    expect(one.entry.ref).toBe(`refs/heads/gh-readonly-queue/main/pr-1-${base}`);
    // The second entry is built on the first's commit: it also holds the entry ahead.
    expect(two.entry).toMatchObject({ position: 2, baseSha: one.entry.head });
    expect(two.entry.ref).toBe(`refs/heads/gh-readonly-queue/main/pr-2-${one.entry.head}`);
    expect(await repo.commitOf(two.entry.ref)).toBe(two.entry.head);
    expect(two.entry.head).not.toBe(first);
    // GitHub's refs API shows the queue's branch.
    const ref = rest('GET', `/repos/acme/app/git/ref/heads/gh-readonly-queue/main/pr-1-${base}`);
    expect(ref.status).toBe(200);
    expect(ref.json).toMatchObject({ object: { sha: one.entry.head } });
    // The event GitHub sends the workflow: GITHUB_SHA is merge_group.head_sha.
    expect(one.event).toMatchObject({
      action: 'checks_requested',
      merge_group: {
        head_sha: one.entry.head,
        head_ref: one.entry.ref,
        base_sha: base,
        base_ref: 'refs/heads/main',
        head_commit: { id: one.entry.head },
      },
    });
  });

  it('shows the entry in GraphQL, with the statuses of its commit; a pull request not queued has none', async () => {
    const { github, graphql, rest } = queueWorld({ knownCommitsOnly: true });
    const { entry } = await github.enqueue(2);
    // The queue's commit is one the repository has: a status on it is accepted.
    expect(
      rest('POST', `/repos/acme/app/statuses/${entry.head}`, { body: status('svc/e2e', 'success') }).status,
    ).toBe(201);
    const nodes = (graphql(QUEUE_QUERY).json as Entries).data.repository.pullRequests.nodes;
    expect(nodes.find((node) => node.number === 1)?.mergeQueueEntry).toBeNull();
    expect(nodes.find((node) => node.number === 2)?.mergeQueueEntry).toEqual({
      headCommit: { oid: entry.head, status: { contexts: [{ context: 'svc/e2e', state: 'SUCCESS' }] } },
      position: 1,
      state: 'AWAITING_CHECKS',
    });
  });

  it("the pull request's page: the queue commit's checks beside the head's, the required contexts' verdict, who posted each", async () => {
    const personal = 'ghp_personal0123456789';
    const { github, first, rest } = queueWorld({
      requiredContexts: ['svc/e2e', 'svc/e2e/build'],
      tokens: { [personal]: { login: 'octo-dev', kind: 'user' } },
    });
    const { entry } = await github.enqueue(1);
    rest('POST', `/repos/acme/app/statuses/${first}`, { body: status('svc/e2e', 'success'), token: 'ghs_x' });
    rest('POST', `/repos/acme/app/statuses/${first}`, {
      body: status('svc/e2e/build', 'success'),
      token: 'ghs_x',
    });
    rest('POST', `/repos/acme/app/statuses/${entry.head}`, {
      body: status('svc/e2e', 'success'),
      token: 'ghs_x',
    });
    rest('POST', `/repos/acme/app/statuses/${entry.head}`, {
      body: status('svc/e2e/build', 'pending'),
      token: personal,
    });
    const page = pullRequestPage(github, github.pullRequest('acme', 'app', 1)!).body;
    expect(page).toContain(
      '<p id="required" data-met="true">Every required context is success (svc/e2e, svc/e2e/build).</p>',
    );
    expect(page).toContain(
      '<p id="queue-required" data-met="false">Required and not success: svc/e2e/build (pending).</p>',
    );
    expect(page).toContain(`the queue's commit <code>${entry.head}</code>`);
    const queueTable = page.slice(page.indexOf('id="queue-checks"'));
    expect(queueTable).toMatch(
      /data-creator="github-actions\[bot\]">\s*github-actions\[bot\] · GitHub Actions \(GITHUB_TOKEN\)/,
    );
    expect(queueTable).toMatch(
      /data-creator="octo-dev">\s*octo-dev · user octo-dev \(personal access token\)/,
    );
  });

  it('without a linked repository, or for a pull request that is not open, says why', async () => {
    const { github } = standIn();
    github.addPullRequest({ number: 1, head: 'b'.repeat(40) });
    await expect(github.enqueue(1)).rejects.toThrow('enqueue: the merge queue needs a linked repository');
    await expect(github.enqueue(9)).rejects.toThrow('enqueue: no open pull request #9 in acme/app');
  });
});
