/**
 * 3. Readiness detection: a session / run that becomes ready / terminal at a random moment; the
 *    delay from that moment until the step's process exits, at a 1 s poll interval, and the delay
 *    from the read that saw it (the step's last request) until the process exited.
 */
import type { DeviceSession } from '../../simulator/index.js';
import { runAction, runPost } from '../../testkit/runner/step.js';
import { judgedOnTime, mean, ms, timedRow } from './table.js';
import { check, serviceRequests, type World } from './world.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES) || 6;
const INTERVAL_S = 1;
/** The exit after the read that sees it, in units of `node -e 0` (240 ms at a 20 ms start-up). */
const EXIT_AFTER_READ = 12;
/** What the interval's mean allows beyond half an interval: the exit and a read. */
const EXIT_AFTER_READ_MS = 250;

export async function readiness(world: World): Promise<void> {
  const delays = { session: [] as number[], run: [] as number[] };
  const exits = { session: [] as number[], run: [] as number[] };
  const lastReadAt = (since: number): number =>
    Date.parse(serviceRequests(world.sim, since).at(-1)!.receivedAt);
  for (let i = 0; i < SAMPLES; i++) {
    // Session: ready after a random 0.3–2.8 s.
    world.sim.setSessionBehaviour({ readinessDelayMs: 300 + Math.random() * 2500 });
    let readyAt = 0;
    const onStatus = (session: DeviceSession): void => {
      if (!readyAt && session.status === 'in-progress' && session.remoteConfig) readyAt = Date.now();
    };
    world.sim.events.on('session-status', onStatus);
    let since = Date.now();
    const run = await runAction({
      entry: 'start-device-session',
      inputs: { ...world.api, platform: 'android', 'poll-interval-seconds': String(INTERVAL_S) },
    });
    const exitedAt = Date.now();
    world.sim.events.off('session-status', onStatus);
    check(run, 'readiness (session)');
    delays.session.push(exitedAt - readyAt);
    exits.session.push(exitedAt - lastReadAt(since));
    check(await runPost(run, { inputs: { ...world.api } }), 'readiness (post)');

    // Run: its one job takes a random 0.3–2.8 s.
    world.sim.setJobBehaviour('only', { durationMs: 300 + Math.random() * 2500 });
    let terminalAt = 0;
    const onRun = (): void => {
      terminalAt ||= Date.now();
    };
    world.sim.events.on('run-completed', onRun);
    since = Date.now();
    const dispatched = await runAction({
      entry: 'run-workflow',
      inputs: {
        ...world.api,
        workflow: 'bench.yml',
        'git-ref': 'main',
        'poll-interval-seconds': String(INTERVAL_S),
      },
    });
    const runExitedAt = Date.now();
    world.sim.events.off('run-completed', onRun);
    check(dispatched, 'readiness (run)');
    delays.run.push(runExitedAt - terminalAt);
    exits.run.push(runExitedAt - lastReadAt(since));
  }
  world.sim.resetSessionBehaviour();
  world.sim.clearJobBehaviour('only');
  const limit = INTERVAL_S * 1000 + EXIT_AFTER_READ_MS;
  for (const [what, key] of [
    ['session ready', 'session'],
    ['run terminal', 'run'],
  ] as const) {
    judgedOnTime(
      `readiness detection, ${what} at a random moment → step exits (${SAMPLES} samples, ${INTERVAL_S} s interval)`,
      `mean ${ms(mean(delays[key]))}, max ${ms(Math.max(...delays[key]))}`,
      `max ≤ ${ms(limit)}, mean ≈ ${ms((INTERVAL_S * 1000) / 2)}`,
      Math.max(...delays[key]) <= limit && mean(delays[key]) <= (INTERVAL_S * 1000) / 2 + EXIT_AFTER_READ_MS,
    );
    timedRow(
      `exit after the read that sees ${what} (its arrival at the service → process exit; ${SAMPLES} samples)`,
      exits[key],
      EXIT_AFTER_READ,
    );
  }
}
