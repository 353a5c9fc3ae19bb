/**
 * Which comment a step writes, each step run in process from the sources against the simulator and
 * GitHub's stand-in (issue 41 items 1 and 2): a dry run writes none whatever its outcome, a failed
 * one included (its "❌ the step failed" would replace the real gate's comment); two matrix legs of
 * one workflow each have a comment whose heading names the leg, by its `status-context` when set,
 * else by a short hash of its settings with a line saying to set `status-context` (never by the
 * inputs' values, which may be secrets). A failing dry run with `comment: true` through the bundle:
 * __tests__/e2e/status-trust-bundles.test.ts.
 */
import { IN_PROCESS, type ActionRun } from '../../testkit/runner/in-process.js';
import type { World } from '../../testkit/world/world.js';
import type { GitHubStandIn } from '../../simulator/index.js';
import { commentingGate, createCommentWorld } from '../../testkit/world/comment-fixtures.js';
import { closeGitHubWorld, resetStatusesWorld, type GitHubWorld } from '../../testkit/world/github-world.js';
import { shortHash } from '../../src/github/comment-body.js';

let fixture: GitHubWorld;
let world: World;
let github: GitHubStandIn;
beforeAll(async () => {
  fixture = await createCommentWorld({ defaultJobDurationMs: 10, readinessDelayMs: 10 });
  ({ world, github } = fixture);
});
afterAll(() => closeGitHubWorld(fixture));
beforeEach(() => resetStatusesWorld(fixture));

const gate = (inputs: Record<string, string>): Promise<ActionRun> =>
  commentingGate(IN_PROCESS, fixture, inputs);

/** The first line a reader sees of each comment (the marker is hidden). */
const headings = (): string[] => github.comments.map((comment) => comment.body.split('\n')[1]);

test('a dry run that fails, with comment: true, writes nothing to GitHub and says so', async () => {
  const run = await gate({ 'dry-run': 'true', token: 'svc_robot_revoked000000000000000' });
  expect(run.exitCode).toBe(1);
  expect(run.outputs.outcome).toBe('failure');
  expect(run.errors).toEqual([expect.stringContaining('Dry run: the service at ')]);
  expect(github.requests).toEqual([]);
  expect(run.stdout).toContain('Dry run: no pull request comment was posted.');
});

describe('two matrix legs of one workflow, each with comment: true', () => {
  const legs = [{ 'registry-token': 'leg-one-value-4f1d' }, { 'registry-token': 'leg-two-value-9c2e' }];

  it('are headed by their status-context when set', async () => {
    for (const [i, inputs] of legs.entries()) {
      const run = await gate({ inputs: JSON.stringify(inputs), 'status-context': `svc/gate-${i + 1}` });
      expect(run.exitCode).toBe(0);
      // status-context names the comment's leg: no "it names nothing" warning.
      expect(run.annotations.filter((annotation) => annotation.kind === 'warning')).toEqual([]);
    }
    expect(headings()).toEqual([
      '**svc** · Workflow run `gate.yml` · `svc/gate-1`: ✅ the step succeeded',
      '**svc** · Workflow run `gate.yml` · `svc/gate-2`: ✅ the step succeeded',
    ]);
    for (const comment of github.comments) expect(comment.body).not.toContain('Set `status-context`');
  });

  it('are headed by a short hash of their settings without one, and say to set it; never by the values', async () => {
    for (const inputs of legs) expect((await gate({ inputs: JSON.stringify(inputs) })).exitCode).toBe(0);
    const hashes = legs.map((inputs) => shortHash({ inputs, appId: world.api['app-id'], gitRef: 'main' }));
    expect(headings()).toEqual(
      hashes.map(
        (hash) => `**svc** · Workflow run \`gate.yml\` · settings \`${hash}\`: ✅ the step succeeded`,
      ),
    );
    for (const comment of github.comments) {
      expect(comment.body).toContain(
        'each leg of a matrix that dispatches this workflow with other settings has its own. Set `status-context` to name the legs.',
      );
      for (const inputs of legs) expect(comment.body).not.toContain(inputs['registry-token']);
    }
  });
});
