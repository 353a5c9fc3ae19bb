/**
 * The main step of every command. Order matters: secrets are masked before anything else is
 * written, then every input is validated before the first request, then the command runs.
 * Expected failures end in one clear error line and exit code 1; never a stack trace.
 *
 * `run(command)` is what each sub-action's bundle calls; `run()` without a command is the root
 * action, where the `command` input chooses.
 */
import { createCoreIO, type ActionIO } from './io.js';
import { coreInputSource, maskSecretInputs } from './core-inputs.js';
import {
  readCommand,
  readSettings,
  unusedInputWarnings,
  type Command,
  type CommentSettings,
  type Settings,
} from './inputs/index.js';
import { createClient } from './client-factory.js';
import { ActionFailure, reportFailure } from './errors.js';
import { commentOnPullRequest, recordingOutputs } from './pr-comment.js';
import { runWorkflow } from './commands/run-workflow.js';
import { waitForRun } from './commands/wait-for-run.js';
import { startDeviceSession } from './commands/start-device-session.js';
import { waitForDeviceSession } from './commands/wait-for-device-session.js';
import { stopDeviceSessionCommand } from './commands/stop-device-session.js';
import { verifyWebhook } from './commands/verify-webhook.js';

export async function run(command?: Command, io: ActionIO = createCoreIO()): Promise<void> {
  const source = coreInputSource(io);
  // Before the command is known, every input that may hold a secret is masked.
  maskSecretInputs(io);

  let settings: Settings;
  try {
    const chosen = command ?? readCommand(source);
    if (!command) for (const warning of unusedInputWarnings(chosen, source)) io.warning(warning);
    const read = readSettings(chosen, source);
    settings = read.settings;
    for (const warning of read.warnings) io.warning(warning);
  } catch (error) {
    reportFailure(io, error);
    return;
  }

  const cancellation = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!cancellation.signal.aborted) io.info(`Received ${signal}: cancelling.`);
    process.exitCode = 1;
    cancellation.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // With `comment: true` the outputs the command sets are kept for the pull-request comment.
  const comment = 'comment' in settings ? settings.comment : undefined;
  const outputs: Record<string, string> = {};
  const commandIO: ActionIO = comment ? recordingOutputs(io, outputs) : io;
  let failure: string | undefined;
  try {
    await runCommand(settings, commandIO, cancellation.signal);
    // The signal came as the command finished: exit 1 (cancelled) with a message, never in silence.
    if (cancellation.signal.aborted)
      throw new ActionFailure('The step was cancelled just as the command finished (its outputs are set).');
  } catch (error) {
    // The comment says only that the step failed: the message may quote the service (see pr-comment.ts).
    failure = io.redact(reportFailure(io, error));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (comment) await postComment(settings, comment, outputs, failure, io, cancellation.signal);
}

async function runCommand(settings: Settings, io: ActionIO, signal: AbortSignal): Promise<void> {
  if (settings.command === 'verify-webhook') return verifyWebhook(settings, io);
  const client = createClient(settings.api, io);
  const context = { io, client, signal };
  try {
    switch (settings.command) {
      case 'run-workflow':
        return await runWorkflow(settings, context);
      case 'wait-for-run':
        return await waitForRun(settings, context);
      case 'start-device-session':
        return await startDeviceSession(settings, context);
      case 'wait-for-device-session':
        return await waitForDeviceSession(settings, context);
      case 'stop-device-session':
        return await stopDeviceSessionCommand(settings, context);
    }
  } finally {
    client.dispose();
  }
}

async function postComment(
  settings: Settings,
  comment: CommentSettings,
  outputs: Record<string, string>,
  failure: string | undefined,
  io: ActionIO,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return io.info('The step was cancelled; no pull request comment was posted.');
  let subject: string;
  if (settings.command === 'run-workflow') subject = settings.fileName;
  else if (settings.command === 'wait-for-run') subject = `run ${settings.runId}`;
  else if (settings.command === 'start-device-session')
    subject =
      settings.request.name ?? `${settings.request.platform} ${settings.request.type ?? 'agent-device'}`;
  else return;
  // The comment reports what the command did: its kind is the command that started the thing followed.
  const kind = settings.command === 'start-device-session' ? 'start-device-session' : 'run-workflow';
  await commentOnPullRequest(comment, { command: kind, subject, outputs, failed: failure !== undefined }, io);
}
