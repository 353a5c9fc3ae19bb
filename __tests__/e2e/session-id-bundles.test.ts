/**
 * The required `session-id` (issue 31 item 4), through the committed bundles, each step a Node 24
 * process as the runner starts it (issue 42 item 3). The behaviour held here: wait-for-device-session
 * and stop-device-session, as their sub-actions and through the root action, without `session-id`
 * (absent, or empty as an undeclared `needs.<job>.outputs` gives it) fail with one error that shows
 * the line to write, before any request: never reading the session from SVC_DEVICE_SESSION_ID, which
 * any later step can rewrite (here: a running session of another job's), and exporting nothing.
 * Their other cases, in process: __tests__/sessions/wait-for-device-session.test.ts and
 * __tests__/commands/inputs.test.ts.
 */
import { BUNDLES, type ActionRun } from '../../testkit/runner/step.js';
import { expectOneError } from '../../testkit/runner/expect-step.js';
import { createWorld, serviceRequests, stopLeftSessions, type World } from '../../testkit/world/world.js';
import { serviceSession } from '../../testkit/world/session-fixtures.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => {
  await stopLeftSessions(world);
  await world.sim.close();
});

const REQUIRED =
  '`session-id` is required: the `session-id` output of the start-device-session step, empty here. In its job: `session-id: ${{ steps.<id>.outputs.session-id }}` (give that step an `id:`).';

describe('the required session-id', () => {
  it.each(['wait-for-device-session', 'stop-device-session'])(
    '%s, as the sub-action and through the root action: one error showing the line to write, no request, SVC_DEVICE_SESSION_ID never read',
    async (command) => {
      // Another job's running session, as a later step of this job could write it to $GITHUB_ENV.
      const planted = await serviceSession(world, 'another job');
      world.sim.clearRequests();
      const env = { SVC_DEVICE_SESSION_ID: planted.id };
      const { api } = world;
      const runs: ActionRun[] = await Promise.all([
        BUNDLES.runStep(command, { inputs: api, env }),
        BUNDLES.runStep(command, { inputs: { ...api, 'session-id': '' }, env }),
        BUNDLES.runStep('root', { inputs: { command, ...api }, env }),
      ]);
      for (const run of runs) {
        expect(expectOneError(run)).toContain(`Invalid input: ${REQUIRED}`);
        expect(run.env).toEqual({});
      }
      expect(serviceRequests(world.sim)).toEqual([]);
      expect(world.sim.getSession(planted.id)?.status).toBe('in-progress');
    },
  );
});
