/**
 * The main step of every command. Order matters: secrets are masked before anything else is
 * written, then every input is validated before the first request, then the command runs.
 * Expected failures end in one clear error line and exit code 1; never a stack trace.
 *
 * `run(command)` is what each sub-action's bundle calls; `run()` without a command is the root
 * action, where the `command` input chooses.
 */
import { createCoreIO, type ActionIO } from './runner/io.js';
import {
  COMMANDS,
  inputSource,
  maskSecretInputs,
  readCommand,
  transportWarnings,
  unusedInputWarnings,
  type CommandName,
} from './commands/index.js';
import type { Invocation } from './commands/command.js';
import { createClient } from './runner/service-client.js';
import { ActionFailure, reportFailure } from './errors.js';
import { commentOnPullRequest } from './github/comment.js';
import { writeRefusedInputs } from './runner/outputs.js';
import { previewOutput } from './sessions/connection.js';
import { saveInitialState } from './sessions/state.js';
import { onCancel } from './runner/signals.js';
import type { ServiceClient } from './service/client.js';

export async function run(command?: CommandName, io: ActionIO = createCoreIO()): Promise<void> {
  // Before anything can fail: every name the post step reads (the root action and
  // start-device-session have one), so that none of them can come from the job's environment.
  if (command === undefined || COMMANDS[command].post) saveInitialState(io);
  const source = inputSource(io);
  // Before the command is known, every input that may hold a secret is masked.
  maskSecretInputs(io);

  let invocation: Invocation;
  let chosen = command;
  try {
    chosen ??= readCommand(source);
    if (!command) for (const warning of unusedInputWarnings(chosen, source)) io.warning(warning);
    invocation = COMMANDS[chosen].read(source);
    if (invocation.baseUrl) for (const warning of transportWarnings(invocation.baseUrl)) io.warning(warning);
    for (const note of invocation.notes) io[note.level](note.text);
  } catch (error) {
    // The outputs set on every path (`outcome`) say the step failed.
    if (chosen) writeRefusedInputs(io, COMMANDS[chosen].outputs);
    reportFailure(io, error);
    return;
  }

  const cancellation = new AbortController();
  const stopListening = onCancel(({ signal }) => {
    if (!cancellation.signal.aborted) io.info(`Received ${signal}: cancelling.`);
    process.exitCode = 1;
    cancellation.abort();
  });
  // The outputs the command sets are kept for the pull-request comment (`comment: true`).
  const { comment } = invocation;
  const outputs: Record<string, string> = {};
  let client: ServiceClient | undefined;
  let failed = false;
  try {
    await invocation.run({
      io,
      signal: cancellation.signal,
      workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
      client: (api) => (client ??= createClient(api, io)),
      written: outputs,
    });
    // The signal came as the command finished: exit 1 (cancelled) with a message, never in silence.
    if (cancellation.signal.aborted)
      throw new ActionFailure('The step was cancelled just as the command finished (its outputs are set).');
  } catch (error) {
    reportFailure(io, error);
    // The comment says only that the step failed: the message may quote the service (see github/comment-body.ts).
    failed = true;
  } finally {
    client?.dispose();
    stopListening();
  }
  if (!comment) return;
  // Decided by the inputs, not the outcome: a dry run that failed tells GitHub nothing either.
  if (comment.withheld) return io.info(comment.withheld);
  if (cancellation.signal.aborted)
    return io.info('The step was cancelled; no pull request comment was posted.');
  await commentOnPullRequest(
    { githubToken: comment.githubToken ?? '' },
    {
      kind: comment.kind,
      subject: comment.subject,
      variant: comment.variant,
      leg: comment.leg,
      outputs,
      failed,
      preview: previewOutput(outputs),
    },
    io,
  );
}
