/**
 * The main step. Order matters: secrets are masked before anything else is written, then every
 * input is validated before the first request, then the command runs. Expected failures end in
 * one clear error line and exit code 1; never a stack trace.
 */
import * as core from '@actions/core';
import { createCoreIO, type ActionIO } from './io.js';
import { coreInputSource } from './core-inputs.js';
import { readSettings, type Settings } from './inputs.js';
import { createClient } from './client-factory.js';
import { describeFailure } from './failure.js';
import { runWorkflow } from './commands/run-workflow.js';
import { startDeviceSession } from './commands/start-device-session.js';
import { stopDeviceSessionCommand } from './commands/stop-device-session.js';
import { verifyWebhook } from './commands/verify-webhook.js';

export async function run(): Promise<void> {
  const io = createCoreIO();
  const source = coreInputSource();
  maskSecretInputs(io);

  let settings: Settings;
  try {
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
  try {
    await runCommand(settings, io, cancellation.signal);
  } catch (error) {
    fail(io, error);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function runCommand(settings: Settings, io: ActionIO, signal: AbortSignal): Promise<void> {
  if (settings.command === 'verify-webhook') return verifyWebhook(settings, io);
  const client = createClient(settings.api, io);
  try {
    switch (settings.command) {
      case 'run-workflow':
        return await runWorkflow(settings, { io, client, signal });
      case 'start-device-session':
        return await startDeviceSession(settings, { io, client, signal });
      case 'stop-device-session':
        return await stopDeviceSessionCommand(settings, { io, client, signal });
    }
  } finally {
    client.dispose();
  }
}

/** Masks every input that may hold a secret, whatever the command, before anything is printed. */
function maskSecretInputs(io: ActionIO): void {
  for (const name of ['token', 'webhook-secret']) {
    const value = core.getInput(name);
    if (value) io.mask(value);
  }
  if (process.env.SVC_TOKEN?.trim()) io.mask(process.env.SVC_TOKEN.trim());
}

function fail(io: ActionIO, error: unknown): void {
  const { message, stack } = describeFailure(error);
  if (stack) io.debug(stack);
  io.error(message);
  process.exitCode = 1;
}
