/**
 * A pull request entering the merge queue, for the recipe tests and `npm run recipe`: the queue's
 * commit built on the pull request's head in the project's repository (so a dispatch on it works),
 * on GitHub's branch `gh-readonly-queue/<base>/pr-<n>-<sha>`, the pull request's queue entry on
 * GitHub's stand-in, and the github context of the `merge_group` event GitHub sends for it
 * (field-notes.md, sixth round: `merge_group.head_sha` is GITHUB_SHA).
 */
import type { GitHubStandIn } from '../../simulator/index.js';
import type { Json } from '../runner/expressions.js';
import type { World } from '../world/world.js';

export interface QueuedEntry {
  /** The commit the queue built: what the merge group's workflow tests. */
  queue: string;
  /** The github context of its `merge_group` event. */
  context: Record<string, Json>;
}

/** Puts pull request `number` (open on `head`, into `main`) in the queue; `runId` names the GitHub run. */
export function enqueue(
  world: World,
  github: GitHubStandIn,
  options: { number: number; head: string; runId: string },
): QueuedEntry {
  const { number, head, runId } = options;
  // GitHub names the branch after the commit the entry was built on, not after the queue's commit.
  const branch = `gh-readonly-queue/main/pr-${number}-${head}`;
  world.repo.branch(branch, head);
  const message = `Merge pull request #${number} into main (merge queue)`;
  const queue = world.repo.commit({}, message, branch);
  github.addPullRequest({ number, head, queue: { head: queue, position: 1, state: 'AWAITING_CHECKS' } });
  const headRef = `refs/heads/${branch}`;
  return {
    queue,
    context: {
      run_id: runId,
      event_name: 'merge_group',
      sha: queue,
      ref: headRef,
      repository: 'acme/app',
      api_url: github.url,
      event: {
        action: 'checks_requested',
        merge_group: {
          head_sha: queue,
          head_ref: headRef,
          base_sha: head,
          base_ref: 'refs/heads/main',
          head_commit: { id: queue, message },
        },
      },
    },
  };
}
