/**
 * Every timer the simulator starts goes through one `Timers` instance so that `close()` can clear them
 * all, and so that a throwing callback (for example an event listener) is logged instead of crashing.
 *
 * In manual time (`new Timers(true)`, the simulator's `manualTime` option) no timer runs by itself:
 * `advance(ms)` moves the simulator's time on and runs what falls due, in order, and `now()` (the
 * sessions' and runs' timestamps) reads that time. A test then says when a session becomes ready or
 * idles out, whatever the machine's load.
 */

export type TimerHandle = ReturnType<typeof setTimeout>;

/** setTimeout's largest delay; longer values would fire at once. */
const MAX_DELAY_MS = 2_147_483_647;

interface Due {
  at: number;
  order: number;
  fn: () => void;
}

export class Timers {
  private readonly handles = new Set<TimerHandle>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;
  /** Manual time: the queue of what is due, by handle, and the time now. */
  private readonly due = new Map<TimerHandle, Due>();
  private time = Date.now();
  private order = 0;

  constructor(private readonly manual = false) {}

  /** Epoch ms: real time, or in manual time the time `advance` reached. */
  now(): number {
    return this.manual ? this.time : Date.now();
  }

  /** Manual time only: moves time on by `ms`, running every timer that falls due, earliest first. */
  advance(ms: number): void {
    if (!this.manual) throw new Error('advance() needs the simulator in manual time (manualTime: true)');
    const until = this.time + Math.max(0, ms);
    for (;;) {
      let next: [TimerHandle, Due] | undefined;
      for (const entry of this.due)
        if (
          entry[1].at <= until &&
          (!next ||
            entry[1].at < next[1].at ||
            (entry[1].at === next[1].at && entry[1].order < next[1].order))
        )
          next = entry;
      if (!next) break;
      this.due.delete(next[0]);
      this.time = Math.max(this.time, next[1].at);
      next[1].fn();
    }
    this.time = until;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  set(fn: () => void, ms: number): TimerHandle | undefined {
    if (this.closed) return undefined;
    const delay = Math.min(Math.max(0, Number.isFinite(ms) ? ms : 0), MAX_DELAY_MS);
    if (this.manual) {
      const handle = {} as TimerHandle;
      this.due.set(handle, { at: this.time + delay, order: this.order++, fn: () => this.call(fn) });
      return handle;
    }
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      this.call(fn);
    }, delay);
    this.handles.add(handle);
    return handle;
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      console.error('simulator: timer callback failed:', error);
    }
  }

  clear(handle: TimerHandle | undefined): void {
    if (handle === undefined) return;
    if (this.due.delete(handle)) return;
    clearTimeout(handle);
    this.handles.delete(handle);
  }

  /** Resolves after `ms`, or at once when the timers are closed. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const done = (): void => {
        this.sleepers.delete(done);
        resolve();
      };
      this.sleepers.add(done);
      this.set(done, ms);
    });
  }

  clearAll(): void {
    this.closed = true;
    this.due.clear();
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
    for (const wake of [...this.sleepers]) wake();
  }
}

/** ISO 8601 timestamp strictly later than `previous` (so `updatedAt` always changes on a change). */
export function nextTimestamp(previous?: string, now: number = Date.now()): string {
  const prev = previous ? Date.parse(previous) : Number.NaN;
  return new Date(Number.isNaN(prev) || now > prev ? now : prev + 1).toISOString();
}
