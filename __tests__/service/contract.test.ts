/**
 * The contract shared by the client and the simulator (src/service/contract.ts), over real HTTP:
 * what the simulator serves has exactly the contract's fields and passes the client's schemas, and
 * the client refuses ids that are not UUIDs before they reach a path, and answers about another
 * resource than the one asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ActionFailure } from '../../src/errors.js';
import { ServiceClient } from '../../src/service/client.js';
import {
  deviceSessionSchema,
  dispatchedRunSchema,
  workflowJobSchema,
  workflowRunSchema,
} from '../../src/service/contract.js';
import { ResponseFormatError } from '../../src/service/errors.js';
import { createWorld, serviceRequests, type World } from '../../testkit/world/world.js';
import { RELEASE } from '../../testkit/docs/workflows.js';

const fieldsOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();

let world: World;
let client: ServiceClient;
beforeEach(async () => {
  world = await createWorld({ 'ci.yml': RELEASE }, { readinessDelayMs: 10, defaultJobDurationMs: 10 });
  client = new ServiceClient({
    baseUrl: world.sim.url,
    token: world.token,
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
});
afterEach(async () => {
  client.dispose();
  await world.sim.close();
});

describe('one contract', () => {
  it('the simulator serves exactly the fields of the contract, and the client reads them', async () => {
    const dispatched = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    expect(Object.keys(dispatched).sort()).toEqual(fieldsOf(dispatchedRunSchema));
    let run = await client.getWorkflowRun(dispatched.id);
    for (let i = 0; i < 200 && run.status !== 'success'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      run = await client.getWorkflowRun(dispatched.id);
    }
    expect(run.status).toBe('success');
    expect(Object.keys(run).sort()).toEqual(fieldsOf(workflowRunSchema));
    for (const job of run.jobs) expect(Object.keys(job).sort()).toEqual(fieldsOf(workflowJobSchema));

    const created = await client.createDeviceSession({
      appId: world.project.id,
      platform: 'ios',
      type: 'appium',
    });
    expect(Object.keys(created).sort()).toEqual(fieldsOf(deviceSessionSchema));
    const stopped = await client.stopDeviceSession(created.id);
    expect(stopped).toMatchObject({ id: created.id, status: 'stopped' });
  });
});

describe('ids before paths', () => {
  it.each([
    ['getWorkflowRun', (id: string) => client.getWorkflowRun(id), 'Reading workflow run'],
    ['getDeviceSession', (id: string) => client.getDeviceSession(id), 'Reading device session'],
    ['stopDeviceSession', (id: string) => client.stopDeviceSession(id), 'Stopping device session'],
  ])('%s refuses an id that is not a UUID, before any request', async (_name, operation, words) => {
    for (const id of [
      '..',
      '../../v2/workflows/dispatch',
      'abc',
      '',
      `${world.project.id}/stop`,
      `${world.project.id}?x=1`,
    ]) {
      const failure = operation(id);
      await expect(failure).rejects.toBeInstanceOf(ActionFailure);
      await expect(failure).rejects.toThrow(
        new RegExp(
          `^${words} \\(an id that is not a UUID, ${id.length} characters\\) was refused before any request: .* must be a UUID`,
        ),
      );
    }
    expect(serviceRequests(world.sim)).toEqual([]);
  });

  it('stop: an answer about another session is an error naming it, not a confirmation', async () => {
    const asked = await client.createDeviceSession({ appId: world.project.id, platform: 'android' });
    const other = await client.createDeviceSession({ appId: world.project.id, platform: 'android' });
    world.sim.injectFault({
      method: 'POST',
      path: /\/stop$/,
      kind: 'mutate',
      mutate: (json) => ({ data: { ...(json as { data: object }).data, id: other.id } }),
    });
    const failure = client.stopDeviceSession(asked.id);
    await expect(failure).rejects.toBeInstanceOf(ResponseFormatError);
    await expect(failure).rejects.toThrow(
      `Stopping device session ${asked.id} failed: the service answered about device session ${other.id}, not the one asked for`,
    );
  });

  it('read: an answer about another session or run is an error', async () => {
    const asked = await client.createDeviceSession({ appId: world.project.id, platform: 'ios' });
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/device-run-sessions/',
      kind: 'mutate',
      mutate: (json) => ({ data: { ...(json as { data: object }).data, id: '../x' } }),
    });
    await expect(client.getDeviceSession(asked.id)).rejects.toThrow(
      `Reading device session ${asked.id} failed: the service answered about another device session, not the one asked for`,
    );
    expect((await client.getDeviceSession(asked.id)).id).toBe(asked.id);

    const run = await client.dispatchWorkflow({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'ci.yml',
    });
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      kind: 'mutate',
      mutate: (json) => ({ data: { ...(json as { data: object }).data, id: asked.id } }),
    });
    await expect(client.getWorkflowRun(run.id)).rejects.toBeInstanceOf(ResponseFormatError);
  });

  it('dispatch and create: an answer whose id is not a UUID is refused, since nothing could follow it', async () => {
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'mutate',
      mutate: () => ({ data: { id: '../../other', url: 'http://x.invalid' } }),
    });
    const dispatch = client.dispatchWorkflow({ appId: world.project.id, gitRef: 'main', fileName: 'ci.yml' });
    await expect(dispatch).rejects.toBeInstanceOf(ResponseFormatError);
    await expect(dispatch).rejects.toThrow(
      /the service answered with a run id that is not a UUID \(11 characters\)/,
    );

    world.sim.injectFault({
      method: 'POST',
      path: '/v2/device-run-sessions',
      kind: 'mutate',
      mutate: (json) => ({ data: { ...(json as { data: object }).data, id: 'session-1' } }),
    });
    await expect(client.createDeviceSession({ appId: world.project.id, platform: 'ios' })).rejects.toThrow(
      /Creating the device session failed: the service answered with a session id that is not a UUID/,
    );
  });

  it('answers stay tolerant: unknown statuses and extra fields are kept', async () => {
    world.sim.setSessionBehaviour({
      extraStatusBeforeReady: 'queued',
      extraRemoteConfigFields: { previewApiUrl: 'http://p.invalid' },
      readinessDelayMs: 60_000,
    });
    const created = await client.createDeviceSession({ appId: world.project.id, platform: 'ios' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await client.getDeviceSession(created.id)).status).toBe('queued');
    world.sim.readySession(created.id);
    const ready = await client.getDeviceSession(created.id);
    expect(ready.remoteConfig).toMatchObject({ previewApiUrl: 'http://p.invalid' });
  });
});
