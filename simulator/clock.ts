/**
 * Every timer the simulator starts goes through one `Timers` instance so that `close()` can clear them
 * all, and so that a throwing callback (for example an event listener) is logged instead of crashing.
 */

export type TimerHandle = ReturnType<typeof setTimeout>;

/** setTimeout's largest delay; longer values would fire at once. */
const MAX_DELAY_MS = 2_147_483_647;

export class Timers {
  private readonly handles = new Set<TimerHandle>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  set(fn: () => void, ms: number): TimerHandle | undefined {
    if (this.closed) return undefined;
    const delay = Math.min(Math.max(0, Number.isFinite(ms) ? ms : 0), MAX_DELAY_MS);
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      try {
        fn();
      } catch (error) {
        console.error('simulator: timer callback failed:', error);
      }
    }, delay);
    this.handles.add(handle);
    return handle;
  }

  clear(handle: TimerHandle | undefined): void {
    if (handle === undefined) return;
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
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
    for (const wake of [...this.sleepers]) wake();
  }
}

/** ISO 8601 timestamp strictly later than `previous` (so `updatedAt` always changes on a change). */
export function nextTimestamp(previous?: string): string {
  const now = Date.now();
  const prev = previous ? Date.parse(previous) : Number.NaN;
  return new Date(Number.isNaN(prev) || now > prev ? now : prev + 1).toISOString();
}
