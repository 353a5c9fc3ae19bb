/**
 * What a pull request shows on GitHub, from the simulator's GitHub stand-in, as terminal lines: its
 * page's address, the latest status of each context on its head commit (GitHub's checks list), in the
 * merge queue the same for the queue's commit and whether every required context is `success` there
 * (what the queue waits for), and its comments. `npm run demo` and `npm run recipe` end with it, so a
 * local rehearsal shows what the pull request would show.
 */
import type { GitHubStandIn, PullRequest } from '../../simulator/github/stand-in.js';

const ICONS: Record<string, string> = { success: '✅', failure: '❌', error: '⚠️', pending: '⏳' };

/** The page of `pr` on the stand-in. */
export function pullRequestPage(github: GitHubStandIn, pr: PullRequest): string {
  return `${github.url}/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/pull/${pr.number}`;
}

/** `required`: the contexts the ruleset requires, for the queue's verdict. */
export function pullRequestView(github: GitHubStandIn, pr: PullRequest, required: string[] = []): string[] {
  const lines = [
    `Pull request #${pr.number} at ${pullRequestPage(github, pr)} (head ${pr.head.slice(0, 12)})`,
    ...checks(github, pr.head, 'Checks'),
  ];
  if (pr.queue?.head) {
    lines.push(
      `In the merge queue, on the queue's commit ${pr.queue.head.slice(0, 12)}:`,
      ...checks(github, pr.queue.head, 'Its checks'),
    );
    const states = github.states(pr.queue.head);
    const owed = required.filter((context) => states[context] !== 'success');
    if (required.length > 0)
      lines.push(
        owed.length === 0
          ? `Every required context is success on the queue's commit (${required.join(', ')}): the queue may merge it.`
          : `Not yet mergeable by the queue: ${owed.map((context) => `${context} is ${states[context] ?? 'not posted'}`).join(', ')}.`,
      );
  }
  const comments = github.commentsOn(pr.number);
  lines.push(comments.length > 0 ? 'Comments:' : 'Comments: none');
  for (const comment of comments)
    lines.push(
      `  by ${comment.user.login}:`,
      ...comment.body
        .split('\n')
        .filter((line) => !line.startsWith('<!--'))
        .map((line) => `    ${line}`),
    );
  return lines;
}

/** The latest status of each context on `sha`, under `heading`. */
function checks(github: GitHubStandIn, sha: string, heading: string): string[] {
  const contexts = Object.entries(github.states(sha));
  const lines = [contexts.length > 0 ? `${heading}:` : `${heading}: none posted`];
  for (const [context, state] of contexts) {
    const description = github.latest(sha, context)?.description ?? '';
    lines.push(`  ${ICONS[state] ?? '❔'} ${context}: ${state}${description ? ` (${description})` : ''}`);
  }
  return lines;
}
