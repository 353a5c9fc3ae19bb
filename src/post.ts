/**
 * The post step: runs when the job ends, whatever its outcome (post-if: always()). It stops the
 * device session that this step's main part created. Nothing saved → nothing to do. A session that
 * cannot be confirmed stopped fails the post step with an error annotation: never silent.
 */
import * as core from './actions-core.js';
import { createCoreIO } from './io.js';
import { coreInputSource, maskSecretInputs } from './core-inputs.js';
import { readApiSettings } from './inputs.js';
import { createClient } from './client-factory.js';
import { describeFailure } from './failure.js';
import { STATE } from './commands/start-device-session.js';
import { logStopped, stopSession } from './commands/stop-device-session.js';

const POST_STOP_WITHIN_MS = 2 * 60_000;

export async function run(): Promise<void> {
  const io = createCoreIO();
  maskSecretInputs(io);

  const sessionId = core.getState(STATE.sessionId);
  if (!sessionId) {
    io.info('No device session was started by this step; nothing to stop.');
    return;
  }
  const sessionUrl = core.getState(STATE.sessionUrl);
  if (core.getState(STATE.stopped) === 'true') {
    io.info(`Device session ${sessionId} already ended during the main step.`);
    return;
  }
  if (core.getState(STATE.autoStop) === 'false') {
    io.notice(
      `auto-stop is false: device session ${sessionId} keeps running until it is stopped or reaches its limits. ${sessionUrl}`.trimEnd(),
    );
    return;
  }

  try {
    const api = readApiSettings(coreInputSource(), 'start-device-session');
    const client = createClient(api, io);
    try {
      const session = await stopSession(client, sessionId, {
        deadline: Date.now() + POST_STOP_WITHIN_MS,
        sessionUrl,
      });
      logStopped(io, session);
    } finally {
      client.dispose();
    }
  } catch (error) {
    const { message, stack } = describeFailure(error);
    if (stack) io.debug(stack);
    io.error(
      message.includes(sessionId)
        ? message
        : `Could not stop device session ${sessionId} ${sessionUrl}: ${message}`,
    );
    process.exitCode = 1;
  }
}
