/**
 * The post step's entrypoint: masks the step's secret inputs, then runs what the post step does
 * (sessions/post-step.ts: stop every session the main step created), then, with `comment: true` on
 * a pull request, says in the session's sticky comment how it ended. When a start-up setting changed
 * after the main step, all of it runs in a fresh Node process instead (runner/startup-env.ts).
 */
import { createCoreIO, type ActionIO } from './runner/io.js';
import { COMMANDS, inputSource, maskSecretInputs, postCommand, type CommandName } from './commands/index.js';
import { commentOnPullRequest } from './github/comment.js';
import { isPullRequestEvent } from './github/event.js';
import { runPostStep } from './sessions/post-step.js';
import { postCommentEnding, type PostReport } from './sessions/report/accounting.js';
import { freshProcessListening } from './runner/startup-env.js';
import { commentNotUpdatedWarning } from './sessions/report/warnings.js';

export async function run(io: ActionIO = createCoreIO()): Promise<void> {
  freshProcessListening();
  // The command whose definition has a post step: its secrets, its inputs, its comment.
  const command = postCommand();
  maskSecretInputs(io, command);
  const { last, differs, handedOver } = await runPostStep(io, inputSource(io));
  // A fresh Node process did the work, the comment included; its exit code is the step's.
  if (handedOver !== undefined) {
    process.exitCode = handedOver;
    return;
  }
  if (last || differs) await updateComment(io, command, last, differs);
}

/**
 * With `comment: true` on a pull request, the session's sticky comment says how the session ended
 * (stopped, and after how long), so it never shows a device as running after the job. The comment's
 * subject and token come from this step's inputs, read as the main step read them.
 */
async function updateComment(
  io: ActionIO,
  command: CommandName,
  last: PostReport | undefined,
  differs: string | undefined,
): Promise<void> {
  if (!isPullRequestEvent(process.env.GITHUB_EVENT_NAME)) return;
  let comment;
  try {
    comment = COMMANDS[command].read(inputSource(io)).comment;
  } catch {
    return;
  }
  if (!comment) return;
  // The github-token, like the service's token, goes nowhere with settings the main step did not use.
  if (differs) return io.warning(commentNotUpdatedWarning(differs));
  if (!last) return;
  await commentOnPullRequest(
    { githubToken: comment.githubToken ?? '' },
    {
      kind: comment.kind,
      subject: comment.subject,
      outputs: { 'session-id': last.id, 'session-url': last.url ?? '', status: last.status ?? '' },
      failed: false,
      ended: postCommentEnding(last),
    },
    io,
  );
}
