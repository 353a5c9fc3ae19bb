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
  isUuid,
  type CreateSessionRequest,
  type DeviceSession,
} from '../service/contract.js';
import { NetworkError, ResponseFormatError, RetriesExhaustedError, ServiceError } from '../service/errors.js';
import { ActionFailure } from '../errors.js';
import { renderSessionSummary } from '../sessions/summary.js';
import { oneLine, withoutFinalDots } from '../text/plain.js';
import { SESSION_OUTPUTS, waitUntilReady } from '../sessions/ready.js';
import { STATE, saveSessions, type SavedSession } from '../sessions/state.js';
import { stopAndFail, stopSession } from '../sessions/stop.js';
import { commentSubject, defaultSessionName } from '../sessions/name.js';
import type { AttemptRecord } from '../sessions/accounting.js';
import { defineCommand } from './command.js';
import { hostOf, type ServiceContext } from '../github/context.js';

/** The most sessions one step may create (start-attempts): each is a paid device. */
const MAX_START_ATTEMPTS = 5;

const inputs = {
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
    description: `Session name, up to ${LIMITS.nameLength} characters. Default: built from the GitHub context as repository · workflow #run.attempt · job, such as \`acme/app · CI #42.1 · e2e\` (matrix values are not in it: put them in \`name\` yourself); none outside a runner.`,
    fallback: (source) => defaultSessionName(source.env),
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
  'start-attempts': {
    description: `How many sessions to create in all, 1 to ${MAX_START_ATTEMPTS}, when one ends \`errored\` before it is ready: that session is stopped and another created, each waited for up to \`timeout-minutes\`. A timeout, a cancellation or a failed create never starts another. Needs \`wait: true\`.`,
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
    'Create a remote iOS or Android device session and (unless `wait: false`) wait until it is ready; expose its connection as masked outputs and environment variables. The post step stops it when the job ends.',
  inputs,
  outputs: {
    ...SESSION_OUTPUTS,
    'session-id': 'The session id, set as soon as the session exists.',
    status: 'The last status seen (`new` with `wait: false`, `in-progress` once ready).',
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
    const { io, signal } = context;
    const api = apiSettings(values);
    const client = context.client(api);
    const service = { io, client, signal };
    const request = createRequest(values);
    const of = values['start-attempts'];
    // Saved before the request: a create whose answer never arrives may still have started a session.
    io.saveState(STATE.baseUrl, api.baseUrl);
    io.saveState(STATE.appId, request.appId);
    io.saveState(STATE.autoStop, String(values['auto-stop']));
    io.saveState(STATE.pollIntervalMs, String(api.pollIntervalMs));
    const sessions: SavedSession[] = [];
    const earlier: AttemptRecord[] = [];

    for (let attempt = 1; ; attempt++) {
      const startedAt = Date.now();
      const counted = of > 1 ? ` (attempt ${attempt} of ${of})` : '';
      io.info(
        `Creating ${request.platform} device session${request.name ? ` ${oneLine(request.name, 80)}` : ''} (type ${request.type ?? 'agent-device'}${request.deviceIdentifier ? `, device ${oneLine(request.deviceIdentifier, 80)}` : ''}) at ${hostOf(api.baseUrl)}${counted}.`,
      );
      const created = await create(values, request, service, sessions, startedAt, attempt);
      if (signal.aborted) return stopAndFail(service, created, 'The step was cancelled.');
      if (!values.wait) {
        io.setOutput('status', created.status);
        io.info(
          `Not waiting for the session (wait: false). Wait for it later with the wait-for-device-session command (session-id: ${created.id}${values['export-env'] ? ', or SVC_DEVICE_SESSION_ID' : ''}).`,
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
        },
        service,
        { startedAt, firstReadAfterInterval: true },
      );
      if (result.kind === 'ready') return;
      // Errored before it was ready, and another attempt is allowed.
      const errored = result.session;
      await closeErrored(service, errored, sessions);
      earlier.push({ id: errored.id, url: errored.url ?? created.url, status: errored.status });
      const how = errored.startedAt
        ? `errored before this step could use it (it had started at ${oneLine(errored.startedAt, 40)})`
        : 'errored before it was ready';
      io.info(
        `Attempt ${attempt} of ${of}: device session ${errored.id} ${how}; creating another (attempt ${attempt + 1} of ${of}).`,
      );
      if (signal.aborted)
        throw new ActionFailure('The step was cancelled before another session was created.');
    }
  },
});

/**
 * One create request, with step state saved before it is sent (a create whose answer never arrives
 * may still have started a session) and the session recorded as soon as its id is known.
 */
async function create(
  values: StartValues,
  request: CreateSessionRequest,
  service: ServiceContext,
  sessions: SavedSession[],
  sentAt: number,
  attempt: number,
): Promise<DeviceSession> {
  const { io, client } = service;
  if (attempt > 1) {
    // The single-session keys describe the last attempt: none until its answer arrives.
    io.saveState(STATE.sessionId, '');
    io.saveState(STATE.sessionUrl, '');
    io.saveState(STATE.stopped, '');
  }
  io.saveState(STATE.createInFlight, new Date(sentAt).toISOString());
  let created: DeviceSession;
  try {
    // Not abortable: once the request is sent only its answer tells which session to stop.
    created = await client.createDeviceSession(request, { deadline: sentAt + 60_000 });
  } catch (error) {
    // An answer that names a session but cannot be used otherwise: stop that session, then fail.
    if (error instanceof ResponseFormatError && error.resourceId && isUuid(error.resourceId)) {
      recordSession(service, { id: error.resourceId, url: '' }, values['export-env'], sessions);
      return stopAndFail(service, { id: error.resourceId, url: '' }, error.message);
    }
    // Refused for certain: no session exists, so the post step must not warn that one may.
    if (createdNothing(error)) io.saveState(STATE.createInFlight, '');
    if (featureNotEnabled(error)) throw new ActionFailure(featureNotEnabledMessage(error, request.appId));
    throw error;
  }
  recordSession(service, { id: created.id, url: created.url ?? '' }, values['export-env'], sessions);
  io.setOutput('job-run-id', created.jobRunId ?? '');
  io.info(`Created device session ${created.id}: ${created.url ?? ''}`.trimEnd());
  if (!values['auto-stop'] && attempt === 1)
    io.info(
      'auto-stop is false: the session keeps running after this job until it is stopped or reaches its limits.',
    );
  return created;
}

/**
 * An errored session is over (the stop of an errored session is answered unchanged): the stop makes
 * sure of it. Confirmed, the post step leaves it; otherwise the post step tries again.
 */
async function closeErrored(
  service: ServiceContext,
  session: DeviceSession,
  sessions: SavedSession[],
): Promise<void> {
  try {
    const final = await stopSession(service.client, session.id, {
      deadline: Date.now() + 30_000,
      sessionUrl: session.url ?? undefined,
      signal: service.signal,
    });
    const saved = sessions.find((entry) => entry.id === session.id);
    if (saved) saved.ended = final.status;
    saveSessions(service.io, sessions);
  } catch (error) {
    service.io.warning(
      `Device session ${session.id} errored; the stop sent to close it was not confirmed (${withoutFinalDots((error as Error).message)}). The post step tries again when the job ends.`,
    );
  }
}

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

/** The session exists: state for the post step, its id and page as outputs at once. */
function recordSession(
  context: ServiceContext,
  { id, url }: SavedSession,
  exportEnv: boolean,
  sessions: SavedSession[],
): void {
  const { io } = context;
  io.saveState(STATE.sessionId, id);
  io.saveState(STATE.sessionUrl, url);
  sessions.push({ id, url });
  saveSessions(io, sessions);
  io.setOutput('session-id', id);
  io.setOutput('session-url', url);
  if (exportEnv) io.exportVariable('SVC_DEVICE_SESSION_ID', id);
}

function stopNote(values: StartValues): string {
  return values['auto-stop']
    ? 'The post step stops this session when the job ends.'
    : '`auto-stop: false`: the session runs until it is stopped or reaches its limits.';
}

/**
 * Whether a failed create certainly created nothing: an error answer (4xx but 429: invalid,
 * unauthorised, forbidden, not enabled), or a request that never reached the service. A 5xx or a lost answer may
 * follow a session that exists, so those keep the post step's warning.
 */
function createdNothing(error: unknown): boolean {
  if (error instanceof RetriesExhaustedError) return createdNothing(error.lastError);
  // A 429 is an answer too, but the spec does not say the request was not processed.
  if (error instanceof ServiceError) return error.status >= 400 && error.status < 500 && error.status !== 429;
  return error instanceof NetworkError && error.certainlyNotProcessed;
}

/**
 * The spec's rule 4 of the create: "Creation fails with 400 when the feature is not enabled for the
 * account". Its error codes are "not shown", so the service's message tells this 400 from a bad input.
 */
const NOT_ENABLED = /\b(?:not\s+(?:been\s+)?enabled|disabled|not\s+available|no\s+access)\b/i;
const FEATURE = /\b(?:feature|preview|device[- ]?(?:run[- ]?)?sessions?|account)\b/i;

function featureNotEnabled(error: unknown): error is ServiceError {
  if (!(error instanceof ServiceError) || error.status !== 400 || error.code === 'UNAUTHORIZED_ERROR')
    return false;
  if (error.code && /FEATURE|NOT_ENABLED/i.test(error.code)) return true;
  return NOT_ENABLED.test(error.serviceMessage) && FEATURE.test(error.serviceMessage);
}

function featureNotEnabledMessage(error: ServiceError, appId: string): string {
  return (
    `Creating the device session failed: remote device sessions are not enabled for the account that owns project ${appId} ` +
    `(400: ${withoutFinalDots(error.serviceMessage)}). Device sessions are a limited-access preview, and the account that owns the project needs access to it: ` +
    "ask an owner of that account to request access to the device-sessions preview, or use a project of an account that has it. The step's inputs are not the problem; no session was created."
  );
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
