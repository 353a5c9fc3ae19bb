/**
 * start-device-session: create a remote device session, with step state saved before and after the
 * request (so the post step can stop it, or say that one may exist, whatever happens next), then
 * (unless `wait: false`) wait for its connection details like wait-for-device-session does.
 */
import type { StartSessionSettings } from '../inputs/index.js';
import { isUuid, type DeviceSession } from '../service/contract.js';
import { NetworkError, ResponseFormatError, RetriesExhaustedError, ServiceError } from '../service/errors.js';
import { renderSessionSummary } from '../summary.js';
import { oneLine } from '../text.js';
import { hostOf, type CommandContext } from './context.js';
import { STATE } from './session-state.js';
import { stopAndFail } from './stop-device-session.js';
import { waitUntilReady } from './wait-for-device-session.js';

export async function startDeviceSession(
  settings: StartSessionSettings,
  context: CommandContext,
): Promise<void> {
  const { io, client } = context;
  const now = context.now ?? Date.now;
  const startedAt = now();
  const { request } = settings;

  io.info(
    `Creating ${request.platform} device session${request.name ? ` ${oneLine(request.name, 80)}` : ''} (type ${request.type ?? 'agent-device'}${request.deviceIdentifier ? `, device ${oneLine(request.deviceIdentifier, 80)}` : ''}) at ${hostOf(settings.api.baseUrl)}.`,
  );
  // Saved before the request: a create whose answer never arrives may still have started a session.
  io.saveState(STATE.baseUrl, settings.api.baseUrl);
  io.saveState(STATE.appId, request.appId);
  io.saveState(STATE.autoStop, String(settings.autoStop));
  io.saveState(STATE.pollIntervalMs, String(settings.api.pollIntervalMs));
  io.saveState(STATE.createInFlight, new Date(startedAt).toISOString());

  let created: DeviceSession;
  try {
    // Not abortable: once the request is sent only its answer tells which session to stop.
    created = await client.createDeviceSession(withoutUndefined(request), { deadline: startedAt + 60_000 });
  } catch (error) {
    // An answer that names a session but cannot be used otherwise: stop that session, then fail.
    if (error instanceof ResponseFormatError && error.resourceId && isUuid(error.resourceId)) {
      recordSession(context, error.resourceId, '', settings.exportEnv);
      return stopAndFail(context, { id: error.resourceId, url: '' }, error.message);
    }
    // Refused for certain: no session exists, so the post step must not warn that one may.
    if (createdNothing(error)) io.saveState(STATE.createInFlight, '');
    throw error;
  }
  recordSession(context, created.id, created.url ?? '', settings.exportEnv);
  io.setOutput('job-run-id', created.jobRunId ?? '');
  io.info(`Created device session ${created.id}: ${created.url ?? ''}`.trimEnd());
  if (!settings.autoStop)
    io.info(
      'auto-stop is false: the session keeps running after this job until it is stopped or reaches its limits.',
    );

  if (context.signal?.aborted) return stopAndFail(context, created, 'The step was cancelled.');
  if (!settings.wait) {
    io.setOutput('status', created.status);
    io.info(
      `Not waiting for the session (wait: false). Wait for it later with the wait-for-device-session command (session-id: ${created.id}${settings.exportEnv ? ', or SVC_DEVICE_SESSION_ID' : ''}).`,
    );
    await io.appendSummary(
      renderSessionSummary({ session: created, outcome: 'started', note: stopNote(settings) }, io.redact),
    );
    return;
  }
  await waitUntilReady(
    created,
    { exportEnv: settings.exportEnv, api: settings.api, note: stopNote(settings) },
    { ...context, now },
    {
      startedAt,
      firstReadAfterInterval: true,
    },
  );
}

/** The session exists: state for the post step, its id and page as outputs at once. */
function recordSession(context: CommandContext, id: string, url: string, exportEnv: boolean): void {
  const { io } = context;
  io.saveState(STATE.sessionId, id);
  io.saveState(STATE.sessionUrl, url);
  io.setOutput('session-id', id);
  io.setOutput('session-url', url);
  if (exportEnv) io.exportVariable('SVC_DEVICE_SESSION_ID', id);
}

function stopNote(settings: StartSessionSettings): string {
  return settings.autoStop
    ? 'The post step stops this session when the job ends.'
    : '`auto-stop: false`: the session runs until it is stopped or reaches its limits.';
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/**
 * Whether a failed create certainly created nothing: an error answer (4xx: invalid, unauthorised,
 * forbidden, not enabled), or a request that never reached the service. A 5xx or a lost answer may
 * follow a session that exists, so those keep the post step's warning.
 */
function createdNothing(error: unknown): boolean {
  if (error instanceof RetriesExhaustedError) return createdNothing(error.lastError);
  if (error instanceof ServiceError) return error.status >= 400 && error.status < 500;
  return error instanceof NetworkError && error.certainlyNotProcessed;
}
