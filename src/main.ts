/**
 * The main step. Order matters: secrets are masked before anything else is written, then every
 * input is validated before the first request, then the command runs. Expected failures end in
 * one clear error line and exit code 1; never a stack trace.
 */
import * as core from './actions-core.js';
import { createCoreIO, type ActionIO } from './io.js';
import { coreInputSource, maskSecretInputs } from './core-inputs.js';
import {
  readSettings,
  type RunWorkflowSettings,
  type Settings,
  type StartSessionSettings,
} from './inputs.js';
import { createClient } from './client-factory.js';
import { ActionFailure, describeFailure } from './failure.js';
import { preloadYaml } from './lazy-yaml.js';
import { commentOnPullRequest } from './pr-comment.js';

export async function run(): Promise<void> {
  const io = createCoreIO();
  const source = coreInputSource();
  maskSecretInputs(io);

  let settings: Settings;
  try {
    // The YAML parser is loaded only when there is YAML to parse (see lazy-yaml.ts).
    if (core.getInput('inputs')) await preloadYaml();
    const read = readSettings(source);
    settings = read.settings;
    for (const warning of read.warnings) io.warning(warning);
  } catch (error) {
    fail(io, error);
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
  // With `comment: true` the job summary the command writes is kept for the pull-request comment.
  const comment = 'comment' in settings ? settings.comment : undefined;
  const summaries: string[] = [];
  const commandIO: ActionIO = comment
    ? { ...io, appendSummary: (markdown) => (summaries.push(markdown), io.appendSummary(markdown)) }
    : io;
  let failure: string | undefined;
  try {
    await runCommand(settings, commandIO, cancellation.signal);
    // The signal came as the command finished: exit 1 (cancelled) with a message, never in silence.
    if (cancellation.signal.aborted)
      throw new ActionFailure('The step was cancelled just as the command finished (its outputs are set).');
  } catch (error) {
    failure = describeFailure(error).message;
    fail(io, error);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (comment && (settings.command === 'run-workflow' || settings.command === 'start-device-session')) {
    if (cancellation.signal.aborted) io.info('The step was cancelled; no pull request comment was posted.');
    else
      // pr-comment.ts loads @actions/github lazily: the default path never loads it.
      await commentOnPullRequest(
        comment,
        { command: settings.command, subject: commentSubject(settings), summaries, failure },
        io,
      );
  }
}

function commentSubject(settings: RunWorkflowSettings | StartSessionSettings): string {
  if (settings.command === 'run-workflow') return settings.fileName;
  const { name, platform, type } = settings.request;
  return name ?? `${platform} ${type ?? 'agent-device'}`;
}

/** Each command is a chunk of its own in the bundle: a step loads only the command it runs. */
async function runCommand(settings: Settings, io: ActionIO, signal: AbortSignal): Promise<void> {
  if (settings.command === 'verify-webhook') {
    const { verifyWebhook } = await import('./commands/verify-webhook.js');
    return verifyWebhook(settings, io);
  }
  const client = createClient(settings.api, io);
  try {
    switch (settings.command) {
      case 'run-workflow': {
        const { runWorkflow } = await import('./commands/run-workflow.js');
        return await runWorkflow(settings, { io, client, signal });
      }
      case 'start-device-session': {
        const { startDeviceSession } = await import('./commands/start-device-session.js');
        return await startDeviceSession(settings, { io, client, signal });
      }
      case 'stop-device-session': {
        const { stopDeviceSessionCommand } = await import('./commands/stop-device-session.js');
        return await stopDeviceSessionCommand(settings, { io, client, signal });
      }
    }
  } finally {
    client.dispose();
  }
}

function fail(io: ActionIO, error: unknown): void {
  const { message, stack } = describeFailure(error);
  if (stack) io.debug(stack);
  io.error(message);
  process.exitCode = 1;
}
