/**
 * start-device-session: create a remote device session, with step state saved before and after the
 * request (so the post step can stop it, or say that one may exist, whatever happens next), then
 * (unless `wait: false`) wait for its connection details like wait-for-device-session does.
 */
import * as parse from '../inputs/parsers.js';
import {
  apiSettings,
  appId,
  baseUrl,
  comment,
  exportEnv,
  githubToken,
  pollInterval,
  timeout,
  token,
  type InputTable,
  type Values,
} from '../inputs/table.js';
import {
  PLATFORMS,
  SESSION_LIMITS as LIMITS,
  SESSION_TYPES,
  type CreateSessionRequest,
} from '../service/contract.js';
import { ActionFailure } from '../errors.js';
import { renderSessionSummary } from '../sessions/report/session-summary.js';
import { CANCELLED_AFTER_CREATE, CANCELLED_BEFORE_NEXT_ATTEMPT } from '../sessions/report/failures.js';
import { oneLine } from '../text/one-line.js';
import { waitUntilReady } from '../sessions/ready.js';
import { CONNECTION_OUTPUTS, SESSION_ID_LINE, writeSessionOutputs } from '../sessions/connection.js';
import { MAX_SESSIONS as MAX_START_ATTEMPTS, SessionLedger } from '../sessions/state.js';
import { stopAndFail } from '../sessions/stop.js';
import { closeErrored, createSession } from '../sessions/create.js';
import { DEFAULT_SESSION_TYPE, commentSubject, defaultSessionName } from '../sessions/name.js';
import type { AttemptRecord } from '../sessions/report/accounting.js';
import { defineCommand } from './command.js';
import { hostOf } from '../service/base-url.js';
import { stepClock } from '../text/clock.js';

const platforms = PLATFORMS.map((platform) => `\`${platform}\``).join(' or ');

const inputs = {
  token,
  'base-url': baseUrl,
  'app-id': appId,
  platform: {
    description: `${platforms}.`,
    required: true,
    hint: `allowed: ${PLATFORMS.join(', ')}.`,
    parse: parse.oneOf(PLATFORMS),
  },
  name: {
    description:
      `Session name, up to ${LIMITS.nameLength} characters. ` +
      `Default: built from the GitHub context as repository · workflow #run.attempt · job, such as \`acme/app · CI #42.1 · e2e\` (matrix values are not in it: ` +
      `put them in \`name\` yourself); none outside a runner.`,
    fallback: (source) => defaultSessionName(source.env),
    parse: parse.text(LIMITS.nameLength),
  },
  type: {
    description: `The controller: \`${DEFAULT_SESSION_TYPE}\` (the service default), \`appium\`, \`argent\` or \`serve-sim\` (iOS only, browser preview).`,
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
  'start-attempts': {
    description:
      `How many sessions to create in all, 1 to ${MAX_START_ATTEMPTS}, when one ends \`errored\` before it is ready: ` +
      `that session is stopped and another created, each waited for up to \`timeout-minutes\`. ` +
      `A timeout, a cancellation or a failed create never starts another. ` +
      `Needs \`wait: true\`.`,
    default: '1',
    parse: parse.integer(1, MAX_START_ATTEMPTS),
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
} satisfies InputTable;

type StartValues = Values<typeof inputs>;

export const startDeviceSession = defineCommand({
  description:
    'Create a remote iOS or Android device session and (unless `wait: ' +
    'false`) wait until it is ready; expose its connection as masked outputs and environment variables. ' +
    'The post step stops it when the job ends.',
  inputs,
  outputs: {
    ...CONNECTION_OUTPUTS,
    'session-id': { description: 'The session id, set as soon as the session exists.', when: 'created' },
    'session-url': { ...CONNECTION_OUTPUTS['session-url'], when: 'created' },
    'job-run-id': { ...CONNECTION_OUTPUTS['job-run-id'], when: 'created' },
    status: {
      description: 'The last status seen (`new` with `wait: false`, `in-progress` once ready).',
      when: 'ready',
    },
  },
  post: true,
  rules: sessionRules,
  // Keyed by what stays the same from run to run: never the default name, which has the run number.
  comment: (values, source) => ({
    kind: 'start-device-session',
    subject: commentSubject(
      source.input('name'),
      { platform: values.platform, type: values.type, deviceIdentifier: values['device-identifier'] },
      source.env,
    ),
  }),

  async run(values, context) {
    const { io, outputs, signal } = context;
    const api = apiSettings(values);
    const client = context.client(api);
    const service = { io, outputs, client, signal };
    const request = createRequest(values);
    const of = values['start-attempts'];
    const ledger = new SessionLedger(io);
    // Saved before the request: a create whose answer never arrives may still have started a session.
    ledger.saveSettings({
      baseUrl: api.baseUrl,
      appId: request.appId,
      autoStop: values['auto-stop'],
      pollIntervalMs: api.pollIntervalMs,
    });
    const earlier: AttemptRecord[] = [];
    for (let attempt = 1; ; attempt++) {
      const startedAt = stepClock().now();
      const counted = of > 1 ? ` (attempt ${attempt} of ${of})` : '';
      io.info(
        `Creating ${request.platform} device session${request.name ? ` ${oneLine(request.name, 80)}` : ''} (type ${request.type ?? DEFAULT_SESSION_TYPE}${request.deviceIdentifier ? `, device ${oneLine(request.deviceIdentifier, 80)}` : ''}) at ${hostOf(api.baseUrl)}${counted}.`,
      );
      const created = await createSession(request, service, {
        ledger,
        exportEnv: values['export-env'],
        autoStop: values['auto-stop'],
        sentAt: startedAt,
        attempt,
      });
      if (signal.aborted) return stopAndFail(service, created, CANCELLED_AFTER_CREATE, { ledger });
      if (!values.wait) {
        writeSessionOutputs(outputs, 'last-seen', created);
        io.info(
          `Not waiting for the session (wait: false). Wait for session ${created.id} later with wait-for-device-session and \`${SESSION_ID_LINE}\`, <id> being this step's id.`,
        );
        await io.appendSummary(
          renderSessionSummary({ session: created, outcome: 'started', note: stopNote(values) }, io.redact),
        );
        return;
      }
      const result = await waitUntilReady(
        created,
        {
          exportEnv: values['export-env'],
          api,
          note: stopNote(values),
          attempt: of > 1 ? { number: attempt, of, earlier } : undefined,
          retryIfErrored: attempt < of,
          ledger,
        },
        service,
        { startedAt, firstReadAfterInterval: true },
      );
      if (result.kind === 'ready') return;
      // Errored before it was ready, and another attempt is allowed.
      const errored = result.session;
      await closeErrored(service, errored, ledger);
      earlier.push({ id: errored.id, url: errored.url ?? created.url, status: errored.status });
      const how = errored.startedAt
        ? `errored before this step could use it (it had started at ${oneLine(errored.startedAt, 40)})`
        : 'errored before it was ready';
      io.info(
        `Attempt ${attempt} of ${of}: device session ${errored.id} ${how}; creating another (attempt ${attempt + 1} of ${of}).`,
      );
      if (signal.aborted) throw new ActionFailure(CANCELLED_BEFORE_NEXT_ATTEMPT);
    }
  },
});

/** The create request's fields: the inputs in the service's camelCase, those not given left out. */
function createRequest(values: StartValues): CreateSessionRequest {
  const request: CreateSessionRequest = {
    appId: values['app-id'],
    platform: values.platform,
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
  };
  return Object.fromEntries(
    Object.entries(request).filter(([, value]) => value !== undefined),
  ) as CreateSessionRequest;
}

function stopNote(values: StartValues): string {
  return values['auto-stop']
    ? 'The post step stops this session when the job ends.'
    : '`auto-stop: false`: the session runs until it is stopped or reaches its limits.';
}

/** The spec's rules across fields: application sources, idle below duration, serve-sim limits. */
function sessionRules(values: Partial<Values<typeof inputs>>): string[] {
  const problems: string[] = [];
  if ((values['start-attempts'] ?? 1) > 1 && values.wait === false)
    problems.push(
      '`start-attempts` needs `wait: true`: with `wait: false` the step does not see whether the session becomes ready.',
    );
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
