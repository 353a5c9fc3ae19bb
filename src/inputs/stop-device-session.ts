/** Inputs of `stop-device-session`: stop a session by id. */
import * as parse from './parsers.js';
import {
  apiSettings,
  baseUrl,
  readTable,
  settled,
  timeout,
  token,
  type ApiSettings,
  type CommandSpec,
  type InputSource,
} from './table.js';

export const stopDeviceSession = {
  description: 'Stop a device session by id and wait until the service confirms it. Idempotent.',
  inputs: {
    token,
    'base-url': baseUrl,
    'session-id': {
      description: 'The session id (UUID).',
      required: true,
      hint: 'the id of the session to stop, a UUID.',
      parse: parse.uuid,
    },
    'timeout-minutes': timeout(5, 'for the service to confirm the stop'),
  },
  outputs: { status: 'The session status after the stop (`stopped` or `errored`).' },
} satisfies CommandSpec;

export interface StopSessionSettings {
  command: 'stop-device-session';
  api: ApiSettings;
  sessionId: string;
}

export function readStopDeviceSession(source: InputSource): StopSessionSettings {
  const { values, problems } = readTable(stopDeviceSession.inputs, source);
  return settled(
    { command: 'stop-device-session', api: apiSettings(values), sessionId: values['session-id'] ?? '' },
    problems,
  );
}
