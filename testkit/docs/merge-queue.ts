/**
 * A pull request entering the merge queue, for the recipe tests and `npm run recipe`: GitHub's
 * stand-in builds the queue's commit in the project's repository it is linked to (so a dispatch on it
 * works) on its `gh-readonly-queue/<base>/pr-<n>-<sha>` branch and shows the entry
 * (simulator/github/merge-queue.ts); this gives the github context of the `merge_group` event GitHub
 * sends for it (field-notes.md, sixth round: `merge_group.head_sha` is GITHUB_SHA).
 */
import type { GitHubStandIn } from '../../simulator/index.js';
import type { Json } from '../runner/expressions.js';

export interface QueuedEntry {
  /** The commit the queue built: what the merge group's workflow tests. */
  queue: string;
  /** The github context of its `merge_group` event. */
  context: Record<string, Json>;
}

/** Puts open pull request `number` in the stand-in's merge queue; `runId` names the GitHub run. */
export async function enqueue(github: GitHubStandIn, number: number, runId: string): Promise<QueuedEntry> {
  const { entry, event } = await github.enqueue(number);
  return {
    queue: entry.head,
    context: {
      run_id: runId,
      event_name: 'merge_group',
      sha: entry.head,
      ref: entry.ref,
      repository: github.settings.repository,
      api_url: github.url,
      event: event as Record<string, Json>,
    },
  };
}
