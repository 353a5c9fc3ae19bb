/** Inputs of `wait-for-device-session`: wait until a session started earlier is ready. */
import * as parse from './parsers.js';
import {
  apiSettings,
  baseUrl,
  exportEnv,
  pollInterval,
  readTable,
  settled,
  timeout,
  token,
  type ApiSettings,
  type CommandSpec,
  type InputSource,
} from './table.js';
import { SESSION_OUTPUTS } from './start-device-session.js';

export const waitForDeviceSession = {
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
} satisfies CommandSpec;

export interface WaitForSessionSettings {
  command: 'wait-for-device-session';
  api: ApiSettings;
  sessionId: string;
  exportEnv: boolean;
}

export function readWaitForDeviceSession(source: InputSource): WaitForSessionSettings {
  const { values, problems } = readTable(waitForDeviceSession.inputs, source);
  return settled(
    {
      command: 'wait-for-device-session',
      api: apiSettings(values),
      sessionId: values['session-id'] ?? '',
      exportEnv: values['export-env'] ?? true,
    },
    problems,
  );
}
