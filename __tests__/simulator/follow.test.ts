/**
 * The paths of interface v2 against the simulator: a run followed by id from another process (also a
 * run nobody dispatched through the API), gating on some jobs while a later one runs on, and a session
 * created in one step and waited for in another, later, with a provisioning delay.
 */
import { execFile } from 'node:child_process';
import { afterEach, describe, expect, it } from '@jest/globals';
import { call, sleep, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { STORE, workflow } from '../../testkit/docs/workflows.js';

/** A build held behind an approval: the run waits, in a known state, until the test approves it. */
const HELD = workflow('Held', {
  approval: { type: 'require-approval' },
  build: { type: 'build', needs: ['approval'] },
});
const WORKFLOWS = { 'release.yml': STORE, 'held.yml': HELD };
let w: World;

afterEach(async () => {
  await w?.sim.close();
});

/** Reads `path` from a separate Node process every 20 ms until `status` is one of `until`. */
const FOLLOWER = `
const [url, token, until] = process.argv.slice(1);
const seen = [];
const deadline = Date.now() + 10000;
for (;;) {
  const res = await fetch(url, { headers: { authorization: 'Bearer ' + token } });
  const body = await res.json();
  if (res.status !== 200) { console.log(JSON.stringify({ status: res.status, body })); process.exit(1); }
  if (seen.at(-1) !== body.data.status) seen.push(body.data.status);
  if (until.split(',').includes(body.data.status) || Date.now() > deadline) {
    console.log(JSON.stringify({ seen, last: body.data, pid: process.pid }));
    break;
  }
  await new Promise((r) => setTimeout(r, 20));
}`;

interface Followed {
  seen: string[];
  /** The last resource read, as JSON. */
  last: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  pid: number;
}

function follow(path: string, token: string, until: string[]): Promise<Followed> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', FOLLOWER, `${w.sim.url}${path}`, token, until.join(',')],
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stdout}${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

async function dispatch(fileName = 'release.yml'): Promise<string> {
  const reply = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, gitRef: 'main', fileName },
  });
  expect(reply.status).toBe(200);
  return reply.json.data.id as string;
}

describe('a run followed by id', () => {
  it('dispatched through one connection, followed to the end by another process', async () => {
    // The run waits for its approval until the follower (a process that takes a while to start,
    // more so on a loaded machine) has read it once: the build starts only then, never before.
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 1000 });
    const id = await dispatch('held.yml');
    const following = follow(`/v2/workflows/runs/${id}`, w.viewer, ['success', 'failure', 'canceled']);
    const read = () => w.sim.requests.some((r) => r.method === 'GET' && r.path.endsWith(id));
    await waitFor(read, "the follower's first read", 30_000);
    w.sim.approve(id);
    const followed = await following;
    expect(followed.pid).not.toBe(process.pid);
    expect(followed.last).toMatchObject({ id, status: 'success' });
    expect(followed.seen.at(-1)).toBe('success');
    expect(followed.seen).toContain('in-progress');
    const reads = w.sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(id));
    const dispatchConnection = w.sim.requests.find((r) => r.method === 'POST')!.connectionId;
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.every((r) => r.connectionId !== dispatchConnection)).toBe(true);
  });

  it('POST /_sim/runs starts a run nobody dispatched through the API, readable by id with any token of the account', async () => {
    w = await createWorld(WORKFLOWS, { defaultJobDurationMs: 30 });
    const created = await call(w.sim, 'POST', '/_sim/runs', { body: { fileName: 'release.yml' } });
    expect(created.status).toBe(200);
    const run = created.json.data;
    expect(run).toMatchObject({
      status: 'new',
      requestedGitRef: 'refs/heads/main',
      triggerEventType: 'MANUAL',
    });
    expect(run.jobs.map((job: { key: string }) => job.key)).toEqual(['build_ios', 'build_android', 'submit']);
    expect(w.sim.requests.filter((r) => !r.control)).toEqual([]);

    const followed = await follow(`/v2/workflows/runs/${run.id}`, w.viewer, ['success']);
    expect(followed.last.id).toBe(run.id);
    const stranger = await call(w.sim, 'GET', `/v2/workflows/runs/${run.id}`, { token: w.stranger });
    expect(stranger.status).toBe(403);

    // Same rules as a dispatch.
    const missing = await call(w.sim, 'POST', '/_sim/runs', { body: { fileName: 'nope.yml' } });
    expect(missing.status).toBe(404);
    const library = await w.sim.createRun({ appId: w.project.id, gitRef: 'v1', fileName: 'release.yml' });
    expect(library.requestedGitRef).toBe('refs/tags/v1');
    await expect(
      w.sim.createRun({ appId: w.project.id, gitRef: 'main', fileName: '../x.yml' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('gating on some jobs', () => {
  it('the build jobs end while submit, which needs them, runs on: the run is still in progress', async () => {
    w = await createWorld(WORKFLOWS);
    await call(w.sim, 'POST', '/_sim/jobs/build_ios/behaviour', { body: { durationMs: 40 } });
    await call(w.sim, 'POST', '/_sim/jobs/build_android/behaviour', { body: { durationMs: 80 } });
    await call(w.sim, 'POST', '/_sim/jobs/submit/behaviour', { body: { durationMs: 60_000 } });
    const id = await dispatch();

    const run = await waitFor(async () => {
      const reply = await call(w.sim, 'GET', `/v2/workflows/runs/${id}`, { token: w.token });
      const jobs = reply.json.data.jobs as Array<{ key: string; status: string }>;
      return jobs.slice(0, 2).every((job) => job.status === 'success') && reply.json.data;
    }, 'the builds to end');
    expect(run.status).toBe('in-progress');
    expect(
      Object.fromEntries(run.jobs.map((job: { key: string; status: string }) => [job.key, job.status])),
    ).toEqual({
      build_ios: 'success',
      build_android: 'success',
      submit: 'in-progress',
    });
    expect(run.jobs[0].buildId).toEqual(expect.any(String));
    await sleep(100);
    expect(w.sim.getRun(id)?.status).toBe('in-progress');
  });

  it('a failed build ends its gate at once: the run fails and submit is skipped', async () => {
    w = await createWorld(WORKFLOWS);
    await call(w.sim, 'POST', '/_sim/jobs/build_ios/behaviour', {
      body: { durationMs: 20, outcome: 'failure' },
    });
    await call(w.sim, 'POST', '/_sim/jobs/build_android/behaviour', { body: { durationMs: 20 } });
    const id = await dispatch();
    const run = await waitFor(
      () => w.sim.getRun(id)?.status === 'failure' && w.sim.getRun(id),
      'the run to fail',
    );
    expect(run.jobs.map((job) => job.status)).toEqual(['failure', 'success', 'skipped']);
  });
});

describe('a session created in one step and waited for in another', () => {
  const P = 400;

  it('provisions during the build: waited for later, it is ready P after its creation, not P after the wait', async () => {
    w = await createWorld(WORKFLOWS);
    await call(w.sim, 'POST', '/_sim/session-behaviour', { body: { readinessDelayMs: P } });
    const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: { appId: w.project.id, platform: 'ios', type: 'appium' },
    });
    expect(created.json.data).toMatchObject({ status: 'new', remoteConfig: null });
    const id = created.json.data.id as string;

    await sleep(P + 100); // the build, as long as the provisioning and a little more
    // Timers fire in the order they expire: the simulator's (P) before this sleep's (P + 100), however
    // loaded the machine. So the device was ready before the wait began, whatever the delays were.
    const waitBegan = Date.now();
    const waited = await follow(`/v2/device-run-sessions/${id}`, w.token, [
      'in-progress',
      'stopped',
      'errored',
    ]);
    // The first read of the other process already saw a ready device: waiting added nothing to the
    // build (max(P, B), not P + B).
    expect(waited.seen).toEqual(['in-progress']);
    expect(waited.last.remoteConfig.appiumUrl).toContain(id);
    const provisioning = Date.parse(waited.last.startedAt) - Date.parse(waited.last.createdAt);
    expect(provisioning).toBeGreaterThanOrEqual(P - 5);
    expect(Date.parse(waited.last.startedAt)).toBeLessThanOrEqual(waitBegan);
    const connections = new Set(w.sim.requests.filter((r) => !r.control).map((r) => r.connectionId));
    expect(connections.size).toBe(2);
  });

  it('waited for at once from another process: new until provisioning ends, then ready with remoteConfig', async () => {
    // Explicit states, not a race between the provisioning delay and a process starting: the session
    // stays `new` until the follower has read it once, then provisioning ends by the control route.
    w = await createWorld(WORKFLOWS);
    w.sim.setSessionBehaviour({ readinessDelayMs: 3_600_000 });
    const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: { appId: w.project.id, platform: 'android' },
    });
    const id = created.json.data.id as string;
    const following = follow(`/v2/device-run-sessions/${id}`, w.viewer, [
      'in-progress',
      'stopped',
      'errored',
    ]);
    const read = () => w.sim.requests.some((r) => r.method === 'GET' && r.path.endsWith(id));
    await waitFor(read, "the follower's first read", 30_000);
    await call(w.sim, 'POST', `/_sim/sessions/${id}/ready`);
    const waited = await following;
    expect(waited.seen).toEqual(['new', 'in-progress']);
    expect(waited.last.remoteConfig.agentDeviceRemoteSessionUrl).toContain(id);
    expect(Date.parse(waited.last.startedAt)).toBeGreaterThan(Date.parse(waited.last.createdAt));
  });
});
