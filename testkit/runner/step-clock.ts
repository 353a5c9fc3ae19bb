/**
 * A step clock for tests of the sources in process (src/text/clock.ts): time moves only by the
 * waits the step asks for, so a 60-minute window or an hour of one-write-a-second pacing passes in
 * milliseconds, and what a test asserts about time (two writes a second apart, a deadline met) reads
 * the same on an idle machine and a busy one.
 *
 * Each wait is queued by the time it ends; the earliest is woken first, one at a time, after the
 * event loop has turned (setImmediate), so requests in flight to a server in this process get
 * their turn between wakes. The clock never goes back, and never moves while nothing waits.
 */
import type { StepClock } from '../../src/text/clock.js';

interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

export class VirtualClock implements StepClock {
  /** Every wait asked for, in ms, in the order asked. */
  readonly waits: number[] = [];
  private time: number;
  private readonly sleepers: Sleeper[] = [];
  private order = 0;
  private pumping = false;

  constructor(start = Date.parse('2026-11-02T09:00:00Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const wait = Math.max(0, Number.isFinite(ms) ? ms : 0);
    this.waits.push(wait);
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = { at: this.time + wait, order: this.order++, wake: resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          const index = this.sleepers.indexOf(sleeper);
          if (index >= 0) this.sleepers.splice(index, 1);
          resolve();
        },
        { once: true },
      );
      this.pump();
    });
  }

  /** Moves the clock on by `ms` without a wait (time a test says has passed). */
  advance(ms: number): void {
    this.time += Math.max(0, ms);
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      if (this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.sleepers.shift()!;
      this.time = Math.max(this.time, next.at);
      next.wake();
      if (this.sleepers.length > 0) this.pump();
    });
  }
}
