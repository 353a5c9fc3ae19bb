/**
 * The fixtures verify-webhook's tests share across the tiers (__tests__/webhook/, in process, and
 * __tests__/e2e/webhook-bundles.test.ts, the bundles): the releases the simulator runs and whose signed
 * webhooks a local receiver gets, the secrets they are signed with, and the steps that verify them,
 * given the tier's step runners (IN_PROCESS or BUNDLES).
 */
import { expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowRun } from '../../simulator/index.js';
import { RELEASE } from '../docs/workflows.js';
import type { ActionRun, StepRunners } from '../runner/step.js';
import { failTwiceThenAcknowledge, startReceiver, type Receiver, type Received } from './webhook-receiver.js';
import { createWorld, until, type World } from './world.js';

/** Dispatches `fileName` on main with the world's token, and waits for the run to reach `status`. */
async function dispatchUntil(world: World, fileName: string, status: string): Promise<WorkflowRun> {
  const reply = await fetch(`${world.sim.url}/v2/workflows/dispatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appId: world.project.id, gitRef: 'main', fileName }),
  });
  expect(reply.status).toBe(200);
  const { data } = (await reply.json()) as { data: { id: string } };
  return until(() => {
    const current = world.sim.getRun(data.id);
    return current?.status === status && current;
  });
}

/** The secret the genuine release's webhooks are signed with. */
export const WEBHOOK_SECRET = 'whsec-e2e-0123456789-abcdef';

/** The genuine release and what its webhooks delivered (see genuineReleaseDeliveries). */
export interface GenuineDeliveries {
  world: World;
  receiver: Receiver;
  run: WorkflowRun;
  /** A throw-away folder for payload files, removed by `close`. */
  dir: string;
  /** The build's and the submission's acknowledged deliveries (each the third attempt). */
  build: Received;
  submission: Received;
  /** Writes `body` to a new file of `dir`, and returns its path. */
  bodyFile: (body: Buffer) => string;
  close: () => Promise<void>;
}

/**
 * The simulator runs RELEASE and delivers its build and submission webhooks (signed with
 * WEBHOOK_SECRET) to a local receiver that fails twice, then acknowledges.
 */
export async function genuineReleaseDeliveries(): Promise<GenuineDeliveries> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-e2e-'));
  let world: World | undefined;
  let receiver: Receiver | undefined;
  const close = async (): Promise<void> => {
    await world?.sim.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    receiver = await startReceiver(failTwiceThenAcknowledge);
    world = await createWorld(
      { 'release.yml': RELEASE },
      { defaultJobDurationMs: 30, webhooks: { baseIntervalMs: 20 } },
    );
    world.sim.webhooks.add({
      projectId: world.project.id,
      event: 'BUILD',
      url: `${receiver.url}/build`,
      secret: WEBHOOK_SECRET,
    });
    world.sim.webhooks.add({
      projectId: world.project.id,
      event: 'SUBMIT',
      url: `${receiver.url}/submit`,
      secret: WEBHOOK_SECRET,
    });
    const run = await dispatchUntil(world, 'release.yml', 'success');
    await world.sim.webhooks.idle();
    // The receiver failed twice, then acknowledged; the simulator stopped there.
    expect(receiver.on('/build').map((q) => q.method)).toEqual(['POST', 'POST', 'POST']);
    expect(receiver.on('/submit')).toHaveLength(3);
    expect(world.sim.webhooks.deliveries.filter((a) => a.acknowledged)).toHaveLength(2);
    let files = 0;
    const bodyFile = (body: Buffer): string => {
      const path = join(dir, `payload-${++files}.json`);
      writeFileSync(path, body);
      return path;
    };
    return {
      world,
      receiver,
      run,
      dir,
      build: receiver.on('/build')[2],
      submission: receiver.on('/submit')[2],
      bodyFile,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The `svc-signature` header of a delivery the receiver got. */
export function signatureHeader(request: Received): string {
  return request.headers['svc-signature'] as string;
}

/** The log without the runner's `::add-mask::` registrations (the only place a secret may appear). */
export function printed(result: ActionRun): string {
  return (result.stdout + result.stderr).replace(/^::add-mask::.*$/gm, '');
}

/** The delivery key interface v5 gives an event: the SHA-256 of `["<event>","<id>","<status>"]`. */
export function eventKey(event: string, id: string, status: string): string {
  return createHash('sha256')
    .update(JSON.stringify([event, id, status]))
    .digest('hex');
}

/** A verify-webhook step of the tier, given `secret` and the inputs of each call. */
export function inputsVerifier(
  runners: StepRunners,
  secret: string,
): (inputs: Record<string, string>) => Promise<ActionRun> {
  return (inputs) => runners.runStep('verify-webhook', { inputs: { 'webhook-secret': secret, ...inputs } });
}

/** The secret the failing release's webhooks are signed with. */
export const REPORT_SECRET = 'whsec-report-0123456789-abcdef';

/** A release whose Android build and iOS submission the simulator fails (failingReleaseDeliveries). */
export const FAILING_RELEASE = `name: Release
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
export const HOSTILE_ERROR =
  'Gradle failed <img src=x onerror=alert(1)> @octocat see [docs](https://evil.example/x) **now** | #12\n' +
  '::warning::injected';

/** A payload as parsed JSON, for reading and changing fields in tests. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A signed delivery as the receiver got it: its body as text, its signature, its parsed payload. */
export interface SignedDelivery {
  body: string;
  signature: string;
  json: Json;
}

/** The failing release and what its webhooks delivered (see failingReleaseDeliveries). */
export interface FailingDeliveries {
  world: World;
  receiver: Receiver;
  run: WorkflowRun;
  finishedBuild: SignedDelivery;
  erroredBuild: SignedDelivery;
  erroredSubmission: SignedDelivery;
  close: () => Promise<void>;
}

/**
 * The simulator runs FAILING_RELEASE (the Android build fails with HOSTILE_ERROR, the iOS submission
 * is rejected) and delivers its webhooks, signed with REPORT_SECRET, to a receiver that acknowledges.
 */
export async function failingReleaseDeliveries(): Promise<FailingDeliveries> {
  let world: World | undefined;
  let receiver: Receiver | undefined;
  const close = async (): Promise<void> => {
    await world?.sim.close();
    await receiver?.close();
  };
  try {
    receiver = await startReceiver(() => 200);
    world = await createWorld({ 'release.yml': FAILING_RELEASE }, { defaultJobDurationMs: 30 });
    for (const event of ['BUILD', 'SUBMIT'] as const)
      world.sim.webhooks.add({
        projectId: world.project.id,
        event,
        url: `${receiver.url}/${event}`,
        secret: REPORT_SECRET,
      });
    world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: HOSTILE_ERROR });
    world.sim.setJobBehaviour('submit_ios', {
      outcome: 'failure',
      errorMessage: 'App Store Connect rejected the binary.',
    });
    const run = await dispatchUntil(world, 'release.yml', 'failure');
    await world.sim.webhooks.idle();
    const deliveries: SignedDelivery[] = receiver.received.map((request) => {
      const body = request.body.toString('utf8');
      return { body, signature: request.headers['svc-signature'] as string, json: JSON.parse(body) as Json };
    });
    const finishedBuild = deliveries.find((d) => d.json.buildDetailsPageUrl && d.json.status === 'finished')!;
    const erroredBuild = deliveries.find((d) => d.json.buildDetailsPageUrl && d.json.status === 'errored')!;
    const erroredSubmission = deliveries.find((d) => d.json.submissionDetailsPageUrl)!;
    expect([finishedBuild, erroredBuild, erroredSubmission].every(Boolean)).toBe(true);
    return { world, receiver, run, finishedBuild, erroredBuild, erroredSubmission, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A verify-webhook step of the tier given a signed delivery (and more inputs), with `secret`. */
export function deliveryVerifier(
  runners: StepRunners,
  secret: string,
): (delivery: SignedDelivery, inputs?: Record<string, string>) => Promise<ActionRun> {
  return (delivery, inputs = {}) =>
    runners.runStep('verify-webhook', {
      inputs: { 'webhook-secret': secret, signature: delivery.signature, payload: delivery.body, ...inputs },
    });
}
