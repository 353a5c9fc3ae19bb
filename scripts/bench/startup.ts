/** 2. Start-up: process start → first request at the simulator, against `node -e 0`. */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { DEFAULT_RUNTIME, RUNTIMES, runAction } from '../../testkit/runner/step.js';
import { judgedOnTime, median, ms } from './table.js';
import { check, serviceRequests, type World } from './world.js';

const REPS = Number(process.env.BENCH_REPS) || 15;

export function bare(binary: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The same bare environment runAction gives the step (an inherited NODE_EXTRA_CA_CERTS alone
    // can cost Node some 50 ms at start).
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
    const child = spawn(binary, ['-e', '0'], { stdio: 'ignore', env });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

/** A guard, not a target (issue 10): start-up never traded against clarity. */
const STARTUP_GUARD = 5;

/** The median start-up on the runtime action.yml declares. */
export async function startup(world: World): Promise<number> {
  const runtime = DEFAULT_RUNTIME;
  const bares: number[] = [];
  const firsts: number[] = [];
  for (let i = 0; i < REPS; i++) {
    // Interleaved, so a busy moment of the machine weighs on both alike.
    bares.push(await bare(RUNTIMES[runtime]));
    // Timed from before runAction (its temp files take under a millisecond), as `node -e 0` is
    // timed from before spawn(): the conservative side for us.
    const since = Date.now();
    const run = await runAction({
      entry: 'start-device-session',
      runtime,
      inputs: { ...world.api, platform: 'android', wait: 'false' },
    });
    check(run, 'start-up');
    const first = serviceRequests(world.sim, since)[0];
    firsts.push(Date.parse(first.receivedAt) - since);
    // The session is forgotten rather than stopped: the post step is not what is measured here.
    world.sim.reset();
  }
  const bareMedian = median(bares);
  const firstMedian = median(firsts);
  const ratio = firstMedian / bareMedian;
  judgedOnTime(
    `start-up on ${runtime}: process start → first request (median of ${REPS})`,
    `${ms(firstMedian)} vs node -e 0 ${ms(bareMedian)} = ${ratio.toFixed(2)}×`,
    `≤ ${STARTUP_GUARD.toFixed(2)}× bare Node (a guard)`,
    ratio <= STARTUP_GUARD,
  );
  return firstMedian;
}
