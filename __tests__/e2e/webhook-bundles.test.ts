/**
 * verify-webhook through the built bundles, as the runner runs them, on the Node 24 that action.yml
 * declares: one case for each file whose other cases run in process from the sources (the unit tier,
 * __tests__/webhook/):
 * - verify-webhook.test.ts: a genuine build delivery (the simulator runs a workflow and delivers its
 *   webhook to a local receiver that fails twice, then acknowledges), accepted from a file with
 *   outputs that match the job that finished;
 * - verify-webhook-report.test.ts: `fail-on-status` failing the step with the service's reason, once
 *   every output is set, for an errored build the simulator delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowRun } from '../../simulator/index.js';
import { runStep, type ActionRun } from '../../testkit/runner/step.js';
import { createWorld, until, type World } from '../../testkit/world/world.js';
import { RELEASE } from '../../testkit/docs/workflows.js';
import { call } from '../simulator/helpers.js';
import {
  failTwiceThenAcknowledge,
  startReceiver,
  type Receiver,
  type Received,
} from '../../testkit/world/webhook-receiver.js';

describe('verify-webhook.test.ts: a genuine build delivery, accepted from a file', () => {
  const SECRET = 'whsec-e2e-0123456789-abcdef';

  let world: World;
  let receiver: Receiver;
  let run: WorkflowRun;
  let dir: string;
  let build: Received;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-webhook-e2e-'));
    receiver = await startReceiver(failTwiceThenAcknowledge);
    world = await createWorld(
      { 'release.yml': RELEASE },
      { defaultJobDurationMs: 30, webhooks: { baseIntervalMs: 20 } },
    );
    world.sim.webhooks.add({
      projectId: world.project.id,
      event: 'BUILD',
      url: `${receiver.url}/build`,
      secret: SECRET,
    });
    world.sim.webhooks.add({
      projectId: world.project.id,
      event: 'SUBMIT',
      url: `${receiver.url}/submit`,
      secret: SECRET,
    });

    const reply = await call(world.sim, 'POST', '/v2/workflows/dispatch', {
      token: world.token,
      body: { appId: world.project.id, gitRef: 'main', fileName: 'release.yml' },
    });
    expect(reply.status).toBe(200);
    run = await until(() => {
      const current = world.sim.getRun(reply.json.data.id);
      return current?.status === 'success' && current;
    });
    await world.sim.webhooks.idle();
    // The receiver failed twice, then acknowledged; the simulator stopped there.
    expect(receiver.on('/build').map((q) => q.method)).toEqual(['POST', 'POST', 'POST']);
    expect(receiver.on('/submit')).toHaveLength(3);
    expect(world.sim.webhooks.deliveries.filter((a) => a.acknowledged)).toHaveLength(2);
    build = receiver.on('/build')[2];
  });

  afterAll(async () => {
    await world?.sim.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let files = 0;
  function bodyFile(body: Buffer): string {
    const path = join(dir, `payload-${++files}.json`);
    writeFileSync(path, body);
    return path;
  }

  const header = (request: Received): string => request.headers['svc-signature'] as string;

  function verify(inputs: Record<string, string>): Promise<ActionRun> {
    return runStep('verify-webhook', { inputs: { 'webhook-secret': SECRET, ...inputs } });
  }

  /** The log without the runner's `::add-mask::` registrations (the only place a secret may appear). */
  function printed(result: ActionRun): string {
    return (result.stdout + result.stderr).replace(/^::add-mask::.*$/gm, '');
  }

  /** The delivery key interface v5 gives an event: the SHA-256 of `["<event>","<id>","<status>"]`. */
  const eventKey = (event: string, id: string, status: string): string =>
    createHash('sha256')
      .update(JSON.stringify([event, id, status]))
      .digest('hex');

  it('accepts the build delivery from a file: outputs match the build job that finished', async () => {
    const job = run.jobs.find((j) => j.key === 'build_ios')!;
    const result = await verify({ signature: header(build), 'payload-file': bodyFile(build.body) });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({
      event: 'BUILD',
      id: job.buildId,
      status: 'finished',
      platform: 'ios',
      'app-id': world.project.id,
      'error-code': '',
      'error-message': '',
      'artifact-url': expect.stringMatching(/^http:\/\/.+\.ipa$/),
      'details-url': expect.stringMatching(new RegExp(`/builds/${job.buildId}$`)),
      'logs-url': '',
      payload: expect.any(String),
      // The event's identity (interface v5): what every delivery of this build's completion has in common.
      'delivery-key': eventKey('BUILD', job.buildId!, 'finished'),
    });
    expect(result.summary).toContain(`| Delivery key | \`${result.outputs['delivery-key']}\` |`);
    expect(JSON.parse(result.outputs.payload)).toEqual(JSON.parse(build.body.toString('utf8')));
    expect(JSON.parse(result.outputs.payload)).toMatchObject({ accountName: 'acme', projectName: 'app' });
    expect(result.stdout).toContain('Signature verified: the svc-signature header matches the payload');
    expect(result.stdout).toContain(
      `Build ${job.buildId} (BUILD) of acme/app: finished, platform ios, app ${world.project.id}.`,
    );
    expect(printed(result)).not.toContain(SECRET);
  });
});

describe('verify-webhook-report.test.ts: fail-on-status fails the step once every output is set', () => {
  const SECRET = 'whsec-report-0123456789-abcdef';
  const PIPELINE = `name: Release
on: workflow_dispatch
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  build_android:
    name: Build Android
    type: build
    params:
      platform: android
  submit_ios:
    name: Submit iOS
    type: submit
    needs: [build_ios]
    params:
      platform: ios
`;
  /** The Android build's error, as the service would pass on text it did not write. */
  const HOSTILE_ERROR =
    'Gradle failed <img src=x onerror=alert(1)> @octocat see [docs](https://evil.example/x) **now** | #12\n' +
    '::warning::injected';

  let world: World;
  let receiver: Receiver;
  let run: WorkflowRun;
  /** Signed deliveries as the receiver got them. */
  let finishedBuild: Delivery;
  let erroredBuild: Delivery;
  let erroredSubmission: Delivery;

  /** A payload as parsed JSON, for reading and changing fields in tests. */
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  interface Delivery {
    body: string;
    signature: string;
    json: Json;
  }

  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    world = await createWorld({ 'release.yml': PIPELINE }, { defaultJobDurationMs: 30 });
    for (const event of ['BUILD', 'SUBMIT'] as const)
      world.sim.webhooks.add({
        projectId: world.project.id,
        event,
        url: `${receiver.url}/${event}`,
        secret: SECRET,
      });
    world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: HOSTILE_ERROR });
    world.sim.setJobBehaviour('submit_ios', {
      outcome: 'failure',
      errorMessage: 'App Store Connect rejected the binary.',
    });
    const reply = await call(world.sim, 'POST', '/v2/workflows/dispatch', {
      token: world.token,
      body: { appId: world.project.id, gitRef: 'main', fileName: 'release.yml' },
    });
    expect(reply.status).toBe(200);
    run = await until(() => {
      const current = world.sim.getRun(reply.json.data.id);
      return current?.status === 'failure' && current;
    });
    await world.sim.webhooks.idle();
    const deliveries = receiver.received.map((request) => {
      const body = request.body.toString('utf8');
      return { body, signature: request.headers['svc-signature'] as string, json: JSON.parse(body) };
    });
    finishedBuild = deliveries.find((d) => d.json.buildDetailsPageUrl && d.json.status === 'finished')!;
    erroredBuild = deliveries.find((d) => d.json.buildDetailsPageUrl && d.json.status === 'errored')!;
    erroredSubmission = deliveries.find((d) => d.json.submissionDetailsPageUrl)!;
    expect([finishedBuild, erroredBuild, erroredSubmission].every(Boolean)).toBe(true);
  });

  afterAll(async () => {
    await world?.sim.close();
    await receiver?.close();
  });

  const job = (key: string) => run.jobs.find((j) => j.key === key)!;

  function verify(delivery: Delivery, inputs: Record<string, string> = {}): Promise<ActionRun> {
    return runStep('verify-webhook', {
      inputs: { 'webhook-secret': SECRET, signature: delivery.signature, payload: delivery.body, ...inputs },
    });
  }

  it("an errored build listed fails the step after setting every output, with the service's reason and the page", async () => {
    const result = await verify(erroredBuild, { 'fail-on-status': 'errored,canceled' });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({
      event: 'BUILD',
      id: job('build_android').buildId,
      status: 'errored',
      'error-code': 'UNKNOWN_ERROR',
      'error-message': HOSTILE_ERROR,
      'details-url': erroredBuild.json.buildDetailsPageUrl,
      payload: expect.any(String),
    });
    expect(result.errors).toEqual([
      `Build ${job('build_android').buildId} (BUILD) ended \`errored\`, which \`fail-on-status\` lists: ` +
        `UNKNOWN_ERROR: ${HOSTILE_ERROR.replace('\n', ' ')}. Details: ${erroredBuild.json.buildDetailsPageUrl}`,
    ]);
    // The service's text is printed as text: no line of it is a workflow command.
    expect(result.stdout).not.toMatch(/^::warning::/m);
  });
});
