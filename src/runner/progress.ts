/**
 * Progress lines while waiting: one line per status change with the elapsed time, a quieter
 * heartbeat while nothing changes, and a single note for each status this version does not know.
 * Shared by run-workflow (run and job statuses) and start-device-session.
 */
import type { ActionIO } from './io.js';
import { oneLine } from '../text/one-line.js';
import { formatElapsed } from '../text/time.js';
import { stepClock } from '../text/clock.js';

export class Progress {
  private readonly statuses = new Map<string, string>();
  private readonly unknownSeen = new Set<string>();
  private lastLineAt: number;

  constructor(
    private readonly io: ActionIO,
    private readonly startedAt: number,
    private readonly heartbeatMs: number,
  ) {
    this.lastLineAt = startedAt;
  }

  /** Records the status of `subject`; logs a line when it changed. Returns whether it changed. */
  update(subject: string, status: string, detail = ''): boolean {
    const shown = `${status} ${detail}`;
    if (this.statuses.get(subject) === shown) return false;
    this.statuses.set(subject, shown);
    this.line(`${subject}: ${oneLine(status, 40)}${detail ? ` ${detail}` : ''}`);
    return true;
  }

  /** Logs once per status value that this version of the action does not know. */
  unknownStatus(kind: string, status: string, treatedAs: string): void {
    const key = `${kind}:${status}`;
    if (this.unknownSeen.has(key)) return;
    this.unknownSeen.add(key);
    this.line(
      `${kind} status \`${oneLine(status, 40)}\` is not known to this version of the action; treating it as ${treatedAs}.`,
    );
  }

  /** Called after every read: prints a heartbeat when nothing was printed for a while. */
  heartbeat(message: () => string): void {
    if (stepClock().now() - this.lastLineAt >= this.heartbeatMs) this.line(message());
    else this.io.debug(`[${this.elapsed()}] ${message()}`);
  }

  elapsed(): string {
    return formatElapsed(stepClock().now() - this.startedAt);
  }

  line(text: string): void {
    this.lastLineAt = stepClock().now();
    this.io.info(`[${this.elapsed()}] ${text}`);
  }
}
