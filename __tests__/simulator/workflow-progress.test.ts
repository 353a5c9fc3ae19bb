import { afterEach, describe, expect, it } from '@jest/globals';
import { type JobCompletedEvent, type RunCompletedEvent, type WorkflowRun } from '../../simulator/index.js';
import { call, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';

const PIPELINE = `name: Release
on: workflow_dispatch
jobs:
  build:
    name: Build iOS
    type: build
    params:
      platform: ios
    outputs:
      artifact: "\${{ steps.upload.outputs.url }}"
  submit:
    type: submit
    needs: build
    environment: staging
  approval:
    type: require-approval
    needs: [build]
  deploy:
    name: Deploy
    needs: [approval, submit]
    outputs:
      from_build: "\${{ needs.build.outputs.artifact }}"
  after:
    needs: deploy
`;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const WORKFLOWS = { 'release.yml': PIPELINE };
let w: World;

afterEach(async () => {
  await w?.sim.close();
});

async function start(): Promise<string> {
  const reply = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, gitRef: 'main', fileName: 'release.yml' },
  });
  expect(reply.status).toBe(200);
  return reply.json.data.id;
}

async function getRun(id: string): Promise<WorkflowRun> {
  const reply = await call(w.sim, 'GET', `/v2/workflows/runs/${id}`, { token: w.viewer });
  expect(reply.status).toBe(200);
  return reply.json.data;
}

const statuses = (run: WorkflowRun): Record<string, string> =>
  Object.fromEntries(run.jobs.map((j) => [j.key, j.status]));
const untilRun = (id: string, pred: (run: WorkflowRun) => boolean, what: string) =>
  waitFor(() => {
    const run = w.sim.getRun(id)!;
    return pred(run) && run;
  }, what);

describe('workflow run progression', () => {
  it('runs jobs in dependency order through approval to success, with ids, outputs and events', async () => {
    // The run stays `new` for a second and the build runs for one: wide enough that the reads below see
    // each state however slowly this machine answers (they wait for states, never for a time).
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 20, runStartDelayMs: 1000 });
    w.sim.setJobBehaviour('build', { durationMs: 1000 });
    const completed: JobCompletedEvent[] = [];
    const runsCompleted: RunCompletedEvent[] = [];
    w.sim.events.on('job-completed', (e: JobCompletedEvent) => completed.push(e));
    w.sim.events.on('run-completed', (e: RunCompletedEvent) => runsCompleted.push(e));
    const id = await start();

    const fresh = await getRun(id);
    expect(fresh.status).toBe('new');
    expect(Object.values(statuses(fresh))).toEqual(['new', 'new', 'new', 'new', 'new']);
    expect(fresh.createdAt).toMatch(ISO_MS);
    expect(fresh.url).toBe(`${w.sim.url}/accounts/acme/projects/app/workflows/${id}`);
    const build0 = fresh.jobs[0];
    expect(build0).toEqual({
      id: expect.any(String),
      key: 'build',
      name: 'Build iOS',
      type: 'build',
      status: 'new',
      requiredJobKeys: [],
      environment: 'production',
      outputs: {},
      errors: [],
      buildId: null,
      submissionId: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(fresh.jobs.map((j) => [j.key, j.type, j.requiredJobKeys, j.environment, j.name])).toEqual([
      ['build', 'build', [], 'production', 'Build iOS'],
      ['submit', 'submission', ['build'], 'staging', 'submit'],
      ['approval', 'require-approval', ['build'], 'production', 'approval'],
      ['deploy', 'custom', ['approval', 'submit'], 'production', 'Deploy'],
      ['after', 'custom', ['deploy'], 'production', 'after'],
    ]);

    const running = await untilRun(id, (r) => r.jobs[0].status === 'in-progress', 'build in progress');
    expect(running.status).toBe('in-progress');
    expect(running.jobs[0].buildId).toMatch(/^[0-9a-f-]{36}$/);
    expect(running.jobs[0].submissionId).toBeNull();
    expect(running.updatedAt > fresh.updatedAt).toBe(true);

    const waiting = await untilRun(id, (r) => r.status === 'action-required', 'action-required');
    expect(statuses(waiting)).toEqual({
      build: 'success',
      submit: 'success',
      approval: 'action-required',
      deploy: 'new',
      after: 'new',
    });
    expect(waiting.jobs[1].submissionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(waiting.jobs[1].buildId).toBeNull();
    expect(waiting.jobs[0].outputs).toEqual({ artifact: 'sim-steps-upload-outputs-url' });

    w.sim.approve(id);
    const done = await untilRun(id, (r) => r.status === 'success', 'run success');
    expect(Object.values(statuses(done))).toEqual(['success', 'success', 'success', 'success', 'success']);
    expect(done.jobs[3].outputs).toEqual({ from_build: 'sim-steps-upload-outputs-url' });
    expect((await getRun(id)).status).toBe('success');

    expect(completed.map((e) => e.job.key)).toEqual(['build', 'submit', 'approval', 'deploy', 'after']);
    const buildEvent = completed[0];
    expect(buildEvent.project).toEqual({ id: w.project.id, name: 'app', accountName: 'acme' });
    expect(buildEvent.platform).toBe('ios');
    expect(buildEvent.job.status).toBe('success');
    expect(buildEvent.job.buildId).toBe(done.jobs[0].buildId);
    expect(buildEvent.run.id).toBe(id);
    expect(buildEvent.startedAt! <= buildEvent.completedAt).toBe(true);
    expect(buildEvent.errorMessage).toBeUndefined();
    expect(completed[1].platform).toBe('android');
    expect(runsCompleted).toHaveLength(1);
    expect(runsCompleted[0].run.status).toBe('success');
  });

  it('a failed job skips its transitive dependants and fails the run', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 10 });
    w.sim.setJobBehaviour('build', { outcome: 'failure', errorMessage: 'Gradle exploded', durationMs: 15 });
    const completed: JobCompletedEvent[] = [];
    w.sim.events.on('job-completed', (e: JobCompletedEvent) => completed.push(e));
    const id = await start();
    const done = await untilRun(id, (r) => r.status === 'failure', 'run failure');
    expect(statuses(done)).toEqual({
      build: 'failure',
      submit: 'skipped',
      approval: 'skipped',
      deploy: 'skipped',
      after: 'skipped',
    });
    expect(done.jobs[0].errors).toEqual([{ title: 'Build iOS failed', message: 'Gradle exploded' }]);
    expect(done.jobs[0].outputs).toEqual({});
    expect(done.jobs[0].buildId).not.toBeNull();
    expect(completed).toHaveLength(1);
    expect(completed[0].errorMessage).toBe('Gradle exploded');
    expect(completed[0].job.status).toBe('failure');
  });

  it('a downstream failure leaves finished upstream jobs successful', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 5 });
    w.sim.setJobBehaviour('submit', { outcome: 'failure' });
    const id = await start();
    const waiting = await untilRun(id, (r) => r.jobs[1].status === 'failure', 'submit failure');
    // deploy needs the failed submit: skipped at once, while the approval still waits
    expect(waiting.status).toBe('action-required');
    expect(statuses(waiting)).toMatchObject({
      approval: 'action-required',
      deploy: 'skipped',
      after: 'skipped',
    });
    w.sim.approve(id);
    const final = await untilRun(id, (r) => r.status === 'failure', 'run failure');
    expect(statuses(final)).toMatchObject({
      build: 'success',
      submit: 'failure',
      deploy: 'skipped',
      after: 'skipped',
    });
    expect(final.jobs[1].errors[0].message).toBe('Job submit failed');
  });

  it('rejecting the approval fails the approval job and the run', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 5 });
    const id = await start();
    await untilRun(id, (r) => r.status === 'action-required', 'action-required');
    w.sim.reject(id);
    const done = await untilRun(id, (r) => r.status === 'failure', 'run failure');
    expect(statuses(done)).toEqual({
      build: 'success',
      submit: 'success',
      approval: 'failure',
      deploy: 'skipped',
      after: 'skipped',
    });
    expect(done.jobs[2].errors[0].title).toBe('Approval rejected');
    expect(() => w.sim.approve(id)).toThrow(/no job waiting/);
  });

  it('cancel moves running jobs through pending-cancel and unstarted ones to canceled', async () => {
    // Manual time: the read below sees pending-cancel because the 150 ms have not passed until the
    // test says so, not because a busy machine answered within them.
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 5, cancelDelayMs: 150, manualTime: true });
    w.sim.setJobBehaviour('build', { durationMs: 10_000 });
    const completed: JobCompletedEvent[] = [];
    w.sim.events.on('job-completed', (e: JobCompletedEvent) => completed.push(e));
    const id = await start();
    w.sim.advanceTime(0);
    expect((await getRun(id)).jobs[0].status).toBe('in-progress');
    w.sim.cancelRun(id);
    const pending = await getRun(id);
    expect(pending.status).toBe('in-progress');
    expect(statuses(pending)).toEqual({
      build: 'pending-cancel',
      submit: 'canceled',
      approval: 'canceled',
      deploy: 'canceled',
      after: 'canceled',
    });
    w.sim.advanceTime(149);
    expect(w.sim.getRun(id)!.jobs[0].status).toBe('pending-cancel');
    w.sim.advanceTime(1);
    const done = await untilRun(id, (r) => r.status === 'canceled', 'run canceled');
    expect(done.jobs[0].status).toBe('canceled');
    const buildEvent = completed.find((e) => e.job.key === 'build')!;
    expect(buildEvent.job.status).toBe('canceled');
    expect(buildEvent.startedAt).not.toBeNull();
    expect(completed.find((e) => e.job.key === 'deploy')!.startedAt).toBeNull();
    // canceling a finished run changes nothing
    const before = w.sim.getRun(id)!.updatedAt;
    w.sim.cancelRun(id);
    expect(w.sim.getRun(id)!.updatedAt).toBe(before);
  });

  it('cancel while waiting for approval cancels the run', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 5 });
    const id = await start();
    await untilRun(id, (r) => r.status === 'action-required', 'action-required');
    w.sim.cancelRun(id);
    const done = await untilRun(id, (r) => r.status === 'canceled', 'canceled');
    expect(statuses(done)).toMatchObject({
      build: 'success',
      submit: 'success',
      approval: 'canceled',
      deploy: 'canceled',
    });
  });

  it('control routes approve, reject and cancel runs; 409 when nothing awaits approval, 404 for unknown runs', async () => {
    // Manual time: the approve comes before the approval job waits because the test says so, not
    // because the build outlasts a busy machine's request.
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 5, manualTime: true });
    w.sim.setJobBehaviour('build', { durationMs: 600 });
    const id = await start();
    w.sim.advanceTime(0);
    const early = await call(w.sim, 'POST', `/_sim/runs/${id}/approve`);
    expect(early.status).toBe(409);
    for (let ms = 0; ms < 1_000; ms += 5) w.sim.advanceTime(5);
    await untilRun(id, (r) => r.status === 'action-required', 'action-required');
    const approved = await call(w.sim, 'POST', `/_sim/runs/${id}/approve`);
    expect(approved.status).toBe(200);
    for (let ms = 0; ms < 1_000; ms += 5) w.sim.advanceTime(5);
    await untilRun(id, (r) => r.status === 'success', 'success');

    const id2 = await start();
    w.sim.advanceTime(0);
    const canceled = await call(w.sim, 'POST', `/_sim/runs/${id2}/cancel`);
    expect(canceled.status).toBe(200);
    for (let ms = 0; ms < 1_000; ms += 5) w.sim.advanceTime(5);
    await untilRun(id2, (r) => r.status === 'canceled', 'canceled');
    expect((await call(w.sim, 'POST', '/_sim/runs/00000000-0000-4000-8000-000000000000/reject')).status).toBe(
      404,
    );

    const state = await call(w.sim, 'GET', '/_sim/state');
    expect(state.json.data.runs.map((r: WorkflowRun) => r.status)).toEqual(['success', 'canceled']);
    expect(w.sim.requests.filter((r) => r.control).length).toBe(5);
  });
});
