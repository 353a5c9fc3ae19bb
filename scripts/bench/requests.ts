/** 4 + 5. Requests per lifecycle and TCP connections per step. */
import type { RecordedRequest } from '../../simulator/index.js';
import { runAction, runPost } from '../../testkit/runner/step.js';
import { row } from './table.js';
import { check, serviceRequests, type World } from './world.js';

const N = 4;
const FAST_S = 0.2;

export async function requests(world: World): Promise<void> {
  // A session ready between the (N-1)th and the Nth read: reads at about 1, 2, … intervals.
  world.sim.setSessionBehaviour({ readinessDelayMs: (N - 0.5) * FAST_S * 1000 });
  let since = Date.now();
  const main = await runAction({
    entry: 'start-device-session',
    inputs: { ...world.api, platform: 'android', 'poll-interval-seconds': String(FAST_S) },
  });
  check(main, 'lifecycle (session)');
  const mainRequests = serviceRequests(world.sim, since);
  since = Date.now();
  const post = await runPost(main, { inputs: { ...world.api } });
  check(post, 'lifecycle (post)');
  const postRequests = serviceRequests(world.sim, since);
  const sessionCount = mainRequests.length + postRequests.length;
  row(
    // The post step reads the session before it stops it, so that it says only what it knows.
    `requests per lifecycle: session ready after N = ${N} polls (create, reads, a read and the stop in post)`,
    `${sessionCount} (${[...mainRequests, ...postRequests].map((r) => r.method).join(' ')})`,
    `N + 3 = ${N + 3}`,
    sessionCount === N + 3,
  );

  world.sim.setJobBehaviour('only', { durationMs: (N - 0.5) * FAST_S * 1000 });
  since = Date.now();
  const run = await runAction({
    entry: 'run-workflow',
    inputs: {
      ...world.api,
      workflow: 'bench.yml',
      'git-ref': 'main',
      'poll-interval-seconds': String(FAST_S),
    },
  });
  check(run, 'lifecycle (run)');
  world.sim.clearJobBehaviour('only');
  const runRequests = serviceRequests(world.sim, since);
  row(
    `requests per lifecycle: run terminal after N = ${N} polls (dispatch, reads)`,
    `${runRequests.length}`,
    `N + 1 = ${N + 1}`,
    runRequests.length === N + 1,
  );

  const connections = (requests: RecordedRequest[]): number =>
    new Set(requests.map((r) => r.connectionId)).size;
  const perStep = [
    ['start-device-session main', connections(mainRequests), mainRequests.length],
    ['its post step', connections(postRequests), postRequests.length],
    ['run-workflow', connections(runRequests), runRequests.length],
  ] as const;
  row(
    'TCP connections per step',
    perStep.map(([step, count, requests]) => `${step}: ${count} (${requests} requests)`).join('; '),
    '1',
    perStep.every(([, count]) => count === 1),
  );
}
