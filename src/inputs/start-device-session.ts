/** Inputs of `start-device-session`: create a remote device session, then wait until it is ready. */
import * as parse from './parsers.js';
import {
  apiSettings,
  appId,
  baseUrl,
  comment,
  exportEnv,
  githubToken,
  pollInterval,
  readTable,
  settled,
  timeout,
  token,
  type ApiSettings,
  type CommandSpec,
  type InputSource,
  type Values,
} from './table.js';
import {
  PLATFORMS,
  SESSION_LIMITS as LIMITS,
  SESSION_TYPES,
  type CreateSessionRequest,
} from '../service/contract.js';

/** The outputs of a ready session, shared by start-device-session and wait-for-device-session. */
export const SESSION_OUTPUTS = {
  'session-id': 'The session id (set as soon as the session exists).',
  'session-url': "The session's page on the service.",
  'job-run-id': 'The id of the job run behind the session.',
  status: 'The last status seen (`new` with `wait: false`, `in-progress` once ready).',
  'remote-config': 'The `remoteConfig` object as JSON (credentials in it are masked).',
  'agent-device-remote-session-url': 'agent-device: the daemon URL.',
  'agent-device-remote-session-token': 'agent-device: the daemon token (masked).',
  'tools-url': 'argent: the tools URL.',
  'tools-auth-token': 'argent: the tools token, when there is one (masked).',
  'appium-url': 'Appium: the server URL.',
  capabilities: 'Appium: the capabilities, as JSON.',
  'web-preview-url': 'iOS: the web preview URL.',
  'preview-url': 'serve-sim: the preview URL.',
};

export const startDeviceSession = {
  description:
    'Create a remote iOS or Android device session and (unless `wait: false`) wait until it is ready; expose its connection as masked outputs and environment variables. The post step stops it when the job ends.',
  inputs: {
    token,
    'base-url': baseUrl,
    'app-id': appId,
    platform: {
      description: '`ios` or `android`.',
      required: true,
      hint: `allowed: ${PLATFORMS.join(', ')}.`,
      parse: parse.oneOf(PLATFORMS),
    },
    name: {
      description: `Session name, up to ${LIMITS.nameLength} characters.`,
      parse: parse.text(LIMITS.nameLength),
    },
    type: {
      description:
        'The controller: `agent-device` (the service default), `appium`, `argent` or `serve-sim` (iOS only, browser preview).',
      parse: parse.oneOf(SESSION_TYPES),
    },
    'package-version': {
      description: "Version of the session type's package. Default: the service's.",
      parse: parse.text(128),
    },
    'device-identifier': {
      description:
        'iOS simulator name or UDID, or Android virtual device profile. Default: the service picks one.',
      parse: parse.text(255),
    },
    'max-duration-minutes': {
      description: `Whole minutes from 0 to ${LIMITS.maxDurationMinutes}, within the account limit. Default: the account's.`,
      parse: parse.integer(0, LIMITS.maxDurationMinutes),
    },
    'max-idle-time-minutes': {
      description: `Whole minutes from 1 to ${LIMITS.maxIdleTimeMinutesExclusive - 1}, smaller than \`max-duration-minutes\`; not for \`serve-sim\`.`,
      parse: parse.integer(1, LIMITS.maxIdleTimeMinutesExclusive - 1),
    },
    'build-id': {
      description: 'Application source: a build id (UUID) to install. At most one application source.',
      parse: parse.uuid,
    },
    'application-archive-url': {
      description: 'Application source: an http(s) URL of an app archive, up to 2048 characters.',
      parse: parse.httpUrl(LIMITS.applicationArchiveUrlLength),
    },
    'svc-go': {
      description: 'Application source: `true` installs the hosted client app.',
      default: 'false',
      parse: parse.boolean,
    },
    'sdk-version': {
      description:
        "With `svc-go: true`: the hosted client app's major version, such as `52`. Default: the current release.",
      parse: parse.majorVersion,
    },
    'launch-args': {
      description: 'Launch arguments, one per line or a JSON array of strings; needs an application source.',
      parse: parse.launchArgs,
    },
    'open-url': {
      description: 'A URL to open once the app is installed (`myapp://path`); needs an application source.',
      parse: parse.schemeUrl,
    },
    wait: {
      description:
        '`false`: return right after the create (status `new`) and wait later with `wait-for-device-session`.',
      default: 'true',
      parse: parse.boolean,
    },
    'export-env': exportEnv,
    'auto-stop': {
      description: '`true`: the post step stops the session when the job ends, whatever its outcome.',
      default: 'true',
      parse: parse.boolean,
    },
    'poll-interval-seconds': pollInterval(5),
    'timeout-minutes': timeout(15, 'for the session to be ready'),
    comment,
    'github-token': githubToken,
  },
  outputs: SESSION_OUTPUTS,
  post: true,
} satisfies CommandSpec;

export interface StartSessionSettings {
  command: 'start-device-session';
  api: ApiSettings;
  request: CreateSessionRequest;
  wait: boolean;
  exportEnv: boolean;
  autoStop: boolean;
  comment?: { githubToken: string };
}

export function readStartDeviceSession(source: InputSource): StartSessionSettings {
  const { values, problems } = readTable(startDeviceSession.inputs, source);
  problems.push(...sessionRules(values));
  return settled(
    {
      command: 'start-device-session',
      api: apiSettings(values),
      request: {
        appId: values['app-id'] ?? '',
        platform: values.platform ?? 'ios',
        name: values.name,
        type: values.type,
        packageVersion: values['package-version'],
        deviceIdentifier: values['device-identifier'],
        maxDurationMinutes: values['max-duration-minutes'],
        maxIdleTimeMinutes: values['max-idle-time-minutes'],
        buildId: values['build-id'],
        applicationArchiveUrl: values['application-archive-url'],
        svcGo: values['svc-go'] || undefined,
        sdkVersion: values['sdk-version'],
        launchArgs: values['launch-args'],
        openUrl: values['open-url'],
      },
      wait: values.wait ?? true,
      exportEnv: values['export-env'] ?? true,
      autoStop: values['auto-stop'] ?? true,
      comment: values.comment ? { githubToken: values['github-token'] ?? '' } : undefined,
    },
    problems,
  );
}

/** The spec's rules across fields: application sources, idle below duration, serve-sim limits. */
function sessionRules(values: Values<typeof startDeviceSession.inputs>): string[] {
  const problems: string[] = [];
  const idle = values['max-idle-time-minutes'];
  const duration = values['max-duration-minutes'];
  if (idle !== undefined && duration !== undefined && idle >= duration)
    problems.push(
      `\`max-idle-time-minutes\` (${idle}) must be smaller than \`max-duration-minutes\` (${duration}).`,
    );
  if (values.type === 'serve-sim' && idle !== undefined)
    problems.push(
      '`max-idle-time-minutes` is not supported for `type: serve-sim`; remove it or choose another type.',
    );
  if (values.type === 'serve-sim' && values.platform === 'android')
    problems.push('`type: serve-sim` is iOS only; use `platform: ios` or another type.');
  const sources = [
    values['build-id'] !== undefined && '`build-id`',
    values['application-archive-url'] !== undefined && '`application-archive-url`',
    values['svc-go'] && '`svc-go: true`',
  ].filter(Boolean);
  if (sources.length > 1)
    problems.push(
      `only one application source is allowed, but ${sources.join(', ')} are set; keep one of them.`,
    );
  if (values['sdk-version'] !== undefined && !values['svc-go'])
    problems.push('`sdk-version` is valid only with `svc-go: true`.');
  const needsSource = (['launch-args', 'open-url'] as const).filter((name) => values[name] !== undefined);
  for (const name of needsSource)
    if (sources.length === 0)
      problems.push(
        `\`${name}\` requires an application source (\`build-id\`, \`application-archive-url\` or \`svc-go: true\`).`,
      );
  return problems;
}
