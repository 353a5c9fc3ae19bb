import { afterEach, describe, expect, it } from '@jest/globals';
import { call, errorCodes, errorMessages, UNKNOWN_UUID } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

const WORKFLOWS = { 'ci.yml': ONE_BUILD };
let w: World;

afterEach(async () => {
  await w?.sim.close();
});

async function fixtures(): Promise<{ sessionId: string; runId: string }> {
  const session = await call(w.sim, 'POST', '/v2/device-run-sessions', {
    token: w.token,
    body: { appId: w.project.id, platform: 'android' },
  });
  const run = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, gitRef: 'main', fileName: 'ci.yml' },
  });
  expect(session.status).toBe(200);
  expect(run.status).toBe(200);
  return { sessionId: session.json.data.id, runId: run.json.data.id };
}

type Endpoint = {
  name: string;
  method: string;
  path: (ids: { sessionId: string; runId: string }) => string;
  body?: boolean;
};
const ENDPOINTS: Endpoint[] = [
  { name: 'create session', method: 'POST', path: () => '/v2/device-run-sessions', body: true },
  { name: 'get session', method: 'GET', path: (i) => `/v2/device-run-sessions/${i.sessionId}` },
  { name: 'stop session', method: 'POST', path: (i) => `/v2/device-run-sessions/${i.sessionId}/stop` },
  { name: 'dispatch', method: 'POST', path: () => '/v2/workflows/dispatch', body: true },
  { name: 'get run', method: 'GET', path: (i) => `/v2/workflows/runs/${i.runId}` },
];

function bodyFor(e: Endpoint): unknown {
  if (!e.body) return undefined;
  return e.name === 'dispatch'
    ? { appId: w.project.id, gitRef: 'main', fileName: 'ci.yml' }
    : { appId: w.project.id, platform: 'ios' };
}

describe('authentication and authorization', () => {
  it.each(ENDPOINTS)('$name: no Authorization header → 400 UNAUTHORIZED_ERROR', async (e) => {
    w = await createWorld(WORKFLOWS);
    const ids = await fixtures();
    const reply = await call(w.sim, e.method, e.path(ids), { body: bodyFor(e) });
    expect(reply.status).toBe(400);
    expect(errorCodes(reply)).toEqual(['UNAUTHORIZED_ERROR']);
    expect(errorMessages(reply)).toMatch(/Authorization/);
  });

  it.each(ENDPOINTS)('$name: unknown bearer token → 401', async (e) => {
    w = await createWorld(WORKFLOWS);
    const ids = await fixtures();
    const reply = await call(w.sim, e.method, e.path(ids), { token: 'svc_robot_nope', body: bodyFor(e) });
    expect(reply.status).toBe(401);
    expect(errorCodes(reply)).toEqual(['UNAUTHENTICATED']);
  });

  it('a non-Bearer Authorization header → 401', async () => {
    w = await createWorld(WORKFLOWS);
    const reply = await call(w.sim, 'GET', `/v2/workflows/runs/${UNKNOWN_UUID}`, {
      headers: { authorization: `Basic ${w.token}` },
    });
    expect(reply.status).toBe(401);
  });

  it.each(ENDPOINTS)('$name: token with no role on the project account → 403', async (e) => {
    w = await createWorld(WORKFLOWS);
    const ids = await fixtures();
    const reply = await call(w.sim, e.method, e.path(ids), { token: w.stranger, body: bodyFor(e) });
    expect(reply.status).toBe(403);
    expect(errorCodes(reply)).toEqual(['FORBIDDEN']);
    expect(errorMessages(reply)).toMatch(/permission (DEVICE_RUN_SESSION|WORKFLOW_RUN)_[A-Z]+/);
  });

  it('viewer may read sessions and runs but not create, stop or dispatch (403 naming the permission)', async () => {
    w = await createWorld(WORKFLOWS);
    const ids = await fixtures();
    expect(
      (await call(w.sim, 'GET', `/v2/device-run-sessions/${ids.sessionId}`, { token: w.viewer })).status,
    ).toBe(200);
    expect((await call(w.sim, 'GET', `/v2/workflows/runs/${ids.runId}`, { token: w.viewer })).status).toBe(
      200,
    );

    const create = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.viewer,
      body: { appId: w.project.id, platform: 'ios' },
    });
    expect(create.status).toBe(403);
    expect(errorMessages(create)).toMatch(/DEVICE_RUN_SESSION_CREATE.*developer/);

    const stop = await call(w.sim, 'POST', `/v2/device-run-sessions/${ids.sessionId}/stop`, {
      token: w.viewer,
    });
    expect(stop.status).toBe(403);
    expect(errorMessages(stop)).toMatch(/DEVICE_RUN_SESSION_STOP/);
    expect(w.sim.getSession(ids.sessionId)?.status).not.toBe('stopped');

    const dispatch = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
      token: w.viewer,
      body: { appId: w.project.id, gitRef: 'main', fileName: 'ci.yml' },
    });
    expect(dispatch.status).toBe(403);
    expect(errorMessages(dispatch)).toMatch(/WORKFLOW_RUN_CREATE/);
    expect(w.sim.runs()).toHaveLength(1);
    expect(w.sim.sessions()).toHaveLength(1);
  });

  it('developer, admin and owner may create sessions and dispatch; personal tokens work too', async () => {
    w = await createWorld(WORKFLOWS);
    for (const token of [w.token, w.admin, w.owner]) {
      const s = await call(w.sim, 'POST', '/v2/device-run-sessions', {
        token,
        body: { appId: w.project.id, platform: 'android' },
      });
      expect(s.status).toBe(200);
      const r = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
        token,
        body: { appId: w.project.id, gitRef: 'main', fileName: 'ci.yml' },
      });
      expect(r.status).toBe(200);
    }
    const pat = w.sim.addToken({ account: w.account, role: 'developer', robot: false });
    expect(pat).toMatch(/^svc_pat_/);
    const s = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: pat,
      body: { appId: w.project.id, platform: 'ios' },
    });
    expect(s.status).toBe(200);
  });

  it('grantRole gives an existing token access to another account', async () => {
    w = await createWorld(WORKFLOWS);
    const ids = await fixtures();
    expect((await call(w.sim, 'GET', `/v2/workflows/runs/${ids.runId}`, { token: w.stranger })).status).toBe(
      403,
    );
    w.sim.grantRole(w.stranger, w.account, 'viewer');
    expect((await call(w.sim, 'GET', `/v2/workflows/runs/${ids.runId}`, { token: w.stranger })).status).toBe(
      200,
    );
  });

  it.each([
    ['GET', '/v2/device-run-sessions/not-a-uuid', /deviceRunSessionId/],
    ['POST', '/v2/device-run-sessions/1234/stop', /deviceRunSessionId/],
    ['GET', '/v2/workflows/runs/abc', /workflowRunId/],
  ])('%s %s: invalid UUID in the path → 400 naming it', async (method, path, field) => {
    w = await createWorld(WORKFLOWS);
    const reply = await call(w.sim, method, path, { token: w.token });
    expect(reply.status).toBe(400);
    expect(errorMessages(reply)).toMatch(field);
  });

  it('invalid UUID in the body → 400 naming appId', async () => {
    w = await createWorld(WORKFLOWS);
    for (const path of ['/v2/device-run-sessions', '/v2/workflows/dispatch']) {
      const reply = await call(w.sim, 'POST', path, {
        token: w.token,
        body: { appId: 'nope', platform: 'ios', gitRef: 'main', fileName: 'ci.yml' },
      });
      expect(reply.status).toBe(400);
      expect(errorMessages(reply)).toMatch(/appId must be a valid UUID/);
    }
  });

  it.each([
    ['GET', `/v2/device-run-sessions/${UNKNOWN_UUID}`],
    ['POST', `/v2/device-run-sessions/${UNKNOWN_UUID}/stop`],
    ['GET', `/v2/workflows/runs/${UNKNOWN_UUID}`],
  ])('%s %s: unknown id → 404', async (method, path) => {
    w = await createWorld(WORKFLOWS);
    const reply = await call(w.sim, method, path, { token: w.token });
    expect(reply.status).toBe(404);
    expect(errorCodes(reply)).toEqual(['NOT_FOUND']);
  });

  it("unknown project → 404 on create; 403 on dispatch (the spec's dispatch 404s are the ref and the file)", async () => {
    w = await createWorld(WORKFLOWS);
    const s = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: { appId: UNKNOWN_UUID, platform: 'ios' },
    });
    const d = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
      token: w.token,
      body: { appId: UNKNOWN_UUID, gitRef: 'main', fileName: 'ci.yml' },
    });
    expect([s.status, d.status]).toEqual([404, 403]);
    expect(errorMessages(s)).toMatch(UNKNOWN_UUID);
    expect(errorMessages(d)).toMatch(`Token has no access to project ${UNKNOWN_UUID} (appId)`);
  });

  it('check order: header → token → UUID format → existence → permission', async () => {
    w = await createWorld(WORKFLOWS);
    const bad = '/v2/workflows/runs/not-a-uuid';
    const unknown = `/v2/workflows/runs/${UNKNOWN_UUID}`;
    expect(errorCodes(await call(w.sim, 'GET', bad))).toEqual(['UNAUTHORIZED_ERROR']);
    expect((await call(w.sim, 'GET', bad, { token: 'bogus' })).status).toBe(401);
    expect((await call(w.sim, 'GET', bad, { token: w.stranger })).status).toBe(400);
    expect((await call(w.sim, 'GET', unknown, { token: w.stranger })).status).toBe(404);
  });

  it('unknown route → 404, invalid JSON body → 400, both with an error envelope', async () => {
    w = await createWorld(WORKFLOWS);
    const unknown = await call(w.sim, 'GET', '/v2/nothing-here', { token: w.token });
    expect(unknown.status).toBe(404);
    expect(errorCodes(unknown)).toEqual(['NOT_FOUND']);
    const wrongMethod = await call(w.sim, 'DELETE', '/v2/device-run-sessions', { token: w.token });
    expect(wrongMethod.status).toBe(404);
    const badJson = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      raw: '{"appId": ',
    });
    expect(badJson.status).toBe(400);
    expect(errorMessages(badJson)).toMatch(/not valid JSON/);
    const badJson2 = await call(w.sim, 'POST', '/v2/workflows/dispatch', { token: w.token, raw: 'appId=1' });
    expect(badJson2.status).toBe(400);
    const notObject = await call(w.sim, 'POST', '/v2/workflows/dispatch', { token: w.token, body: [1, 2] });
    expect(notObject.status).toBe(400);
    expect(errorMessages(notObject)).toMatch(/JSON object/);
  });
});
