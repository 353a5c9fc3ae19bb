/**
 * stop-device-session, run from the sources in this process against the simulator. What the user
 * sees: the `status` output, the log, and the job summary (read from the GITHUB_STEP_SUMMARY file):
 * the session, how it ended, when it finished and how long it ran, or that it could not be stopped
 * and may still be running. A running session stopped through the built bundle is the end-to-end
 * tier's case (__tests__/e2e/sessions-bundles.test.ts).
 */
import { IN_PROCESS } from '../../testkit/runner/in-process.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import {
  serviceSession,
  sessionStopper,
  stopSummaryRow as row,
} from '../../testkit/world/session-fixtures.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let world: World;
beforeAll(async () => {
  world = await createWorld({}, { readinessDelayMs: 60_000 });
});
sharedWorldHooks(() => world);

/** A session created on the service (by another job, say), made ready unless `ready` is false. */
const session = (name: string, ready = true) => serviceSession(world, name, ready);

const stop = sessionStopper(IN_PROCESS, () => world);

describe('stop-device-session job summary', () => {
  it('the times are the service’s: finished and ran for, from startedAt and finishedAt', async () => {
    const { id, url } = await session('timed');
    world.sim.injectFault({
      method: 'POST',
      path: /\/stop$/,
      kind: 'mutate',
      mutate: (json) => ({
        data: {
          ...(json as { data: object }).data,
          startedAt: '2025-01-31T12:00:00.000Z',
          finishedAt: '2025-01-31T13:02:05.000Z',
        },
      }),
    });
    const result = await stop(id);
    expect(result.exitCode).toBe(0);
    expect(row(result.summary)).toEqual([`[${id}](<${url}>)`, 'stopped', '2025-01-31 13:02:05 UTC', '1h02m']);
  });

  it('a session stopped before it was ready: it never started', async () => {
    const { id } = await session('queued', false);
    const result = await stop(id);
    expect(result.exitCode).toBe(0);
    expect(row(result.summary)[3]).toBe('');
    expect(result.summary).toContain('It was stopped before it was ready: it never started.');
  });

  it('a session that had already errored: says so, and the step succeeds', async () => {
    const { id } = await session('broken');
    world.sim.failSession(id);
    const result = await stop(id);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({ status: 'errored' });
    expect(result.summary).toContain(': ❌ had ended with an error (`errored`)\n');
    expect(row(result.summary)[1]).toBe('errored');
  });

  it('an unknown session: not found, with the reason', async () => {
    const result = await stop(UNKNOWN_ID);
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain(`### Device session \`${UNKNOWN_ID}\`: ❓ not found\n`);
    expect(result.summary).toMatch(
      /^> Device session .* was not found: the service has no session with that id \(404: /m,
    );
    expect(result.summary).not.toContain('may still be running');
  });

  it('a stop that cannot be confirmed: says the device may still be running', async () => {
    const { id } = await session('stuck');
    world.sim.injectFault({ method: 'POST', path: /\/stop$/, kind: 'status', status: 503, times: 1000 });
    // A minute of refused stops on the step clock: how long does not matter, only that none was confirmed.
    const result = await stop(id, { 'timeout-minutes': '1' }, { clock: new VirtualClock() });
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain(`### Device session \`${id}\`: ⚠️ could not be confirmed stopped\n`);
    expect(result.summary).toContain('**The session may still be running and billing**');
    world.sim.clearFaults();
    expect((await stop(id)).exitCode).toBe(0);
  });
});
