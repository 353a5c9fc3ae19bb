/** The runner's cancellation of a step, as the campaign plays it on a spawned bundle. */
import type { ChildProcess } from 'node:child_process';
import type { Simulator } from '../../simulator/index.js';
import { MATCHERS, type Endpoint } from './faults.js';
import type { Escalation } from './timings.js';

/**
 * Delivers `signal` now as the runner does on cancellation, then SIGTERM and a kill at the given
 * delays. `onDelivered` says whether the step was still running; `onKilled` runs before the kill.
 */
export function escalate(
  child: ChildProcess,
  signal: NodeJS.Signals,
  pace: Escalation,
  onDelivered: (alive: boolean) => void,
  onKilled: () => void,
): void {
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  if (!running()) return onDelivered(false);
  onDelivered(child.kill(signal));
  const timers = [
    setTimeout(() => running() && child.kill('SIGTERM'), pace.termAfterMs),
    setTimeout(() => {
      if (!running()) return;
      onKilled();
      child.kill('SIGKILL');
    }, pace.killAfterMs),
  ];
  child.on('exit', () => timers.forEach(clearTimeout));
}

/** Runs `then` `delayMs` after the first request to `endpoint` reached the simulator (while `child` runs). */
export function afterArrival(
  sim: Simulator,
  endpoint: Endpoint,
  child: ChildProcess,
  delayMs: number,
  then: () => void,
): void {
  const from = sim.requests.length;
  const { method, path } = MATCHERS[endpoint];
  const matches = (request: { method: string; path: string; control?: boolean }): boolean =>
    !request.control &&
    request.method === method &&
    (typeof path === 'string' ? request.path.split('?')[0].startsWith(path) : path.test(request.path));
  let delayed: NodeJS.Timeout | undefined;
  const watcher = setInterval(() => {
    if (!sim.requests.slice(from).some(matches)) return;
    clearInterval(watcher);
    delayed = setTimeout(then, delayMs);
  }, 5);
  child.on('exit', () => {
    clearInterval(watcher);
    clearTimeout(delayed);
  });
}
