/**
 * The control routes that tests and people trying the action use: behaviour bodies checked strictly
 * (null returns a setting to its default), clearing a job's behaviour, making a session ready now,
 * and the reset.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { call, errorMessages, sleep, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

const WORKFLOWS = { 'ci.yml': ONE_BUILD };
let w: World;

afterEach(async () => {
  await w?.sim.close();
});

const control = (method: string, path: string, body?: unknown) => call(w.sim, method, path, { body });

async function createSession(): Promise<string> {
  const reply = await call(w.sim, 'POST', '/v2/device-run-sessions', {
    token: w.token,
    body: { appId: w.project.id, platform: 'ios' },
  });
  expect(reply.status).toBe(200);
  return reply.json.data.id as string;
}

async function dispatch(): Promise<string> {
  const reply = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, gitRef: 'main', fileName: 'ci.yml' },
  });
  expect(reply.status).toBe(200);
  return reply.json.data.id as string;
}

const finalRun = (id: string) =>
  waitFor(() => {
    const run = w.sim.getRun(id);
    return run && ['success', 'failure', 'canceled'].includes(run.status) && run;
  }, `run ${id} to end`);

describe('POST /_sim/session-behaviour', () => {
  it('null clears errorAfterMs: new sessions become ready instead of erroring at once', async () => {
    w = await createWorld(WORKFLOWS, { readinessDelayMs: 30 });
    expect((await control('POST', '/_sim/session-behaviour', { errorAfterMs: 10 })).status).toBe(200);
    const errors = await createSession();
    await waitFor(() => w.sim.getSession(errors)?.status === 'errored', 'the session to error');

    const cleared = await control('POST', '/_sim/session-behaviour', { errorAfterMs: null });
    expect(cleared.json.data).toEqual({});
    const id = await createSession();
    await waitFor(() => w.sim.getSession(id)?.status === 'in-progress', 'the session to be ready');
    await sleep(40);
    expect(w.sim.getSession(id)?.status).toBe('in-progress');
    expect(w.sim.getSession(id)?.remoteConfig).not.toBeNull();
  });

  it('null clears every other field too: a session after clearing behaves like the default', async () => {
    // Held until made ready (explicit states): a short delay raced the test's own sleep under load.
    w = await createWorld(WORKFLOWS, { readinessDelayMs: 3_600_000 });
    const all = {
      readinessDelayMs: 5_000,
      errorAfterMs: 5,
      remoteConfigLagMs: 5_000,
      omitArgentToken: true,
      extraStatusBeforeReady: 'queued',
      extraRemoteConfigFields: { previewApiUrl: 'http://x.invalid' },
      minuteMs: 1,
    };
    expect((await control('POST', '/_sim/session-behaviour', all)).json.data).toEqual(all);
    const nulls = Object.fromEntries(Object.keys(all).map((key) => [key, null]));
    expect((await control('POST', '/_sim/session-behaviour', nulls)).json.data).toEqual({});

    const reply = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: { appId: w.project.id, platform: 'ios', type: 'argent', maxDurationMinutes: 30 },
    });
    const id = reply.json.data.id as string;
    // extraStatusBeforeReady: null once set the status to null.
    expect(w.sim.getSession(id)?.status).toBe('new');
    w.sim.readySession(id);
    const ready = await waitFor(
      () => w.sim.getSession(id)?.status === 'in-progress' && w.sim.getSession(id),
      'the session to be ready',
    );
    expect(Object.keys(ready.remoteConfig!).sort()).toEqual(['toolsAuthToken', 'toolsUrl', 'webPreviewUrl']);
    await sleep(40);
    expect(w.sim.getSession(id)?.status).toBe('in-progress');
  });

  it('merges a change, and DELETE returns to the defaults', async () => {
    w = await createWorld(WORKFLOWS);
    await control('POST', '/_sim/session-behaviour', { readinessDelayMs: 10 });
    const merged = await control('POST', '/_sim/session-behaviour', { remoteConfigLagMs: 5 });
    expect(merged.json.data).toEqual({ readinessDelayMs: 10, remoteConfigLagMs: 5 });
    expect((await control('GET', '/_sim/state')).json.data.sessionBehaviour).toEqual(merged.json.data);
    expect((await control('DELETE', '/_sim/session-behaviour')).json.data).toEqual({});
    expect((await control('GET', '/_sim/state')).json.data.sessionBehaviour).toEqual({});
  });

  it('refuses wrong types, negative delays and unknown fields, naming them, and changes nothing', async () => {
    w = await createWorld(WORKFLOWS);
    await control('POST', '/_sim/session-behaviour', { readinessDelayMs: 10 });
    const cases: Array<[unknown, RegExp]> = [
      [{ errorAfterMs: -1 }, /errorAfterMs/],
      [{ errorAfterMs: '5' }, /errorAfterMs/],
      [{ omitArgentToken: 'yes' }, /omitArgentToken/],
      [{ extraStatusBeforeReady: '' }, /extraStatusBeforeReady/],
      [{ extraRemoteConfigFields: [1] }, /extraRemoteConfigFields/],
      [{ minuteMs: 0 }, /minuteMs/],
      [{ errorAfter: 5 }, /Unknown field errorAfter \(fields: readinessDelayMs, errorAfterMs/],
      [[], /must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const reply = await control('POST', '/_sim/session-behaviour', body);
      expect(reply.status).toBe(400);
      expect(errorMessages(reply)).toMatch(message);
    }
    expect((await control('GET', '/_sim/state')).json.data.sessionBehaviour).toEqual({
      readinessDelayMs: 10,
    });
  });
});

describe('job behaviour', () => {
  it('DELETE /_sim/jobs/:key/behaviour: later jobs with that key run with the defaults again', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 10 });
    const set = await control('POST', '/_sim/jobs/build/behaviour', {
      outcome: 'failure',
      errorMessage: 'boom',
    });
    expect(set.json.data).toEqual({ outcome: 'failure', errorMessage: 'boom' });
    expect((await finalRun(await dispatch())).jobs[0]).toMatchObject({ status: 'failure' });

    expect((await control('DELETE', '/_sim/jobs/build/behaviour')).status).toBe(200);
    expect((await control('GET', '/_sim/state')).json.data.jobBehaviours).toEqual({});
    expect((await finalRun(await dispatch())).jobs[0]).toMatchObject({ status: 'success', errors: [] });
  });

  it('null fields mean the defaults; wrong values are refused', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 10 });
    const set = await control('POST', '/_sim/jobs/build/behaviour', {
      durationMs: null,
      outcome: null,
      errorMessage: null,
    });
    expect(set.json.data).toEqual({});
    expect((await finalRun(await dispatch())).status).toBe('success');
    for (const body of [{ outcome: 'skipped' }, { durationMs: -5 }, { duration: 5 }]) {
      const reply = await control('POST', '/_sim/jobs/build/behaviour', body);
      expect(reply.status).toBe(400);
      expect(errorMessages(reply)).toMatch(/outcome|durationMs|Unknown field duration/);
    }
  });
});

describe('POST /_sim/sessions/:id/ready', () => {
  it('finishes provisioning now; a session already ready is left as it is', async () => {
    w = await createWorld(WORKFLOWS, { readinessDelayMs: 60_000 });
    const id = await createSession();
    const ready = await control('POST', `/_sim/sessions/${id}/ready`);
    expect(ready.json.data).toMatchObject({ id, status: 'in-progress' });
    expect(ready.json.data.remoteConfig.agentDeviceRemoteSessionUrl).toContain(id);
    const again = await control('POST', `/_sim/sessions/${id}/ready`);
    expect(again.json.data).toEqual(ready.json.data);
    expect((await control('POST', `/_sim/sessions/${id}-x/ready`)).status).toBe(404);
  });
});

describe('POST /_sim/reset', () => {
  it('forgets runs, sessions, behaviours, faults and recordings with their timers; tokens keep working', async () => {
    // Manual time: a timer the reset left could only fire when the test moves time on, and it does.
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 100, readinessDelayMs: 100, manualTime: true });
    await dispatch();
    await createSession();
    await control('POST', '/_sim/session-behaviour', { errorAfterMs: 5 });
    await control('POST', '/_sim/jobs/build/behaviour', { outcome: 'failure' });
    await control('POST', '/_sim/faults', { kind: 'status', status: 503, path: '/v2/', times: 5 });

    expect((await control('POST', '/_sim/reset')).status).toBe(200);
    // Listened to from the reset on: a timer the reset left would fire within the hour below.
    const completed: unknown[] = [];
    w.sim.events.on('job-completed', (event) => completed.push(event));
    w.sim.events.on('session-status', (event) => completed.push(event));
    expect(w.sim.requests).toEqual([]);
    const state = (await control('GET', '/_sim/state')).json.data;
    expect(state).toMatchObject({
      runs: [],
      sessions: [],
      activeSessions: [],
      faults: [],
      sessionBehaviour: {},
      jobBehaviours: {},
    });
    expect(state.projects).toHaveLength(1);
    w.sim.advanceTime(3_600_000);
    expect(completed).toEqual([]);

    // The same token, no fault left, default behaviours.
    const runId = await dispatch();
    w.sim.advanceTime(100);
    expect(w.sim.getRun(runId)?.status).toBe('success');
    const id = await createSession();
    w.sim.advanceTime(100);
    expect(w.sim.getSession(id)?.status).toBe('in-progress');
    expect(w.sim.runs()).toHaveLength(1);
  });
});

describe('POST /_sim/runs/:id/jobs/:key/finish', () => {
  it('ends a running job now, as its behaviour says; a job not running is a 409', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 600_000 });
    const id = await dispatch();
    await waitFor(() => w.sim.getRun(id)?.status === 'in-progress', 'the run to start');
    const finished = await control('POST', `/_sim/runs/${id}/jobs/build/finish`);
    expect(finished.status).toBe(200);
    expect(finished.json.data).toMatchObject({
      status: 'success',
      jobs: [{ key: 'build', status: 'success' }],
    });
    const again = await control('POST', `/_sim/runs/${id}/jobs/build/finish`);
    expect(again.status).toBe(409);
    expect(again.json.errors[0].message).toBe(`Job build of workflow run ${id} is not running (success)`);
    expect((await control('POST', `/_sim/runs/${id}/jobs/nope/finish`)).status).toBe(404);
  });
});
