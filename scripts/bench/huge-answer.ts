/**
 * 7b. A 600 kB answer (testkit/world/huge-answer.ts): a session whose connection details are shaped to hit
 * each piece of work that once grew with the square of its size. From the read that saw it ready to
 * the step's exit, and from a SIGINT sent as that read is handled to the step's exit.
 */
import { runAction, runPost } from '../../testkit/runner/step.js';
import { hugeRemoteConfigFields, LONG_SESSION_NAME } from '../../testkit/world/huge-answer.js';
import { timedRow } from './table.js';
import { check, serviceRequests, type World } from './world.js';

/** In units of `node -e 0` (1 s on a machine whose bare start-up is 20 ms). */
const HUGE_ANSWER_BUDGET = 50;
const REPS = Number(process.env.BENCH_TIMED_REPS) || 3;

export async function hugeAnswer(world: World): Promise<void> {
  world.sim.setSessionBehaviour({ readinessDelayMs: 100, extraRemoteConfigFields: hugeRemoteConfigFields() });
  const inputs = {
    command: 'start-device-session',
    ...world.api,
    platform: 'ios',
    type: 'appium',
    name: LONG_SESSION_NAME,
    'poll-interval-seconds': '0.05',
    'timeout-minutes': '0.05',
  };
  const afterReads: number[] = [];
  const afterSignals: number[] = [];
  let exit = '';
  try {
    for (let rep = 0; rep < REPS; rep++) {
      const since = Date.now();
      const ready = await runAction({ inputs, timeoutMs: 120_000 });
      const exitedAt = Date.now();
      check(ready, 'huge answer');
      afterReads.push(exitedAt - Date.parse(serviceRequests(world.sim, since).at(-1)!.receivedAt));
      check(await runPost(ready, { inputs: world.api }), 'huge answer (post)');

      let output = '';
      let sentAt = 0;
      const cancelled = await runAction({
        inputs,
        timeoutMs: 120_000,
        onSpawn: (child) =>
          child.stdout?.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            if (!sentAt && output.includes('session: in-progress')) {
              sentAt = Date.now();
              child.kill('SIGINT');
            }
          }),
      });
      afterSignals.push(Date.now() - sentAt);
      if (cancelled.signal === 'SIGKILL') throw new Error('huge answer: the step did not answer SIGINT');
      exit = String(cancelled.exitCode ?? cancelled.signal);
      check(await runPost(cancelled, { inputs: world.api }), 'huge answer (post after SIGINT)');
    }
    timedRow(
      '600 kB answer: the read that sees the session ready → step exited',
      afterReads,
      HUGE_ANSWER_BUDGET,
    );
    timedRow(
      `600 kB answer: SIGINT while it is handled → step exited (exit ${exit})`,
      afterSignals,
      HUGE_ANSWER_BUDGET,
    );
  } finally {
    world.sim.resetSessionBehaviour();
  }
}
