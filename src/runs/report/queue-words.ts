/**
 * What a step on `merge_group` says of the merge queue's commit, in the log and in the job summary.
 * Someone who opens a failed queue check needs three facts its page does not give: the commit is
 * not the pull request's head but one the queue built on its base branch, which pull request's entry
 * it tests, and that it also holds the changes of the entries ahead of it, so a failure may come
 * from one of those.
 */
import type { MergeGroup } from '../../github/event.js';
import { markdownCode, markdownText } from '../../text/markdown.js';
import { oneLine } from '../../text/one-line.js';

/** The parts of the sentence, each in the rendering the caller gives (log or Markdown). */
function sentence(
  queue: MergeGroup,
  commit: string | undefined,
  code: (value: string) => string,
  text: (value: string) => string,
): string {
  const sha = queue.headSha ?? commit;
  const built = sha
    ? `Commit ${code(sha)} was built by the merge queue`
    : 'The commit was built by the merge queue';
  const base = queue.baseBranch ? ` of ${code(queue.baseBranch)}` : '';
  const entry =
    queue.pullRequest === undefined
      ? ` (its ref names no pull request)`
      : ` to test the entry of ${text(`pull request #${queue.pullRequest}`)}`;
  return `${built}${base}${entry}; it also holds the changes of the entries ahead of that one in the queue, so the run tests them together.`;
}

/** The log's line (`commit`: the commit under review when the payload names none). */
export function queueLogLine(queue: MergeGroup, commit?: string): string {
  return `Merge queue: ${sentence(
    queue,
    commit,
    (value) => `\`${oneLine(value, 120)}\``,
    (value) => value,
  )}`;
}

/** The job summary's paragraph, under the run's facts. */
export function queueSummaryLines(queue: MergeGroup, commit?: string): string[] {
  return [
    `**Merge queue**: ${sentence(
      queue,
      commit,
      (value) => markdownCode(value, 120),
      (value) => markdownText(value, 40),
    )}`,
    '',
  ];
}
