/**
 * What a pull request shows on GitHub, from the simulator's GitHub stand-in, as terminal lines: its
 * page's address, the latest status of each context on its head commit (GitHub's checks list) and its
 * comments. `npm run demo` and `npm run recipe` end with it, so a local rehearsal shows what the pull
 * request would show.
 */
import type { GitHubStandIn, PullRequest } from '../../simulator/github/stand-in.js';

const ICONS: Record<string, string> = { success: '✅', failure: '❌', error: '⚠️', pending: '⏳' };

/** The page of `pr` on the stand-in. */
export function pullRequestPage(github: GitHubStandIn, pr: PullRequest): string {
  return `${github.url}/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/pull/${pr.number}`;
}

export function pullRequestView(github: GitHubStandIn, pr: PullRequest): string[] {
  const lines = [
    `Pull request #${pr.number} at ${pullRequestPage(github, pr)} (head ${pr.head.slice(0, 12)})`,
  ];
  const contexts = Object.entries(github.states(pr.head));
  lines.push(contexts.length > 0 ? 'Checks:' : 'Checks: none posted');
  for (const [context, state] of contexts) {
    const description = github.latest(pr.head, context)?.description ?? '';
    lines.push(`  ${ICONS[state] ?? '❔'} ${context}: ${state}${description ? ` (${description})` : ''}`);
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
