/**
 * The simulator's webhook delivery, against a local receiver: signed payloads, retries with growing
 * intervals until acknowledged (and no more after), giving up after the configured attempts, timeouts,
 * and the payloads that completed build and submission jobs of real workflow runs produce.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { WebhookDispatcher, type DeliveryClock } from '../../simulator/webhooks/delivery.js';
import { webhookPayload } from '../../simulator/webhooks/payloads.js';
import type { JobCompletedEvent, WorkflowJob, WorkflowRun } from '../../simulator/index.js';
import { checkWebhookSignature, WebhookSecretError } from '../../src/webhook/signature.js';
import { parseWebhookBody, type BuildPayload, type SubmissionPayload } from '../../src/webhook/payloads.js';
import { call, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { RELEASE } from '../../testkit/docs/workflows.js';
import {
  failTwiceThenAcknowledge,
  startReceiver,
  type Answer,
  type Receiver,
  type Received,
} from '../../testkit/world/webhook-receiver.js';

const SECRET = 'test-signing-secret-0123456789';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A clock that writes down each wait the dispatcher schedules and lets it pass at once: the tests
 * assert the delays asked for, never gaps measured on a machine whose load stretches them.
 * `hold`: a wait passes only when the dispatcher is closed.
 */
function recordingClock(hold = false): DeliveryClock & { delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms, signal) => {
      delays.push(ms);
      if (!hold || signal.aborted) return Promise.resolve();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(answer: (request: Received, count: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

function dispatcher(options: ConstructorParameters<typeof WebhookDispatcher>[0]): WebhookDispatcher {
  const d = new WebhookDispatcher(options);
  cleanups.push(() => d.close());
  return d;
}

const PROJECT = { id: randomUUID(), name: 'app', accountName: 'acme' };

/** A completed build job as the workflow engine reports it. */
function jobEvent(job: Partial<WorkflowJob> = {}, extra: Partial<JobCompletedEvent> = {}): JobCompletedEvent {
  const runId = randomUUID();
  const full: WorkflowJob = {
    id: randomUUID(),
    key: 'build_ios',
    name: 'Build iOS',
    type: 'build',
    status: 'success',
    requiredJobKeys: [],
    environment: 'production',
    outputs: {},
    errors: [],
    buildId: randomUUID(),
    submissionId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:02.500Z',
    ...job,
  };
  const run: WorkflowRun = {
    id: runId,
    status: 'in-progress',
    url: `http://127.0.0.1:1/accounts/acme/projects/app/workflows/${runId}`,
    gitCommitHash: 'c'.repeat(40),
    gitCommitMessage: 'Release 1.0',
    requestedGitRef: 'refs/heads/main',
    triggerEventType: 'MANUAL',
    createdAt: full.createdAt,
    updatedAt: full.updatedAt,
    jobs: [full],
  };
  return {
    project: PROJECT,
    run,
    job: full,
    platform: 'ios',
    startedAt: '2026-01-01T00:00:00.100Z',
    completedAt: '2026-01-01T00:00:02.500Z',
    ...extra,
  };
}

describe('WebhookDispatcher delivery', () => {
  it('retries with growing intervals until acknowledged, then stops; every attempt is recorded', async () => {
    const r = await receiver(failTwiceThenAcknowledge);
    const clock = recordingClock();
    const d = dispatcher({ baseIntervalMs: 50, attempts: 5, clock });
    const hook = d.add({
      projectId: PROJECT.id,
      event: 'BUILD',
      url: `${r.url}/hooks/build`,
      secret: SECRET,
    });
    const event = jobEvent();

    d.onJobCompleted(event);
    // idle() waits for the whole delivery: a fourth attempt would be part of it.
    await d.idle();

    expect(r.received.map((q) => q.method)).toEqual(['POST', 'POST', 'POST']);
    const [first] = r.received;
    // The base interval before the second attempt, twice that before the third, no wait after the ack.
    expect(clock.delays).toEqual([50, 100]);

    // Every attempt sends the same bytes and signature, and the signature verifies.
    for (const q of r.received) {
      expect(q.path).toBe('/hooks/build');
      expect(q.headers['content-type']).toBe('application/json');
      expect(q.body.equals(first.body)).toBe(true);
      expect(q.headers['svc-signature']).toBe(first.headers['svc-signature']);
      expect(checkWebhookSignature(q.body, q.headers['svc-signature'] as string, SECRET)).toEqual({
        valid: true,
      });
    }
    expect(parseWebhookBody(first.body).payload.id).toBe(event.job.buildId);

    expect(d.deliveries.map((a) => [a.attempt, a.status, a.acknowledged])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    const ids = new Set(d.deliveries.map((a) => a.deliveryId));
    expect(ids.size).toBe(1);
    for (const attempt of d.deliveries) {
      expect(attempt.webhookId).toBe(hook.id);
      expect(attempt.event).toBe('BUILD');
      expect(attempt.sentAt).toMatch(ISO_MS);
      expect(attempt.body).toBe(first.body.toString('utf8'));
      expect(attempt.signature).toBe(first.headers['svc-signature']);
    }
  });

  it('gives up after the configured number of attempts', async () => {
    const r = await receiver(() => 500);
    const clock = recordingClock();
    const d = dispatcher({ baseIntervalMs: 5, attempts: 3, clock });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: r.url, secret: SECRET });
    d.onJobCompleted(jobEvent());
    await d.idle();
    expect(r.received).toHaveLength(3);
    // Two waits, none after the last attempt.
    expect(clock.delays).toEqual([5, 10]);
    expect(d.deliveries.map((a) => a.status)).toEqual([500, 500, 500]);
  });

  it('acknowledges on 3xx, retries on 4xx', async () => {
    const r = await receiver((q, count) => (q.path === '/redirect' ? 302 : count === 1 ? 404 : 204));
    const d = dispatcher({ baseIntervalMs: 5 });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: `${r.url}/redirect`, secret: SECRET });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: `${r.url}/missing`, secret: SECRET });
    d.onJobCompleted(jobEvent());
    await d.idle();
    expect(r.on('/redirect')).toHaveLength(1);
    expect(r.on('/missing')).toHaveLength(2);
    expect(d.deliveries.map((a) => a.status).sort()).toEqual([204, 302, 404]);
  });

  it('counts a receiver that does not answer in time, or refuses the connection, as a failed attempt', async () => {
    const r = await receiver((_q, count) => (count === 1 ? 'hang' : 200));
    const closed = await startReceiver(() => 200);
    const refusedUrl = closed.url;
    await closed.close();
    // 2 s: ten times what a busy machine takes for the answer that counts (a hang waits it out).
    const d = dispatcher({ baseIntervalMs: 5, attempts: 2, timeoutMs: 2_000 });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: `${r.url}/slow`, secret: SECRET });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: `${refusedUrl}/gone`, secret: SECRET });
    d.onJobCompleted(jobEvent());
    await d.idle();

    const slow = d.deliveries.filter((a) => a.url.endsWith('/slow'));
    expect(slow.map((a) => a.status)).toEqual([null, 200]);
    expect(slow[0].error).toBe('no answer within 2000 ms');
    const gone = d.deliveries.filter((a) => a.url.endsWith('/gone'));
    expect(gone.map((a) => [a.status, a.error])).toEqual([
      [null, 'ECONNREFUSED'],
      [null, 'ECONNREFUSED'],
    ]);
  });

  it('close() cancels waiting retries: idle() resolves and no further request is made', async () => {
    const r = await receiver(() => 500);
    // A clock on which the 60 s wait passes only when the dispatcher is closed.
    const clock = recordingClock(true);
    const d = dispatcher({ baseIntervalMs: 60_000, clock });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: r.url, secret: SECRET });
    d.onJobCompleted(jobEvent());
    await waitFor(() => clock.delays.length === 1, 'the wait before the second attempt');
    expect(clock.delays).toEqual([60_000]);
    d.close();
    await d.idle();
    expect(r.received).toHaveLength(1);
    expect(d.deliveries).toHaveLength(1);
    // Closed: a further completion starts no delivery at all.
    d.onJobCompleted(jobEvent());
    await d.idle();
    expect(r.received).toHaveLength(1);
  });

  it('delivers only to webhooks of the project and event, and not after remove()', async () => {
    const r = await receiver(() => 200);
    const d = dispatcher({ baseIntervalMs: 5 });
    d.add({ projectId: PROJECT.id, event: 'BUILD', url: `${r.url}/build`, secret: SECRET });
    d.add({ projectId: PROJECT.id, event: 'SUBMIT', url: `${r.url}/submit`, secret: SECRET });
    const other = d.add({ projectId: randomUUID(), event: 'BUILD', url: `${r.url}/other`, secret: SECRET });
    d.onJobCompleted(jobEvent());
    d.onJobCompleted(
      jobEvent({ type: 'submission', key: 'submit', buildId: null, submissionId: randomUUID() }),
    );
    d.onJobCompleted(jobEvent({ type: 'custom', key: 'tests', buildId: null }));
    d.onJobCompleted(jobEvent({ status: 'canceled', buildId: null }, { startedAt: null })); // canceled before it started
    await d.idle();
    expect(r.received.map((q) => q.path).sort()).toEqual(['/build', '/submit']);

    expect(d.list().map((w) => w.url)).toEqual([`${r.url}/build`, `${r.url}/submit`, `${r.url}/other`]);
    expect(JSON.stringify(d.list())).not.toContain(SECRET);
    expect(d.remove(other.id)).toBe(true);
    expect(d.remove(other.id)).toBe(false);
    expect(d.list(PROJECT.id)).toHaveLength(2);
  });

  it.each([
    ['an empty secret', { secret: '' }, WebhookSecretError],
    ['a 15-character secret', { secret: '0123456789abcde' }, /at least 16 characters/],
    ['an unknown event', { event: 'DEPLOY' }, /BUILD or SUBMIT/],
    ['a relative URL', { url: '/hooks' }, /absolute http or https URL/],
    ['a non-HTTP URL', { url: 'ftp://127.0.0.1/x' }, /http or https/],
  ])('refuses a webhook with %s', (_name, override, error) => {
    const d = dispatcher({});
    const options = {
      projectId: PROJECT.id,
      event: 'BUILD',
      url: 'http://127.0.0.1:9/x',
      secret: SECRET,
      ...override,
    };
    expect(() => d.add(options as Parameters<WebhookDispatcher['add']>[0])).toThrow(error);
    expect(d.list()).toEqual([]);
  });
});

describe('payloads of completed jobs', () => {
  it('fills a finished build from the run and job', () => {
    const event = jobEvent();
    const prepared = webhookPayload(event)!;
    expect(prepared.event).toBe('BUILD');
    const payload = prepared.payload as BuildPayload;
    expect(parseWebhookBody(JSON.stringify(payload)).payload).toEqual(payload);
    expect(payload).toMatchObject({
      id: event.job.buildId,
      appId: PROJECT.id,
      accountName: 'acme',
      projectName: 'app',
      platform: 'ios',
      status: 'finished',
      cancelingUserId: null,
      buildDetailsPageUrl: `http://127.0.0.1:1/accounts/acme/projects/app/builds/${event.job.buildId}`,
      completedAt: event.completedAt,
    });
    expect(payload.artifacts.buildUrl).toMatch(/\.ipa$/);
    expect(payload.error).toBeUndefined();
    expect(payload.metadata.gitCommitHash).toBe(event.run.gitCommitHash);
    expect(payload.metadata.gitCommitMessage).toBe(event.run.gitCommitMessage);
    for (const key of [
      'createdAt',
      'enqueuedAt',
      'provisioningStartedAt',
      'workerStartedAt',
      'completedAt',
      'updatedAt',
      'expirationDate',
    ]) {
      expect(payload[key as keyof BuildPayload]).toMatch(ISO_MS);
    }
    for (const value of Object.values(payload.metrics)) expect(typeof value).toBe('number');
    expect(payload.metrics.buildEndTimestamp).toBe(Date.parse(event.completedAt));
    expect(Date.parse(payload.provisioningStartedAt!)).toBeLessThanOrEqual(
      Date.parse(payload.workerStartedAt!),
    );
    expect(Date.parse(payload.workerStartedAt!)).toBeLessThanOrEqual(Date.parse(payload.completedAt));
  });

  it('a build canceled in the queue: the points it never reached are null; a submission that never ran has no logs URL', () => {
    const build = webhookPayload(jobEvent({ status: 'canceled' }, { startedAt: null }))!
      .payload as BuildPayload;
    expect([build.status, build.provisioningStartedAt, build.workerStartedAt]).toEqual([
      'canceled',
      null,
      null,
    ]);
    expect(build.completedAt).toMatch(ISO_MS);
    const submission = webhookPayload(
      jobEvent(
        { status: 'canceled', type: 'submission', key: 'submit', buildId: null, submissionId: randomUUID() },
        { startedAt: null },
      ),
    )!.payload as SubmissionPayload;
    expect(submission.status).toBe('canceled');
    expect(submission.submissionInfo).toEqual({});
  });

  it('fills an errored build with its error and no build URL, and a canceled one with its canceling user', () => {
    const failed = webhookPayload(jobEvent({ status: 'failure' }, { errorMessage: 'Gradle build failed' }))!
      .payload as BuildPayload;
    expect(failed.status).toBe('errored');
    expect(failed.error).toEqual({ message: 'Gradle build failed', errorCode: 'UNKNOWN_ERROR' });
    expect(failed.artifacts.buildUrl).toBeUndefined();

    const canceled = webhookPayload(jobEvent({ status: 'canceled' }))!.payload as BuildPayload;
    expect(canceled.status).toBe('canceled');
    expect(canceled.cancelingUserId).toMatch(/^[0-9a-f-]{36}$/);
    expect(canceled.error).toBeUndefined();
    expect(canceled.artifacts.buildUrl).toBeUndefined();
  });

  it('fills submissions, with the upstream build as turtleBuildId and the error on failure', () => {
    const base = jobEvent();
    const build = base.job;
    const submission: WorkflowJob = {
      ...build,
      id: randomUUID(),
      key: 'submit',
      type: 'submission',
      status: 'failure',
      requiredJobKeys: ['build_ios'],
      buildId: null,
      submissionId: randomUUID(),
    };
    const event = {
      ...base,
      job: submission,
      run: { ...base.run, jobs: [build, submission] },
      errorMessage: 'rejected',
    };
    const prepared = webhookPayload(event)!;
    expect(prepared.event).toBe('SUBMIT');
    const payload = prepared.payload as SubmissionPayload;
    expect(parseWebhookBody(JSON.stringify(payload)).event).toBe('SUBMIT');
    expect(payload).toMatchObject({
      id: submission.submissionId,
      turtleBuildId: build.buildId,
      status: 'errored',
      platform: 'ios',
    });
    expect(payload.submissionInfo.error).toEqual({ message: 'rejected', errorCode: 'UNKNOWN_ERROR' });
    expect(payload.archiveUrl).toContain(build.buildId!);

    const alone = webhookPayload({
      ...event,
      job: { ...submission, status: 'success', requiredJobKeys: [] },
      errorMessage: undefined,
    })!.payload as SubmissionPayload;
    expect(alone.status).toBe('finished');
    expect(alone.turtleBuildId).toBeUndefined();
    expect(alone.submissionInfo.error).toBeUndefined();
  });
});

describe('the simulator delivers webhooks for workflow runs', () => {
  let world: World;

  async function setUp(): Promise<Receiver> {
    world = await createWorld(
      { 'release.yml': RELEASE },
      { defaultJobDurationMs: 20, webhooks: { baseIntervalMs: 20 } },
    );
    cleanups.push(() => world.sim.close());
    return receiver(failTwiceThenAcknowledge);
  }

  async function dispatch(): Promise<WorkflowRun> {
    const reply = await call(world.sim, 'POST', '/v2/workflows/dispatch', {
      token: world.token,
      body: { appId: world.project.id, gitRef: 'main', fileName: 'release.yml' },
    });
    expect(reply.status).toBe(200);
    const id = reply.json.data.id as string;
    return waitFor(() => {
      const run = world.sim.getRun(id);
      return run && ['success', 'failure', 'canceled'].includes(run.status) && run;
    }, 'the run to end');
  }

  it('configured through the control routes: one build and one submission delivery, each acknowledged on the third attempt', async () => {
    const r = await setUp();
    for (const [event, path] of [
      ['BUILD', '/build'],
      ['SUBMIT', '/submit'],
    ]) {
      const reply = await call(world.sim, 'POST', '/_sim/webhooks', {
        body: { projectId: world.project.id, event, url: `${r.url}${path}`, secret: SECRET },
      });
      expect(reply.status).toBe(200);
      expect(reply.json.data).toMatchObject({ projectId: world.project.id, event, url: `${r.url}${path}` });
      expect(reply.text).not.toContain(SECRET);
    }
    const listed = await call(world.sim, 'GET', '/_sim/webhooks');
    expect(listed.json.data.map((w: { event: string }) => w.event)).toEqual(['BUILD', 'SUBMIT']);

    const run = await dispatch();
    expect(run.status).toBe('success');
    await world.sim.webhooks.idle();

    const build = run.jobs.find((j) => j.key === 'build_ios')!;
    const submit = run.jobs.find((j) => j.key === 'submit_ios')!;
    expect(r.on('/build')).toHaveLength(3);
    expect(r.on('/submit')).toHaveLength(3);
    const buildPayload = parseWebhookBody(r.on('/build')[2].body);
    expect(buildPayload.event).toBe('BUILD');
    expect(buildPayload.payload).toMatchObject({
      id: build.buildId,
      appId: world.project.id,
      accountName: 'acme',
      projectName: 'app',
      platform: 'ios',
      status: 'finished',
    });
    const submitPayload = parseWebhookBody(r.on('/submit')[2].body);
    expect(submitPayload.event).toBe('SUBMIT');
    expect(submitPayload.payload).toMatchObject({
      id: submit.submissionId,
      turtleBuildId: build.buildId,
      status: 'finished',
    });
    for (const q of r.received) {
      expect(checkWebhookSignature(q.body, q.headers['svc-signature'] as string, SECRET).valid).toBe(true);
    }

    const deliveries = await call(world.sim, 'GET', '/_sim/webhook-deliveries');
    type Attempt = { event: string; attempt: number; status: number; body: string };
    for (const event of ['BUILD', 'SUBMIT']) {
      const attempts = (deliveries.json.data as Attempt[]).filter((a) => a.event === event);
      expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
        [1, 500],
        [2, 503],
        [3, 200],
      ]);
      const path = event === 'BUILD' ? '/build' : '/submit';
      expect(attempts.map((a) => a.body)).toEqual(r.on(path).map((q) => q.body.toString('utf8')));
    }
  });

  it('sends an errored build with the error message of the failed job', async () => {
    const r = await setUp();
    world.sim.webhooks.add({
      projectId: world.project.id,
      event: 'BUILD',
      url: `${r.url}/build`,
      secret: SECRET,
    });
    world.sim.setJobBehaviour('build_ios', { outcome: 'failure', errorMessage: 'Xcode archive failed' });
    const run = await dispatch();
    expect(run.status).toBe('failure');
    await world.sim.webhooks.idle();
    const { payload } = parseWebhookBody(r.on('/build')[2].body) as { payload: BuildPayload };
    expect(payload.status).toBe('errored');
    expect(payload.error).toEqual({ message: 'Xcode archive failed', errorCode: 'UNKNOWN_ERROR' });
  });

  it('refuses bad webhook configurations on the control route with 400', async () => {
    await setUp();
    const short = await call(world.sim, 'POST', '/_sim/webhooks', {
      body: { projectId: world.project.id, event: 'BUILD', url: 'http://127.0.0.1:9/', secret: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 16 characters');
    const unknown = await call(world.sim, 'POST', '/_sim/webhooks', {
      body: { projectId: randomUUID(), event: 'BUILD', url: 'http://127.0.0.1:9/', secret: SECRET },
    });
    expect(unknown.status).toBe(400);
    expect(world.sim.webhooks.list()).toEqual([]);
  });
});
