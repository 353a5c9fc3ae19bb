/**
 * The bundles still run on Node 20 (the `engines` floor, and the Node of older self-hosted runners):
 * one successful run-workflow, one session started and stopped by its post step, one verified
 * webhook. The whole end-to-end suite runs on the Node 24 that action.yml declares; this only
 * proves nothing in the bundles needs a newer Node.
 */
import { RUNTIMES, runStep, runStepPost } from '../helpers/run-action.js';
import { createWorld, type World } from '../helpers/world.js';
import { ONE_BUILD } from '../helpers/workflows.js';
import { signWebhookBody } from '../../src/webhook/signature.js';
import { buildPayload } from '../../simulator/webhooks/payloads.js';
import type { JobCompletedEvent } from '../../simulator/index.js';

const runtime = 'node20';
const SECRET = 'whsec-smoke-0123456789abcdef';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'ci.yml': ONE_BUILD }, { defaultJobDurationMs: 30, readinessDelayMs: 50 });
});
afterAll(() => world.sim.close());
afterEach(() => {
  expect(world.sim.activeSessions()).toEqual([]);
});

describe('on Node 20', () => {
  it('has a Node 20 to run on', () => {
    expect(RUNTIMES[runtime]).toBeDefined();
  });

  it('run-workflow, a session with its post step, and verify-webhook succeed', async () => {
    // The build job's completion, from which the simulator builds the webhook the service would send.
    const completed: JobCompletedEvent[] = [];
    world.sim.events.on('job-completed', (event: JobCompletedEvent) => completed.push(event));
    const [dispatched, session] = await Promise.all([
      runStep('run-workflow', {
        runtime,
        inputs: { ...world.api, workflow: 'ci.yml', 'git-ref': 'main', 'poll-interval-seconds': '0.05' },
      }),
      runStep('start-device-session', {
        runtime,
        inputs: { ...world.api, platform: 'android', 'poll-interval-seconds': '0.05' },
      }),
    ]);
    expect([dispatched.exitCode, dispatched.stderr]).toEqual([0, '']);
    expect(dispatched.outputs.status).toBe('success');
    expect(world.sim.getRun(dispatched.outputs['run-id'])?.status).toBe('success');
    expect([session.exitCode, session.stderr]).toEqual([0, '']);
    expect(session.outputs.status).toBe('in-progress');
    expect(session.env.AGENT_DEVICE_DAEMON_AUTH_TOKEN).toBe(
      session.outputs['agent-device-remote-session-token'],
    );

    const body = Buffer.from(JSON.stringify(buildPayload(completed[0])));
    const id = session.outputs['session-id'];
    const [ending, verified] = await Promise.all([
      runStepPost('start-device-session', session, {
        runtime,
        inputs: { ...world.api, platform: 'android' },
      }),
      runStep('verify-webhook', {
        runtime,
        inputs: {
          'webhook-secret': SECRET,
          signature: signWebhookBody(body, SECRET),
          payload: body.toString(),
        },
      }),
    ]);
    expect(ending.exitCode).toBe(0);
    expect(ending.stdout).toContain(`Device session ${id} is stopped`);
    expect(world.sim.getSession(id)?.status).toBe('stopped');
    expect([verified.exitCode, verified.stderr]).toEqual([0, '']);
    expect(verified.outputs).toMatchObject({
      event: 'BUILD',
      id: completed[0].job.buildId,
      status: 'finished',
      'app-id': world.project.id,
    });
  });
});
