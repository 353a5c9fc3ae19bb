/**
 * `merge_group`, a first-class event for run-workflow and wait-for-run (issue 40 item 1), each step
 * run in process from the sources against GitHub's stand-in: the commit under review is
 * `merge_group.head_sha` (git-ref and expected-commit default to it), the statuses go on the queue's
 * commit under the same contexts as on the pull request (one ruleset entry requires both), `wait:
 * false` with `commit-statuses` is accepted there as on pull requests, `comment: true` is a notice,
 * and the log and summary name the queue's commit, its base branch and the pull request whose entry
 * it tests. Through the bundles, in __tests__/e2e/merge-queue-bundles.test.ts: a gate waiting and
 * one not waiting, each posting on the queue's commit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IN_PROCESS, readActionYaml } from '../../testkit/runner/in-process.js';
import { interpolate } from '../../testkit/runner/expressions.js';
import { apiRequests, followRunStep } from '../../testkit/world/world.js';
import { closeGitHubWorld, statusWords } from '../../testkit/world/github-world.js';
import {
  QUEUED_PR,
  createQueueWorld,
  resetQueueWorld,
  mergeGroupEnv,
  mergeGroupPayload,
  pullRequestGateEnv,
  queueGate,
  type QueueWorld,
} from '../../testkit/world/queue-fixtures.js';
import { mergeGroupEvent } from '../../src/github/event.js';
import { sayMergeQueue } from '../../src/runs/follow.js';

let fixture: QueueWorld;
beforeAll(async () => {
  fixture = await createQueueWorld(10);
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetQueueWorld(fixture));

/** The sentence the log and the summary say of this world's merge group, as the log says it. */
const queueWords = (queue: string) =>
  `Commit \`${queue}\` was built by the merge queue of \`main\` to test the entry of pull request #${QUEUED_PR}; it also holds the changes of the entries ahead of that one in the queue, so the run tests them together.`;

describe('run-workflow on merge_group', () => {
  it("waiting: dispatches on the queue's commit, posts every status there, under the pull request's contexts", async () => {
    const { world, github, queue, head } = fixture;
    const run = await queueGate(IN_PROCESS, fixture);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ outcome: 'success', 'git-commit-hash': queue });
    expect(world.sim.getRun(run.outputs['run-id'])?.requestedGitRef).toBe(queue);
    // Every status on the queue's commit, none on the pull request's head.
    expect(new Set(github.statuses.map((status) => status.sha))).toEqual(new Set([queue]));
    expect(github.states(queue)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
    expect(github.states(head)).toEqual({});
    // The same gate on the pull request: the same contexts, on the head.
    const onPullRequest = await queueGate(IN_PROCESS, fixture, {}, pullRequestGateEnv(fixture));
    expect(onPullRequest.exitCode).toBe(0);
    expect(Object.keys(github.states(head)).sort()).toEqual(Object.keys(github.states(queue)).sort());
  });

  it("the log and the summary name the queue's commit, its base branch and the pull request, and say what else it holds", async () => {
    const { queue } = fixture;
    const run = await queueGate(IN_PROCESS, fixture);
    expect(run.stdout).toContain(`Merge queue: ${queueWords(queue)}`);
    expect(run.summary).toContain(
      `**Merge queue**: Commit \`${queue}\` was built by the merge queue of \`main\` to test the entry of pull request \\#&#8203;${QUEUED_PR}; it also holds the changes of the entries ahead of that one in the queue, so the run tests them together.`,
    );
    // The pull request's gate says nothing of a queue.
    const onPullRequest = await queueGate(IN_PROCESS, fixture, {}, pullRequestGateEnv(fixture));
    expect(onPullRequest.summary).not.toContain('Merge queue');
    expect(onPullRequest.stdout).not.toContain('Merge queue');
  });

  it('a queue ref that names no pull request: said so; an explicit git-ref still wins over the default', async () => {
    const { dir, queue } = fixture;
    writeFileSync(
      join(dir, 'merge-group-other.json'),
      JSON.stringify(mergeGroupPayload(queue, 'refs/heads/gh-readonly-queue/main/batch', fixture.head)),
    );
    const run = await queueGate(
      IN_PROCESS,
      fixture,
      { 'git-ref': 'main' },
      mergeGroupEnv(fixture, 'merge-group-other.json'),
    );
    expect(run.exitCode).toBe(0);
    expect(run.outputs['git-commit-hash']).toBe(fixture.head);
    expect(run.summary).toContain(
      `**Merge queue**: Commit \`${queue}\` was built by the merge queue of \`main\` (its ref names no pull request); it also holds`,
    );
  });

  it("wait: false with commit-statuses: accepted, pending on the queue's commit for sync-statuses", async () => {
    const { github, queue } = fixture;
    const run = await queueGate(IN_PROCESS, fixture, { wait: 'false' });
    expect(run.exitCode).toBe(0);
    expect(run.outputs.outcome).toBe('dispatched');
    expect(Object.keys(github.states(queue)).length).toBeGreaterThan(0);
    for (const status of github.statuses) {
      expect(status.sha).toBe(queue);
      expect(status.state).toBe('pending');
    }
    expect(statusWords(github.latest(queue, 'svc/pipeline')?.description)).toBe(
      'Dispatched; sync-statuses settles it',
    );
    expect(run.stdout).toContain('sync-statuses settles its commit statuses');
    expect(run.summary).toContain('**Merge queue**: Commit');
  });

  it('comment: true is a notice there: no pull request to comment on, nothing written', async () => {
    const { github } = fixture;
    const run = await queueGate(IN_PROCESS, fixture, { comment: 'true', 'commit-statuses': 'false' });
    expect(run.exitCode).toBe(0);
    expect(run.annotations.filter(({ kind }) => kind === 'notice').map(({ text }) => text)).toEqual([
      'comment: true, but this is a `merge_group` event, not a pull request; no comment was posted.',
    ]);
    expect(github.requests).toEqual([]);
  });

  it('wait: false with commit-statuses on push is still refused, naming the events it needs, before any request', async () => {
    const { world, github } = fixture;
    const run = await queueGate(
      IN_PROCESS,
      fixture,
      { wait: 'false' },
      { ...mergeGroupEnv(fixture), GITHUB_EVENT_NAME: 'push' },
    );
    expect(run.exitCode).toBe(1);
    expect(run.errors).toEqual([
      expect.stringContaining(
        '`commit-statuses: true` with `wait: false` needs a `pull_request`, `pull_request_target` or `merge_group` event: sync-statuses settles the statuses it leaves pending on the heads of open pull requests and on their merge-queue commits.',
      ),
    ]);
    expect(apiRequests(world.sim)).toEqual([]);
    expect(github.requests).toEqual([]);
  });
});

describe('wait-for-run on merge_group', () => {
  it("expected-commit defaults to the queue's commit: a run of the pull request's head is refused, the queue's passes and posts there", async () => {
    const { world, github, queue } = fixture;
    const runOn = (gitRef: string) =>
      world.sim.createRun({ appId: world.project.id, gitRef, fileName: 'pipeline.yml' });
    const ofHead = await runOn('main');
    const refused = await followRunStep(IN_PROCESS, world, ofHead.id, {}, { env: mergeGroupEnv(fixture) });
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain(`not of the expected commit ${queue}`);
    const ofQueue = await runOn(queue);
    const passed = await followRunStep(
      IN_PROCESS,
      world,
      ofQueue.id,
      {
        'commit-statuses': 'true',
        'status-context': 'svc/pipeline',
        'github-token': 'ghs_queueToken0123456789',
      },
      { env: mergeGroupEnv(fixture) },
    );
    expect(passed.exitCode).toBe(0);
    expect(passed.stdout).toContain(`it must be a run of commit ${queue}`);
    expect(passed.stdout).toContain(`Merge queue: ${queueWords(queue)}`);
    expect(github.latest(queue, 'svc/pipeline')?.state).toBe('success');
    expect(passed.summary).toContain(
      `**Merge queue**: Commit \`${queue}\` was built by the merge queue of \`main\``,
    );
  });

  it("the action.yml default says the same in the runner's expressions: the queue's head_sha on merge_group", () => {
    const expression = readActionYaml('wait-for-run').inputs?.['expected-commit'].default as string;
    const github = (event_name: string, event: unknown) =>
      ({ github: { event_name, sha: 'a'.repeat(40), event } }) as never;
    const queue = { merge_group: { head_sha: 'b'.repeat(40) } };
    const pullRequest = { pull_request: { head: { sha: 'c'.repeat(40) } } };
    expect(interpolate(expression, github('merge_group', queue), { failed: false })).toBe('b'.repeat(40));
    expect(interpolate(expression, github('pull_request', pullRequest), { failed: false })).toBe(
      'c'.repeat(40),
    );
    expect(interpolate(expression, github('push', {}), { failed: false })).toBe('a'.repeat(40));
  });
});

describe('what run-workflow and wait-for-run both say first on merge_group (sayMergeQueue)', () => {
  it('the merge queue line, whole, and the merge group for the summary; on another event nothing', () => {
    const said: string[] = [];
    const io = { info: (line: string) => void said.push(line) };
    expect(sayMergeQueue(io, 'main', mergeGroupEnv(fixture))).toEqual({
      headSha: fixture.queue,
      baseBranch: 'main',
      pullRequest: QUEUED_PR,
    });
    expect(said).toEqual([
      `Merge queue: Commit \`${fixture.queue}\` was built by the merge queue of \`main\` to test the entry of pull request #${QUEUED_PR}; it also holds the changes of the entries ahead of that one in the queue, so the run tests them together.`,
    ]);
    said.length = 0;
    expect(sayMergeQueue(io, fixture.head, pullRequestGateEnv(fixture))).toBeUndefined();
    expect(said).toEqual([]);
  });
});

describe('mergeGroupEvent', () => {
  const read = (event: string, payload: unknown, env: Record<string, string> = {}) =>
    mergeGroupEvent({
      env: { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: '/event.json', ...env },
      input: () => '',
      readFile: () => (typeof payload === 'string' ? payload : JSON.stringify(payload)),
    });
  const sha = 'd'.repeat(40);

  it('reads the queue commit, the base branch and the pull request of the ref', () => {
    expect(
      read('merge_group', {
        merge_group: {
          head_sha: sha.toUpperCase(),
          head_ref: `refs/heads/gh-readonly-queue/release/v2/pr-1234-${'e'.repeat(40)}`,
          base_ref: 'refs/heads/release/v2',
        },
      }),
    ).toEqual({ headSha: sha, baseBranch: 'release/v2', pullRequest: 1234 });
  });

  it('is undefined on other events; an unreadable payload or a SHA that is not one gives none', () => {
    expect(read('pull_request', { merge_group: { head_sha: sha } })).toBeUndefined();
    expect(read('merge_group', 'not json')).toEqual({
      headSha: undefined,
      baseBranch: '',
      pullRequest: undefined,
    });
    expect(
      read('merge_group', {
        merge_group: { head_sha: 'HEAD', head_ref: `gh-readonly-queue/main/pr-7-${sha}` },
      }),
    ).toEqual({ headSha: undefined, baseBranch: 'main', pullRequest: 7 });
  });
});
