/**
 * wait-for-run's `expected-commit`, each step run in process from the sources: a run of another
 * commit fails the step on the read that shows it (so a pull request gate cannot pass on a run of
 * other code; through the bundle, in __tests__/e2e/runs-bundles.test.ts), a run of the expected
 * commit passes, `''` turns the check off, and the default is the pull request's head commit, else
 * GITHUB_SHA.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_PROCESS, readActionYaml, type StepOptions } from '../../testkit/runner/in-process.js';
import { followRunStep, type World } from '../../testkit/world/world.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import type { WorkflowRun } from '../../simulator/index.js';
import { createNextCommitWorld, storeRunOn } from '../../testkit/world/run-fixtures.js';

let world: World;
/** The commit of branch `next`, one after `main` (world.repo.headSha). */
let otherSha: string;
let eventDir: string;
beforeAll(async () => {
  ({ world, otherSha } = await createNextCommitWorld(10));
  eventDir = mkdtempSync(join(tmpdir(), 'svc-e2e-event-'));
});
afterAll(async () => {
  rmSync(eventDir, { recursive: true, force: true });
  await world.sim.close();
});
beforeEach(() => world.sim.reset());

const runOn = (gitRef: string): Promise<WorkflowRun> => storeRunOn(world, gitRef);

const follow = (runId: string, inputs: Record<string, string> = {}, options: StepOptions = {}) =>
  followRunStep(IN_PROCESS, world, runId, inputs, options);

/** The environment of a pull_request event whose head is `headSha` (GITHUB_SHA: its merge commit). */
function pullRequestEnv(headSha: string): Record<string, string> {
  const path = join(eventDir, `event-${headSha}.json`);
  writeFileSync(path, JSON.stringify({ pull_request: { head: { sha: headSha } } }));
  return { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path, GITHUB_SHA: 'f'.repeat(40) };
}

describe('wait-for-run expected-commit', () => {
  it('accepts a run of the expected commit, given whole in any case or as a 7-digit prefix', async () => {
    const own = await runOn('main');
    const [whole, prefix] = await Promise.all([
      follow(own.id, { 'expected-commit': world.repo.headSha.toUpperCase() }),
      follow(own.id, { 'expected-commit': world.repo.headSha.slice(0, 7) }),
    ]);
    for (const result of [whole, prefix]) {
      expect(result.exitCode).toBe(0);
      expect(result.outputs).toMatchObject({ outcome: 'success', 'git-commit-hash': world.repo.headSha });
      expect(result.stdout).toContain(`it must be a run of commit ${world.repo.headSha.slice(0, 7)}`);
    }
  });

  it('checks every read: a run that reports another commit later fails at that read', async () => {
    world.sim.setJobBehaviour('build', { durationMs: 60_000 });
    const own = await runOn('main');
    // The first read shows the expected commit, every later one another: no race with the step's
    // reads, and an hour of the step clock that never runs out first.
    let reads = 0;
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/workflows/runs/${own.id}`,
      kind: 'mutate',
      times: 1000,
      mutate: (json) => {
        const body = json as { data: { gitCommitHash: string } };
        if (++reads > 1) body.data.gitCommitHash = otherSha;
        return body;
      },
    });
    const result = await follow(
      own.id,
      { 'expected-commit': world.repo.headSha, 'timeout-minutes': '60' },
      { clock: new VirtualClock() },
    );
    expect(reads).toBe(2);
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('failure');
    expect(result.stdout).toContain(`is a run of commit ${otherSha}, not of the expected commit`);
    world.sim.cancelRun(own.id);
  });

  it('refuses a run that does not say its commit once it ends: it cannot be checked', async () => {
    const own = await runOn('main');
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/workflows/runs/${own.id}`,
      kind: 'mutate',
      times: 1000,
      mutate: (json) => {
        delete (json as { data: { gitCommitHash?: string } }).data.gitCommitHash;
        return json;
      },
    });
    const result = await follow(own.id, { 'expected-commit': world.repo.headSha });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ outcome: 'failure', status: 'success' });
    expect(result.errors).toEqual([
      expect.stringContaining(`Workflow run ${own.id} does not say which commit it is a run of`),
    ]);
  });

  it("'' turns the check off, even where a default would apply", async () => {
    const other = await runOn('next');
    const result = await follow(
      other.id,
      { 'expected-commit': '' },
      { env: { GITHUB_SHA: world.repo.headSha } },
    );
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({ outcome: 'success', 'git-commit-hash': otherSha });
    expect(result.stdout).not.toContain('it must be a run of commit');
  });

  it("defaults to the pull request's head commit, else GITHUB_SHA", async () => {
    // On the runner the default is action.yml's expression; a run without it computes the same.
    expect(readActionYaml('wait-for-run').inputs?.['expected-commit'].default).toBe(
      "${{ (github.event_name == 'pull_request' || github.event_name == 'pull_request_target') && github.event.pull_request.head.sha || github.event_name == 'merge_group' && github.event.merge_group.head_sha || github.sha }}",
    );
    const other = await runOn('next');
    const [onPush, onOtherPush, onPullRequest] = await Promise.all([
      follow(other.id, {}, { env: { GITHUB_EVENT_NAME: 'push', GITHUB_SHA: world.repo.headSha } }),
      follow(other.id, {}, { env: { GITHUB_EVENT_NAME: 'push', GITHUB_SHA: otherSha } }),
      follow(other.id, {}, { env: pullRequestEnv(otherSha) }),
    ]);
    expect(onPush.exitCode).toBe(1);
    expect(onPush.stdout).toContain(`not of the expected commit ${world.repo.headSha}`);
    expect(onOtherPush.exitCode).toBe(0);
    // The pull request's head, not GITHUB_SHA (its merge commit).
    expect(onPullRequest.exitCode).toBe(0);
    expect(onPullRequest.stdout).toContain(`it must be a run of commit ${otherSha}`);
    // A run of the merge commit's pull request that is not of its head is refused.
    const own = await runOn('main');
    const refused = await follow(own.id, {}, { env: pullRequestEnv(otherSha) });
    expect(refused.exitCode).toBe(1);
    expect(refused.outputs.outcome).toBe('failure');
  });

  it('a value that is not a commit SHA, or of no length a commit has, is an input error before any request', async () => {
    const id = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const [name, short, between, long] = await Promise.all([
      follow(id, { 'expected-commit': 'main' }),
      follow(id, { 'expected-commit': 'abc123' }),
      follow(id, { 'expected-commit': 'a'.repeat(41) }),
      follow(id, { 'expected-commit': 'a'.repeat(65) }),
    ]);
    const said = (digits: string) =>
      `Invalid input: \`expected-commit\` must be a commit SHA: 7 to 40 hexadecimal digits (a SHA-1 commit or its first digits) or exactly 64 (a SHA-256 commit), or '' to follow a run of any commit; got ${digits}.`;
    expect(name.errors).toEqual([expect.stringContaining(said('`main`'))]);
    expect(short.errors).toEqual([expect.stringContaining(said('6 hexadecimal digits'))]);
    expect(between.errors).toEqual([expect.stringContaining(said('41 hexadecimal digits'))]);
    expect(long.errors).toEqual([expect.stringContaining(said('65 hexadecimal digits'))]);
    for (const result of [name, short, between, long]) {
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toEqual({ outcome: 'failure' });
    }
    expect(world.sim.requests).toEqual([]);
  });

  it('`expected-commit: ${{ github.sha }}` on a pull request: says it is the merge (or base) commit and names the head', async () => {
    const own = await runOn('main');
    const merge = 'f'.repeat(40);
    const [onPullRequest, onTarget] = await Promise.all([
      follow(own.id, { 'expected-commit': merge }, { env: pullRequestEnv(world.repo.headSha) }),
      follow(
        own.id,
        { 'expected-commit': merge },
        { env: { ...pullRequestEnv(world.repo.headSha), GITHUB_EVENT_NAME: 'pull_request_target' } },
      ),
    ]);
    const instead =
      "Give `expected-commit: ${{ github.event.pull_request.head.sha }}` (the pull request's head), or leave `expected-commit` out: that is its default. Or set `expected-commit: ''` to accept a run of any commit.";
    expect(onPullRequest.exitCode).toBe(1);
    expect(onPullRequest.stdout).toContain(
      `a run of another commit cannot gate this one. On \`pull_request\`, \`expected-commit\` is \`github.sha\`, the merge commit GitHub made of the pull request and its base branch, which no run of the pull request's head is of. ${instead}`,
    );
    expect(onTarget.exitCode).toBe(1);
    expect(onTarget.stdout).toContain(
      `a run of another commit cannot gate this one. On \`pull_request_target\`, \`expected-commit\` is \`github.sha\`, the last commit of the base branch, not the pull request's head. ${instead}`,
    );
  });
});
