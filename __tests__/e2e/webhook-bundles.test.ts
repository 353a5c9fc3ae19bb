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
import type { WorkflowRun } from '../../simulator/index.js';
import { BUNDLES } from '../../testkit/runner/step.js';
import type { World } from '../../testkit/world/world.js';
import type { Received } from '../../testkit/world/webhook-receiver.js';
import {
  deliveryVerifier,
  eventKey,
  failingReleaseDeliveries,
  genuineReleaseDeliveries,
  HOSTILE_ERROR,
  inputsVerifier,
  printed,
  REPORT_SECRET,
  signatureHeader as header,
  WEBHOOK_SECRET,
  type FailingDeliveries,
  type GenuineDeliveries,
  type SignedDelivery as Delivery,
} from '../../testkit/world/webhook-fixtures.js';

describe('verify-webhook.test.ts: a genuine build delivery, accepted from a file', () => {
  const SECRET = WEBHOOK_SECRET;

  let world: World;
  let run: WorkflowRun;
  let build: Received;
  let bodyFile: GenuineDeliveries['bodyFile'];
  let close: GenuineDeliveries['close'] | undefined;

  beforeAll(async () => {
    ({ world, run, build, bodyFile, close } = await genuineReleaseDeliveries());
  });

  afterAll(async () => {
    await close?.();
  });

  const verify = inputsVerifier(BUNDLES, SECRET);

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
  let run: WorkflowRun;
  /** Signed deliveries as the receiver got them. */
  let erroredBuild: Delivery;
  let close: FailingDeliveries['close'] | undefined;

  beforeAll(async () => {
    ({ run, erroredBuild, close } = await failingReleaseDeliveries());
  });

  afterAll(async () => {
    await close?.();
  });

  const job = (key: string) => run.jobs.find((j) => j.key === key)!;

  const verify = deliveryVerifier(BUNDLES, REPORT_SECRET);

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
