/**
 * What the simulator says it does: one line per request (method, path, status, time taken) and one per
 * state change (runs and jobs, sessions, webhook delivery attempts, resets), each with the time of day.
 * The command prints the lines as they come (unless `--quiet`); the library keeps the latest ones in
 * `sim.log` and prints them only when asked (`printLog`).
 *
 * It never logs a credential: no header (the service and GitHub tokens, the controllers' daemon tokens,
 * `svc-signature`), no body (webhook payloads, session requests), no remoteConfig, no query string, and
 * a webhook's URL without its user info and query. Ids are shortened to their first 8 characters, so a
 * line stays readable and still tells two runs apart.
 */
import type { EventEmitter } from 'node:events';
import type { DeliveryAttempt } from './webhooks/delivery.js';
import type { DeviceSession, SessionEnd } from './sessions.js';
import type { JobStatusEvent, RunStatusEvent } from './workflows.js';

/** The lines the simulator logged, oldest first (the latest `LOG_LIMIT`). */
export interface SimulatorLog {
  readonly lines: readonly string[];
  clear(): void;
}

/** Lines kept in memory: a simulator left running for days does not grow without end. */
export const LOG_LIMIT = 10_000;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const SHA = /\b[0-9a-f]{40}\b/gi;

/** A UUID as its first 8 characters and an ellipsis. */
export const shortId = (id: string): string => `${id.slice(0, 8)}…`;

/** Ids shortened, control characters and other invisible ones escaped, at most `max` characters. */
export function logText(text: string, max = 200): string {
  const shortened = text
    .replace(UUID, (id) => shortId(id))
    .replace(SHA, (sha) => sha.slice(0, 7))
    .replace(
      /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return shortened.length > max ? `${shortened.slice(0, max - 1)}…` : shortened;
}

/** The path part of a request target: no query string (it may carry a token) and no fragment. */
export const pathOnly = (target: string): string => target.split(/[?#]/)[0];

/** A URL as it may be logged: no user info, no query, no fragment. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(an unreadable URL)';
  }
}

const SESSION_END: Record<SessionEnd, string> = {
  'stop-operation': 'the stop operation',
  'max-duration': 'maxDurationMinutes reached',
  'idle-timeout': 'maxIdleTimeMinutes of inactivity',
  error: 'an error',
};

export class Log implements SimulatorLog {
  private readonly kept: string[] = [];

  constructor(private readonly print?: (line: string) => void) {}

  get lines(): readonly string[] {
    return this.kept;
  }

  clear(): void {
    this.kept.length = 0;
  }

  write(message: string): void {
    const line = `${new Date().toISOString().slice(11, 23)} ${message}`;
    this.kept.push(line);
    if (this.kept.length > LOG_LIMIT) this.kept.splice(0, this.kept.length - LOG_LIMIT);
    this.print?.(line);
  }

  /** `GET /v2/workflows/runs/1a2b3c4d… 200 3 ms`; a request left unanswered says why. */
  request(
    method: string,
    target: string,
    status: number | null,
    ms: number,
    fault?: string,
    note?: string,
  ): void {
    const outcome = status === null ? 'no answer' : String(status);
    const extra = `${fault ? ` (simulated fault: ${fault})` : ''}${note ? ` · ${logText(note)}` : ''}`;
    this.write(`${logText(method, 16)} ${logText(pathOnly(target))} ${outcome} ${Math.round(ms)} ms${extra}`);
  }

  /** One line per state change, from the simulator's events. */
  follow(events: EventEmitter, endedBy: (sessionId: string) => SessionEnd | undefined): void {
    events.on('run-status', ({ run, from, workflowName }: RunStatusEvent) => {
      if (from === null) {
        const jobs = run.jobs.map((job) => logText(job.key, 40)).join(', ');
        const name = workflowName ? ` ${JSON.stringify(logText(workflowName, 60))}` : '';
        this.write(
          `run ${shortId(run.id)} created:${name} on ${logText(run.requestedGitRef, 80)} (${run.gitCommitHash.slice(0, 7)}), jobs ${jobs}`,
        );
      } else this.write(`run ${shortId(run.id)} ${from} → ${run.status}`);
    });
    events.on('job-status', ({ run, job, from }: JobStatusEvent) => {
      const error =
        job.status === 'failure' && job.errors[0] ? `: ${logText(job.errors[0].message, 120)}` : '';
      this.write(`job ${shortId(run.id)}/${logText(job.key, 40)} ${from} → ${job.status}${error}`);
    });
    const sessionStatus = new Map<string, string>();
    events.on('session-created', (session: DeviceSession) => {
      sessionStatus.set(session.id, session.status);
      this.write(
        `session ${shortId(session.id)} created: ${session.type}, ${session.platform}, ${session.status}`,
      );
    });
    events.on('session-status', (session: DeviceSession) => {
      const from = sessionStatus.get(session.id);
      sessionStatus.set(session.id, session.status);
      if (from === session.status) {
        // Only remoteConfig changed (it arrives late, or goes with the end).
        if (session.remoteConfig) this.write(`session ${shortId(session.id)} remoteConfig is set`);
        return;
      }
      const end = endedBy(session.id);
      const why =
        end && (session.status === 'stopped' || session.status === 'errored') ? ` (${SESSION_END[end]})` : '';
      const config = session.status === 'in-progress' && session.remoteConfig ? ', remoteConfig set' : '';
      this.write(`session ${shortId(session.id)} ${from ?? '?'} → ${session.status}${why}${config}`);
    });
  }

  /** `webhook BUILD 1a2b3c4d… attempt 2/5 to http://host/hook: 500, not acknowledged`. */
  delivery(attempt: DeliveryAttempt, attempts: number): void {
    const answer =
      attempt.status === null
        ? `no answer (${logText(attempt.error ?? 'unknown', 80)})`
        : String(attempt.status);
    const verdict = attempt.acknowledged
      ? 'acknowledged'
      : attempt.attempt < attempts
        ? 'not acknowledged, will retry'
        : 'not acknowledged, given up';
    this.write(
      `webhook ${attempt.event} delivery ${shortId(attempt.deliveryId)} attempt ${attempt.attempt}/${attempts} to ${logText(safeUrl(attempt.url))}: ${answer}, ${verdict}`,
    );
  }
}
