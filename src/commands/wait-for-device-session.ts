/** wait-for-device-session: wait until a session started earlier (with `wait: false`) is ready. */
import * as parse from '../inputs/parsers.js';
import { apiSettings, baseUrl, exportEnv, pollInterval, timeout, token } from '../inputs/table.js';
import { SESSION_OUTPUTS, waitUntilReady } from '../sessions/ready.js';
import { defineCommand } from './command.js';
import { hostOf } from '../github/context.js';

export const waitForDeviceSession = defineCommand({
  description:
    'Wait until a device session started earlier (with `wait: false`) is ready and expose its connection like `start-device-session`; a timeout, the session ending or a cancellation stops it and fails the step.',
  inputs: {
    token,
    'base-url': baseUrl,
    'session-id': {
      description:
        'The session id (UUID). Default: the `SVC_DEVICE_SESSION_ID` environment variable that `start-device-session` exports.',
      fallbackEnv: 'SVC_DEVICE_SESSION_ID',
      required: true,
      hint: 'the session id (the `session-id` output of `start-device-session`), or set SVC_DEVICE_SESSION_ID.',
      parse: parse.uuid,
    },
    'export-env': exportEnv,
    'poll-interval-seconds': pollInterval(5),
    'timeout-minutes': timeout(15, 'for the session to be ready'),
  },
  outputs: SESSION_OUTPUTS,

  async run(values, context) {
    const { io, signal } = context;
    const api = apiSettings(values);
    const sessionId = values['session-id'];
    io.setOutput('session-id', sessionId);
    io.info(`Waiting for device session ${sessionId} at ${hostOf(api.baseUrl)} to be ready.`);
    await waitUntilReady(
      { id: sessionId, status: 'unknown', url: null },
      {
        exportEnv: values['export-env'],
        api,
        note: 'This step does not stop the session when the job ends.',
      },
      { io, client: context.client(api), signal },
      { startedAt: Date.now(), firstReadAfterInterval: false },
    );
  },
});
