/**
 * The merge queue, as much of it as the action reads (issue 40 item 5): a pull request put in the
 * queue gets a merge-group commit built in the simulator's linked repository (so a dispatch on it
 * works), the queue's branch `gh-readonly-queue/<base>/pr-<n>-<sha>` pointing to it, a GraphQL
 * `mergeQueueEntry`, and the `merge_group` event GitHub would send a workflow for it.
 *
 * GitHub's documentation: "Managing a merge queue" (repositories/configuring-branches-and-merges-in-
 * your-repository/configuring-pull-request-merges/managing-a-merge-queue): the queue creates a
 * temporary branch with the prefix `gh-readonly-queue/{base_branch}` holding the base branch, the
 * changes of the entries ahead and the pull request's, and reports required checks on its head commit;
 * webhooks-and-events/webhooks/webhook-events-and-payloads#merge_group: `action: checks_requested`,
 * `merge_group.head_sha`, `head_ref`, `base_sha`, `base_ref`, `head_commit`. The `pr-<n>-<sha>` tail
 * (the commit the entry was built on) is reported, not documented. Merging, and removal at the
 * status check timeout, are not simulated.
 */

/** What the stand-in needs of the linked repository: its branches and a way to build a merge commit. */
export interface QueueRepository {
  /** The commit a fully qualified ref names; null when none. */
  commitOf(ref: string): Promise<string | null>;
  /**
   * A new commit on `branch` whose parents are `base` and `head`, holding `base`'s files with
   * `head`'s written over them (what a merge without conflicts gives); returns its SHA.
   */
  mergeCommit(options: { base: string; head: string; branch: string; message: string }): Promise<string>;
}

/** A pull request's place in the queue, as the stand-in holds it (PullRequest.queue). */
export interface QueueEntry {
  /** The merge-group commit: base, the entries ahead, and this pull request. */
  head: string;
  /** 1 for the first entry. */
  position: number;
  /** GraphQL's MergeQueueEntryState. */
  state: string;
  /** `refs/heads/gh-readonly-queue/<base>/pr-<n>-<sha>`. */
  ref: string;
  /** The commit the entry was built on: the base branch's, or the entry ahead's merge-group commit. */
  baseSha: string;
  /** The base branch. */
  baseRef: string;
}

/** The `merge_group` event's payload for `entry` of `repository`. */
export function mergeGroupPayload(
  repository: string,
  entry: QueueEntry,
  message: string,
  timestamp: string,
): Record<string, unknown> {
  const [owner, name] = repository.split('/');
  return {
    action: 'checks_requested',
    merge_group: {
      head_sha: entry.head,
      head_ref: entry.ref,
      base_sha: entry.baseSha,
      base_ref: `refs/heads/${entry.baseRef}`,
      head_commit: {
        id: entry.head,
        message,
        timestamp,
        author: { name: 'GitHub', email: 'noreply@github.com' },
        committer: { name: 'GitHub', email: 'noreply@github.com' },
      },
    },
    repository: { full_name: repository, name, owner: { login: owner } },
    sender: { login: 'github-merge-queue[bot]', type: 'Bot' },
  };
}

/** The message GitHub writes on a merge-group commit. */
export function queueCommitMessage(number: number, title: string, baseRef: string): string {
  return `Merge pull request #${number} into ${baseRef}\n\n${title}`;
}

/** The queue's branch for an entry built on `baseSha`. */
export function queueBranch(baseRef: string, number: number, baseSha: string): string {
  return `gh-readonly-queue/${baseRef}/pr-${number}-${baseSha}`;
}
