/** stop-device-session: stop a session by id and wait until the service confirms it. */
import * as parse from '../inputs/parsers.js';
import { apiSettings, baseUrl, timeout, token } from '../inputs/table.js';
import { logStopped, stopSession, StopNotConfirmed } from '../sessions/stop.js';
import { renderStopSummary } from '../sessions/report/stop-summary.js';
import { defineCommand } from './command.js';
import { SESSION_ID_HINT, writeSessionOutputs } from '../sessions/connection.js';
import { hostOf } from '../service/base-url.js';
import { stepClock } from '../text/clock.js';

export const stopDeviceSession = defineCommand({
  description: 'Stop a device session by id and wait until the service confirms it. Idempotent.',
  inputs: {
    token,
    'base-url': baseUrl,
    'session-id': {
      description: 'The session id (UUID).',
      required: true,
      hint: SESSION_ID_HINT,
      parse: parse.uuid,
    },
    'timeout-minutes': timeout(5, 'for the service to confirm the stop'),
  },
  outputs: {
    status: { description: 'The session status after the stop (`stopped` or `errored`).', when: 'stopped' },
  },

  async run(values, context) {
    const { io, outputs, signal } = context;
    const api = apiSettings(values);
    const sessionId = values['session-id'];
    io.info(`Stopping device session ${sessionId} at ${hostOf(api.baseUrl)}.`);
    let session;
    try {
      session = await stopSession(context.client(api), sessionId, {
        deadline: stepClock().now() + api.timeoutMs,
        signal,
      });
    } catch (error) {
      if (error instanceof StopNotConfirmed)
        await io.appendSummary(
          renderStopSummary({ sessionId, notFound: error.notFound, reason: error.message }, io.redact),
        );
      throw error;
    }
    writeSessionOutputs(outputs, 'stopped', session);
    logStopped(io, session);
    await io.appendSummary(renderStopSummary({ sessionId, session }, io.redact));
  },
});
