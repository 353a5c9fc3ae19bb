/**
 * Waiting until a device session is ready, for start-device-session (the session it created) and
 * wait-for-device-session (a session created earlier, by id): progress lines, the connection as
 * masked outputs and environment variables, the summary, and the rule that a session which will
 * not be ready (timeout, ended, cancelled) is stopped before the step fails.
 */
import type { ApiSettings, WaitForSessionSettings } from '../inputs/index.js';
import { SESSION_STATUSES, type DeviceSession, type RemoteConfig } from '../service/contract.js';
import { maskRemoteConfig } from '../masking.js';
import { capabilityNames } from '../capabilities.js';
import { exportForLaterSteps } from '../export-env.js';
import { poll } from '../poll.js';
import { Progress } from '../progress.js';
import { renderSessionSummary, type SessionOutcome } from '../summary.js';
import { oneLine } from '../text.js';
import { ActionFailure } from '../errors.js';
import type { ActionIO } from '../io.js';
import { hostOf, type CommandContext } from './context.js';
import { STATE } from './session-state.js';
import { isSessionTerminal, stopAndFail } from './stop-device-session.js';

const KNOWN_SESSION_STATUSES = new Set<string>(SESSION_STATUSES);
const HEARTBEAT_MS = 60_000;

export async function waitForDeviceSession(
  settings: WaitForSessionSettings,
  context: CommandContext,
): Promise<void> {
  const now = context.now ?? Date.now;
  const { io } = context;
  io.setOutput('session-id', settings.sessionId);
  io.info(`Waiting for device session ${settings.sessionId} at ${hostOf(settings.api.baseUrl)} to be ready.`);
  await waitUntilReady(
    { id: settings.sessionId, status: 'unknown', url: null },
    {
      exportEnv: settings.exportEnv,
      api: settings.api,
      note: 'This step does not stop the session when the job ends.',
    },
    { ...context, now },
    { startedAt: now(), firstReadAfterInterval: false },
  );
}

export async function waitUntilReady(
  session: Pick<DeviceSession, 'id' | 'status' | 'url'>,
  options: { exportEnv: boolean; api: ApiSettings; note: string },
  context: CommandContext & { now: () => number },
  timing: { startedAt: number; firstReadAfterInterval: boolean },
): Promise<void> {
  const { io, client, signal, now } = context;
  let sessionUrl = session.url ?? '';
  const progress = new Progress(io, timing.startedAt, HEARTBEAT_MS, now);
  if (session.status !== 'unknown') progress.update('session', session.status);
  let outcome;
  try {
    outcome = await poll<DeviceSession>({
      read: (limits) => client.getDeviceSession(session.id, limits),
      isDone: (read) => isReady(read) || isSessionTerminal(read),
      intervalMs: options.api.pollIntervalMs,
      firstReadAfterInterval: timing.firstReadAfterInterval,
      deadline: timing.startedAt + options.api.timeoutMs,
      signal,
      now,
      onRead: (read) => {
        if (read.url && !sessionUrl) {
          sessionUrl = read.url;
          io.setOutput('session-url', sessionUrl);
        }
        if (!KNOWN_SESSION_STATUSES.has(read.status))
          progress.unknownStatus('Session', read.status, 'not ready yet');
        const waitingForDetails = read.status === 'in-progress' && !read.remoteConfig;
        const changed = progress.update(
          'session',
          read.status,
          waitingForDetails ? '(waiting for connection details)' : '',
        );
        if (!changed) progress.heartbeat(() => `session still ${oneLine(read.status, 40)}`);
      },
    });
  } catch (error) {
    const reason = `Waiting for the device session failed: ${(error as Error).message}`;
    return stopAndFail(context, { id: session.id, url: sessionUrl }, reason, (stopped) =>
      summarize('failed', session, { stopped, reason }),
    );
  }
  const last = outcome.kind === 'done' ? outcome.value : outcome.last;
  const target = { id: session.id, url: sessionUrl };
  if (outcome.kind === 'aborted') {
    const reason = 'The step was cancelled while waiting for the device session.';
    return stopAndFail(context, target, reason, (stopped) =>
      summarize('cancelled', last ?? session, { stopped, reason }),
    );
  }
  if (outcome.kind === 'timeout') {
    const reason = `The device session was not ready within timeout-minutes (${options.api.timeoutMs / 60_000}); last status: ${oneLine(last?.status ?? session.status, 40)}.`;
    return stopAndFail(context, target, reason, (stopped) =>
      summarize('timed-out', last ?? session, { stopped, reason }),
    );
  }
  const ready = outcome.value;
  io.setOutput('status', ready.status);
  if (!isReady(ready)) {
    io.saveState(STATE.stopped, 'true');
    const reason = `The device session became ${oneLine(ready.status, 40)} before it was ready.`;
    await io.appendSummary(summarize('ended', ready, { reason }));
    throw new ActionFailure(`${reason} ${ready.url ?? sessionUrl}`.trimEnd());
  }
  exposeConnection(io, ready, options.exportEnv);
  io.info(`Device session ready after ${progress.elapsed()}.`);
  await io.appendSummary(summarize('ready', ready, { note: options.note }));

  function summarize(
    outcome: SessionOutcome,
    read: Pick<DeviceSession, 'id' | 'status' | 'url'> & Partial<DeviceSession>,
    extra: { stopped?: boolean; reason?: string; note?: string },
  ): string {
    return renderSessionSummary(
      {
        session: { ...read, url: read.url ?? sessionUrl },
        outcome,
        waitedMs: now() - timing.startedAt,
        ...extra,
      },
      io.redact,
    );
  }
}

function isReady(session: DeviceSession): boolean {
  return session.status === 'in-progress' && session.remoteConfig != null;
}

/** Masks every credential first, then writes outputs and (optionally) the controllers' variables. */
export function exposeConnection(io: ActionIO, session: DeviceSession, exportEnv: boolean): void {
  const config: RemoteConfig = session.remoteConfig ?? {};
  maskRemoteConfig(io, config);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const capabilities = config.capabilities === undefined ? '' : JSON.stringify(config.capabilities);
  const outputs: Record<string, string> = {
    'session-id': session.id,
    'session-url': session.url ?? '',
    'job-run-id': session.jobRunId ?? '',
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
  describeConnection(io, session, outputs);
  if (!exportEnv) return;
  const variables: Record<string, string> = {
    SVC_DEVICE_SESSION_ID: session.id,
    AGENT_DEVICE_DAEMON_BASE_URL: outputs['agent-device-remote-session-url'],
    AGENT_DEVICE_DAEMON_AUTH_TOKEN: outputs['agent-device-remote-session-token'],
    ARGENT_TOOLS_URL: outputs['tools-url'],
    ARGENT_AUTH_TOKEN: outputs['tools-auth-token'],
    APPIUM_URL: outputs['appium-url'],
    APPIUM_CAPS: capabilities,
  };
  const exported = Object.entries(variables).filter(([, value]) => value !== '');
  exportForLaterSteps(io, exported);
}

/** What the device is, for the log: platform, type, name, the controller's address, the preview. */
function describeConnection(io: ActionIO, session: DeviceSession, outputs: Record<string, string>): void {
  const what = [session.platform, session.type]
    .filter(Boolean)
    .map((part) => oneLine(String(part), 40))
    .join(' ');
  const name = session.name ? ` "${oneLine(session.name, 80)}"` : '';
  const lines = [`Device: ${what || 'device session'}${name}, session ${session.id}`];
  const controller =
    outputs['agent-device-remote-session-url'] || outputs['tools-url'] || outputs['appium-url'];
  if (controller) lines.push(`  controller: ${oneLine(controller, 300)}`);
  // Names only: any value may be a credential (capabilities.ts).
  if (outputs.capabilities)
    lines.push(`  capabilities: ${capabilityNames(session.remoteConfig?.capabilities)}`);
  const preview = outputs['web-preview-url'] || outputs['preview-url'];
  if (preview) lines.push(`  browser preview: ${oneLine(preview, 300)}`);
  io.info(lines.join('\n'));
}
