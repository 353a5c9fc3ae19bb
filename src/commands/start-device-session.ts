/**
 * start-device-session: create a remote device session, save its id as step state at once (so the
 * post step can stop it whatever happens next), wait for its connection details, and expose them as
 * masked outputs and as the environment variables the controllers read (action-interface.md).
 */
import type { ActionIO } from '../io.js';
import type { StartSessionSettings } from '../inputs.js';
import type { DeviceSession, RemoteConfig } from '../service/schemas.js';
import { poll } from '../poll.js';
import { Progress } from '../progress.js';
import { renderSessionSummary } from '../summary.js';
import { ActionFailure } from '../failure.js';
import { isSessionTerminal, logStopped, stopSession } from './stop-device-session.js';
import type { CommandContext } from './run-workflow.js';

const KNOWN_SESSION_STATUSES = new Set(['new', 'in-progress', 'stopped', 'errored']);
const HEARTBEAT_MS = 60_000;
/** Time for the stop after a cancellation: the runner sends SIGTERM 7.5 s after SIGINT and kills 2.5 s later. */
const STOP_ON_CANCEL_MS = 6_000;
const STOP_ON_FAILURE_MS = 60_000;
/** Fields of remoteConfig that are credentials; unknown fields whose name looks like one are masked too. */
const SECRET_FIELD = /token|secret|password|key/i;

export const STATE = {
  sessionId: 'session-id',
  sessionUrl: 'session-url',
  autoStop: 'auto-stop',
  stopped: 'stopped',
} as const;

export async function startDeviceSession(
  settings: StartSessionSettings,
  context: CommandContext,
): Promise<void> {
  const { io, client, signal } = context;
  const now = context.now ?? Date.now;
  const startedAt = now();

  // Not abortable: once the request is sent only its answer tells us which session to stop.
  const created = await client.createDeviceSession(withoutUndefined(settings.request), {
    deadline: startedAt + 60_000,
  });
  io.saveState(STATE.sessionId, created.id);
  io.saveState(STATE.sessionUrl, created.url ?? '');
  io.saveState(STATE.autoStop, String(settings.autoStop));
  io.setOutput('session-id', created.id);
  io.setOutput('session-url', created.url ?? '');
  io.setOutput('job-run-id', created.jobRunId ?? '');
  if (settings.exportEnv) io.exportVariable('SVC_DEVICE_SESSION_ID', created.id);
  io.info(
    `Created ${created.platform ?? settings.request.platform} device session ${created.id} (${created.type ?? settings.request.type ?? 'agent-device'}): ${created.url ?? ''}`,
  );
  if (!settings.autoStop) {
    io.info(
      'auto-stop is false: the session keeps running after this job until it is stopped or reaches its limits.',
    );
  }

  const stopAndFail = async (reason: string, stopWithinMs: number): Promise<never> => {
    try {
      const stopped = await stopSession(client, created.id, {
        deadline: now() + stopWithinMs,
        sessionUrl: created.url ?? undefined,
      });
      io.saveState(STATE.stopped, 'true');
      logStopped(io, stopped);
      io.setOutput('status', stopped.status);
    } catch (stopError) {
      // Both matter: why the step failed, and that a device may still be running.
      io.error((stopError as Error).message);
    }
    throw new ActionFailure(`${reason} ${created.url ?? ''}`.trimEnd());
  };

  if (signal?.aborted)
    return stopAndFail('The step was cancelled; the device session was stopped.', STOP_ON_CANCEL_MS);
  if (!settings.wait) {
    io.setOutput('status', created.status);
    await io.appendSummary(renderSessionSummary(created, stopNote(settings)));
    return;
  }

  const progress = new Progress(io, startedAt, HEARTBEAT_MS, now);
  progress.update('session', created.status);
  let outcome;
  try {
    outcome = await poll<DeviceSession>({
      read: (limits) => client.getDeviceSession(created.id, limits),
      isDone: (session) => isReady(session) || isSessionTerminal(session),
      intervalMs: settings.api.pollIntervalMs,
      deadline: startedAt + settings.api.timeoutMs,
      signal,
      now,
      onRead: (session) => {
        if (!KNOWN_SESSION_STATUSES.has(session.status))
          progress.unknownStatus('Session', session.status, 'not ready yet');
        const waitingForDetails = session.status === 'in-progress' && !session.remoteConfig;
        const changed = progress.update(
          'session',
          session.status,
          waitingForDetails ? '(waiting for connection details)' : '',
        );
        if (!changed) progress.heartbeat(() => `session still ${session.status}`);
      },
    });
  } catch (error) {
    return stopAndFail(
      `Waiting for the device session failed: ${(error as Error).message}. The session was stopped.`,
      STOP_ON_FAILURE_MS,
    );
  }

  if (outcome.kind === 'aborted') {
    return stopAndFail(
      'The step was cancelled while waiting for the device session; the session was stopped.',
      STOP_ON_CANCEL_MS,
    );
  }
  if (outcome.kind === 'timeout') {
    return stopAndFail(
      `The device session was not ready within timeout-minutes (${settings.api.timeoutMs / 60_000}); last status: ${outcome.last?.status ?? created.status}. The session was stopped.`,
      STOP_ON_FAILURE_MS,
    );
  }
  const session = outcome.value;
  io.setOutput('status', session.status);
  if (!isReady(session)) {
    io.saveState(STATE.stopped, 'true');
    await io.appendSummary(renderSessionSummary(session, 'The session ended before it was ready.'));
    throw new ActionFailure(
      `The device session became ${session.status} before it was ready. ${session.url ?? created.url ?? ''}`.trimEnd(),
    );
  }
  exposeConnection(io, session, settings.exportEnv);
  io.info(`Device session ready after ${progress.elapsed()}.`);
  await io.appendSummary(renderSessionSummary(session, stopNote(settings)));
}

function isReady(session: DeviceSession): boolean {
  return session.status === 'in-progress' && session.remoteConfig != null;
}

function stopNote(settings: StartSessionSettings): string {
  return settings.autoStop
    ? 'The post step stops this session when the job ends.'
    : '`auto-stop: false`: the session runs until it is stopped or reaches its limits.';
}

/** Masks every credential first, then writes outputs and (optionally) the controllers' variables. */
export function exposeConnection(io: ActionIO, session: DeviceSession, exportEnv: boolean): void {
  const config: RemoteConfig = session.remoteConfig ?? {};
  for (const [field, value] of Object.entries(config)) {
    if (SECRET_FIELD.test(field) && typeof value === 'string' && value) io.mask(value);
  }
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const capabilities = config.capabilities === undefined ? '' : JSON.stringify(config.capabilities);
  const outputs: Record<string, string> = {
    'remote-config': JSON.stringify(config),
    'agent-device-remote-session-url': text(config.agentDeviceRemoteSessionUrl),
    'agent-device-remote-session-token': text(config.agentDeviceRemoteSessionToken),
    'tools-url': text(config.toolsUrl),
    'tools-auth-token': text(config.toolsAuthToken),
    'appium-url': text(config.appiumUrl),
    capabilities,
    'web-preview-url': text(config.webPreviewUrl),
    'preview-url': text(config.previewUrl),
  };
  for (const [name, value] of Object.entries(outputs)) io.setOutput(name, value);
  if (!exportEnv) return;
  const variables: Record<string, string> = {
    AGENT_DEVICE_DAEMON_BASE_URL: outputs['agent-device-remote-session-url'],
    AGENT_DEVICE_DAEMON_AUTH_TOKEN: outputs['agent-device-remote-session-token'],
    ARGENT_TOOLS_URL: outputs['tools-url'],
    ARGENT_AUTH_TOKEN: outputs['tools-auth-token'],
    APPIUM_URL: outputs['appium-url'],
    APPIUM_CAPS: capabilities,
  };
  const exported = Object.entries(variables).filter(([, value]) => value !== '');
  for (const [name, value] of exported) io.exportVariable(name, value);
  io.info(
    `Exported for later steps: ${['SVC_DEVICE_SESSION_ID', ...exported.map(([name]) => name)].join(', ')}`,
  );
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
