/** wait-for-device-session: wait until a session started earlier (with `wait: false`) is ready. */
import * as parse from '../inputs/parsers.js';
import { apiSettings, baseUrl, exportEnv, pollInterval, timeout, token } from '../inputs/table.js';
import { waitUntilReady } from '../sessions/ready.js';
import { CONNECTION_OUTPUTS, SESSION_ID_HINT, writeSessionOutputs } from '../sessions/connection.js';
import { defineCommand } from './command.js';
import { hostOf } from '../service/base-url.js';
import { stepClock } from '../text/clock.js';

export const waitForDeviceSession = defineCommand({
  description:
    'Wait until a device session started earlier (with `wait: ' +
    'false`) is ready and expose its connection like `start-device-session`; ' +
    'a timeout, the session ending or a cancellation stops it and fails the step.',
  inputs: {
    token,
    'base-url': baseUrl,
    // Required, never an environment variable: any later step can rewrite one, and the step would
    // then follow, export the daemon token of, or stop another job's paid session.
    'session-id': {
      description:
        'The session id (UUID): the `session-id` output of the `start-device-session` step that created it (`steps.<id>.outputs.session-id`). Required: the `SVC_DEVICE_SESSION_ID` variable is never read, since any later step can rewrite it.',
      required: true,
      hint: SESSION_ID_HINT,
      parse: parse.uuid,
    },
    'export-env': exportEnv,
    'poll-interval-seconds': pollInterval(5),
    'timeout-minutes': timeout(15, 'for the session to be ready'),
  },
  outputs: { ...CONNECTION_OUTPUTS, 'session-id': { ...CONNECTION_OUTPUTS['session-id'], when: 'started' } },

  async run(values, context) {
    const { io, outputs, signal } = context;
    const api = apiSettings(values);
    const sessionId = values['session-id'];
    writeSessionOutputs(outputs, 'named', { id: sessionId });
    io.info(`Waiting for device session ${sessionId} at ${hostOf(api.baseUrl)} to be ready.`);
    await waitUntilReady(
      { id: sessionId, status: 'unknown', url: null },
      {
        exportEnv: values['export-env'],
        api,
        note: 'This step does not stop the session when the job ends.',
      },
      { io, outputs, client: context.client(api), signal },
      { startedAt: stepClock().now(), firstReadAfterInterval: false },
    );
  },
});
