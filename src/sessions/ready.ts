/**
 * Waiting until a device session is ready, for start-device-session (the session it created) and
 * wait-for-device-session (a session created earlier, by id): progress lines, the connection as
 * masked outputs and environment variables, the summary, and the rule that a session which will
 * not be ready (timeout, ended, cancelled) is stopped before the step fails.
 */
import type { ApiSettings } from '../inputs/table.js';
import { SESSION_STATUSES, isSessionTerminal, type DeviceSession } from '../service/contract.js';
import { maskSession } from './masking.js';
import { capabilityNames } from './capabilities.js';
import { exportForLaterSteps } from './export-env.js';
import { poll } from '../service/poll.js';
import { Progress } from '../runner/progress.js';
import { renderSessionSummary, type SessionOutcome } from './report/session-summary.js';
import { oneLine } from '../text/one-line.js';
import { ActionFailure } from '../errors.js';
import { ServiceError } from '../service/errors.js';
import { deviceTime, renderAttempts, type AttemptRecord } from './report/accounting.js';
import {
  CANCELLED_WHILE_WAITING,
  attemptsNote,
  endedMessage,
  notReadyInTimeReason,
  waitingFailedReason,
} from './report/failures.js';
import type { ActionIO } from '../runner/io.js';
import type { ServiceContext } from '../runner/service-context.js';
import type { SessionLedger } from './state.js';
import { stopAndFail } from './stop.js';
import {
  connectionVariables,
  previewUrl,
  writeSessionOutputs,
  type PhaseOutput,
  type SessionOutput,
} from './connection.js';
import type { OutputWriter } from '../runner/outputs.js';
import { deviceTitle } from './name.js';
import { stepClock } from '../text/clock.js';

const KNOWN_SESSION_STATUSES = new Set<string>(SESSION_STATUSES);
const HEARTBEAT_MS = 60_000;

/** Which of several sessions a start is waiting for (start-attempts). */
interface AttemptContext {
  number: number;
  of: number;
  /** The sessions of the earlier attempts, each errored before it was ready. */
  earlier: AttemptRecord[];
}

/**
 * How waiting ended when it did not fail the step: the session is ready, or (only when
 * `retryIfErrored`) it errored before it was ready and the caller starts another.
 */
type WaitResult = { kind: 'ready'; session: DeviceSession } | { kind: 'errored'; session: DeviceSession };

export async function waitUntilReady(
  session: Pick<DeviceSession, 'id' | 'status' | 'url'>,
  options: {
    exportEnv: boolean;
    api: ApiSettings;
    note: string;
    attempt?: AttemptContext;
    /** An `errored` session is returned instead of failing the step (another attempt follows). */
    retryIfErrored?: boolean;
    /** The step's post state (start-device-session only): a session that ends is recorded there. */
    ledger?: SessionLedger;
  },
  /** `outputs`: every output of a session (stopAndFail writes the stopped phase's). */
  context: ServiceContext & { outputs: OutputWriter<SessionOutput> },
  timing: { startedAt: number; firstReadAfterInterval: boolean },
): Promise<WaitResult> {
  const { io, outputs, client, signal } = context;
  let sessionUrl = session.url ?? '';
  const progress = new Progress(io, timing.startedAt, HEARTBEAT_MS);
  if (session.status !== 'unknown') progress.update('session', session.status);
  let outcome;
  try {
    outcome = await poll<DeviceSession>({
      read: async (limits) => {
        const read = await client.getDeviceSession(session.id, limits);
        // Whatever the status: a session not ready yet may carry its connection already.
        maskSession(io, read);
        return read;
      },
      isDone: (read) => isReady(read) || isSessionTerminal(read),
      intervalMs: options.api.pollIntervalMs,
      firstReadAfterInterval: timing.firstReadAfterInterval,
      deadline: timing.startedAt + options.api.timeoutMs,
      signal,
      onRead: (read) => {
        if (read.url && !sessionUrl) {
          sessionUrl = read.url;
          writeSessionOutputs(outputs, 'page-seen', read);
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
    const reason = waitingFailedReason((error as Error).message);
    // The service says there is no such session: nothing to stop.
    if (error instanceof ServiceError && error.status === 404) {
      await io.appendSummary(summarize('failed', session, { reason }));
      throw new ActionFailure(reason);
    }
    return stopAndFail(context, { id: session.id, url: sessionUrl }, reason, {
      summary: (stopped) => summarize('failed', session, { stopped, reason }),
      ledger: options.ledger,
    });
  }
  const last = outcome.kind === 'done' ? outcome.value : outcome.last;
  const target = { id: session.id, url: sessionUrl };
  if (outcome.kind === 'aborted') {
    const reason = CANCELLED_WHILE_WAITING;
    return stopAndFail(context, target, reason, {
      summary: (stopped) => summarize('cancelled', last ?? session, { stopped, reason }),
      ledger: options.ledger,
    });
  }
  if (outcome.kind === 'timeout') {
    const reason = notReadyInTimeReason(options.api.timeoutMs, last?.status ?? session.status);
    return stopAndFail(context, target, reason, {
      summary: (stopped) => summarize('timed-out', last ?? session, { stopped, reason }),
      ledger: options.ledger,
    });
  }
  const ready = outcome.value;
  if (!isReady(ready)) {
    writeSessionOutputs(outputs, 'last-seen', ready);
    // Another attempt follows: the caller stops this one and says so.
    if (options.retryIfErrored && ready.status === 'errored') return { kind: 'errored', session: ready };
    options.ledger?.ended(ready, deviceTime(ready));
    const attempt = options.attempt;
    const attempts =
      attempt && attempt.earlier.length > 0
        ? ` ${attemptsNote({ number: attempt.number, of: attempt.of, earlier: attempt.earlier.length })}`
        : '';
    const reason = `${endedMessage(ready)}${attempts}`;
    await io.appendSummary(summarize(ready.startedAt ? 'ended-after-ready' : 'ended', ready, { reason }));
    throw new ActionFailure(`${reason} ${ready.url ?? sessionUrl}`.trimEnd());
  }
  exposeConnection(io, outputs, ready, options.exportEnv);
  io.info(`Device session ready after ${progress.elapsed()}.`);
  await io.appendSummary(summarize('ready', ready, { note: options.note }));
  return { kind: 'ready', session: ready };

  function summarize(
    outcome: SessionOutcome,
    read: Pick<DeviceSession, 'id' | 'status' | 'url'> & Partial<DeviceSession>,
    extra: { stopped?: boolean; reason?: string; note?: string },
  ): string {
    const attempt = options.attempt;
    const attempts = attempt
      ? renderAttempts(
          [...attempt.earlier, { id: read.id, url: read.url ?? sessionUrl, status: read.status }],
          attempt.of,
          io.redact,
        )
      : '';
    return (
      renderSessionSummary(
        {
          session: { ...read, url: read.url ?? sessionUrl },
          outcome,
          waitedMs: stepClock().now() - timing.startedAt,
          ...extra,
        },
        io.redact,
      ) + attempts
    );
  }
}

function isReady(session: DeviceSession): boolean {
  return session.status === 'in-progress' && session.remoteConfig != null;
}

/** Masks every credential first, then writes outputs and (optionally) the controllers' variables. */
function exposeConnection(
  io: ActionIO,
  writer: OutputWriter<PhaseOutput<'ready'>>,
  session: DeviceSession,
  exportEnv: boolean,
): void {
  maskSession(io, { remoteConfig: session.remoteConfig ?? {} });
  const outputs = writeSessionOutputs(writer, 'ready', session);
  describeConnection(io, session, outputs);
  if (exportEnv) exportForLaterSteps(io, connectionVariables(outputs));
}

/** What the device is, for the log: platform, type, name, the controller's address, the preview. */
function describeConnection(io: ActionIO, session: DeviceSession, outputs: Record<string, string>): void {
  const title = deviceTitle(session, {
    word: (text) => oneLine(text, 40),
    name: (text) => `"${oneLine(text, 80)}"`,
  });
  const lines = [`${title}: ${session.id}`];
  const controller =
    outputs['agent-device-remote-session-url'] || outputs['tools-url'] || outputs['appium-url'];
  if (controller) lines.push(`  controller: ${oneLine(controller, 300)}`);
  // Names only: any value may be a credential (capabilities.ts).
  if (outputs.capabilities)
    lines.push(`  capabilities: ${capabilityNames(session.remoteConfig?.capabilities)}`);
  const preview = previewUrl(session.remoteConfig);
  if (preview) lines.push(`  browser preview: ${oneLine(preview, 300)}`);
  io.info(lines.join('\n'));
}
