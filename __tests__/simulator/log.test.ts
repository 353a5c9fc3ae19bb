/**
 * What the simulator says it does (issue 33, item 1): a line per request and per state change, kept in
 * `sim.log` and printed only when asked; never a credential; and a reset that also removes the
 * webhooks and cancels the deliveries waiting to be retried.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { call, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD, workflow } from '../../testkit/docs/workflows.js';
import {
  startReceiver,
  failTwiceThenAcknowledge,
  type Receiver,
} from '../../testkit/world/webhook-receiver.js';
import type { WorkflowRun } from '../../simulator/index.js';

const SECRET = 'log-test-signing-secret-0123456789';
const LINE_TIME = /^\d{2}:\d{2}:\d{2}\.\d{3} /;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(...args: Parameters<typeof createWorld>): Promise<World> {
  const w = await createWorld(...args);
  cleanups.push(() => w.sim.close());
  return w;
}

async function receiver(answer: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

/** The log's lines without their time of day. */
const messages = (w: World): string[] => w.sim.log.lines.map((line) => line.replace(LINE_TIME, ''));

async function dispatch(w: World, fileName = 'e2e.yml'): Promise<string> {
  const reply = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, gitRef: 'main', fileName },
  });
  expect(reply.status).toBe(200);
  return reply.json.data.id as string;
}

const ended = (w: World, id: string) =>
  waitFor(
    () => ['success', 'failure', 'canceled'].includes(w.sim.getRun(id)?.status ?? '') && w.sim.getRun(id),
    'the run to end',
  ) as Promise<WorkflowRun>;

describe('the simulator log', () => {
  it('has a line per request: method, path with ids shortened and no query string, status, time taken', async () => {
    const w = await world({ 'e2e.yml': ONE_BUILD });
    const id = await dispatch(w);
    await call(w.sim, 'GET', `/v2/workflows/runs/${id}?access_token=in-the-query`, { token: w.token });
    await call(w.sim, 'GET', '/v2/workflows/runs/not-a-uuid', { token: w.token });
    await call(w.sim, 'POST', '/_sim/reset');

    const short = `${id.slice(0, 8)}…`;
    expect(w.sim.log.lines.every((line) => LINE_TIME.test(line))).toBe(true);
    expect(messages(w)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/v2\/workflows\/dispatch 200 \d+ ms$/),
        expect.stringMatching(new RegExp(`^GET /v2/workflows/runs/${short} 200 \\d+ ms$`)),
        expect.stringMatching(/^GET \/v2\/workflows\/runs\/not-a-uuid 400 \d+ ms$/),
        expect.stringMatching(/^POST \/_sim\/reset 200 \d+ ms$/),
        'reset: runs, sessions, behaviours, faults, recorded requests, webhooks and deliveries forgotten',
      ]),
    );
    const text = w.sim.log.lines.join('\n');
    expect(text).not.toContain(id);
    expect(text).not.toContain('in-the-query');
  });

  it('has a line per run and job transition, with the error of a job that failed', async () => {
    const w = await world({
      'e2e.yml': workflow('Release', { build: { type: 'build' }, test: { needs: ['build'] } }),
    });
    w.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'Tests failed: 3 of 12' });
    const id = await dispatch(w);
    await ended(w, id);
    const short = `${id.slice(0, 8)}…`;
    const commit = w.repo.headSha.slice(0, 7);
    expect(messages(w).filter((line) => /^(run|job) /.test(line))).toEqual([
      `run ${short} created: "Release" on refs/heads/main (${commit}), jobs build, test`,
      `job ${short}/build new → in-progress`,
      `run ${short} new → in-progress`,
      `job ${short}/build in-progress → success`,
      `job ${short}/test new → in-progress`,
      `job ${short}/test in-progress → failure: Tests failed: 3 of 12`,
      `run ${short} in-progress → failure`,
    ]);
  });

  it('has a line per session transition, saying why it ended', async () => {
    const w = await world({}, { readinessDelayMs: 60_000 });
    const reply = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: { appId: w.project.id, platform: 'ios', type: 'argent' },
    });
    const id = reply.json.data.id as string;
    w.sim.readySession(id);
    await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
    const short = `${id.slice(0, 8)}…`;
    expect(messages(w).filter((line) => line.startsWith('session '))).toEqual([
      `session ${short} created: argent, ios, new`,
      `session ${short} new → in-progress, remoteConfig set`,
      `session ${short} in-progress → stopped (the stop operation)`,
    ]);
  });

  it('has a line per webhook delivery attempt with the answer, and whether it will be retried', async () => {
    const r = await receiver(failTwiceThenAcknowledge);
    const w = await world({ 'e2e.yml': ONE_BUILD }, { webhooks: { attempts: 5, baseIntervalMs: 1 } });
    w.sim.webhooks.add({ projectId: w.project.id, event: 'BUILD', url: `${r.url}/hook`, secret: SECRET });
    await ended(w, await dispatch(w));
    await w.sim.webhooks.idle();
    const attempts = messages(w).filter((line) => line.startsWith('webhook '));
    const target = `to ${r.url}/hook`;
    expect(attempts).toEqual([
      expect.stringMatching(
        new RegExp(
          `^webhook BUILD delivery \\w{8}… attempt 1/5 ${target}: 500, not acknowledged, will retry$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^webhook BUILD delivery \\w{8}… attempt 2/5 ${target}: 503, not acknowledged, will retry$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^webhook BUILD delivery \\w{8}… attempt 3/5 ${target}: 200, acknowledged$`),
      ),
    ]);
  });

  it('logs no credential: tokens, daemon tokens, webhook secrets, signatures, remoteConfig secrets', async () => {
    const r = await receiver(() => 500);
    const w = await world({ 'e2e.yml': ONE_BUILD }, { webhooks: { attempts: 2, baseIntervalMs: 1 } });
    const github = 'ghp_githubTokenThatMustNotBeLogged0123';
    w.sim.setSessionBehaviour({ extraRemoteConfigFields: { webPreviewToken: 'preview-token-never-logged' } });
    const secrets: string[] = [
      w.token,
      github,
      SECRET,
      'preview-token-never-logged',
      'user-password',
      'query-key',
    ];
    for (const type of ['agent-device', 'argent', 'appium']) {
      const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
        token: w.token,
        body: { appId: w.project.id, platform: 'ios', type },
      });
      const session = w.sim.getSession(created.json.data.id as string)!;
      w.sim.readySession(session.id);
      const config = w.sim.getSession(session.id)!.remoteConfig!;
      for (const name of ['agentDeviceRemoteSessionToken', 'toolsAuthToken'])
        if (typeof config[name] === 'string') secrets.push(config[name]);
      // The controllers are reached with the daemon tokens.
      const daemon = (config.agentDeviceRemoteSessionToken ?? config.toolsAuthToken) as string | undefined;
      if (daemon) {
        const path = new URL((config.agentDeviceRemoteSessionUrl ?? config.toolsUrl) as string).pathname;
        await call(w.sim, 'GET', `${path}/health?token=${daemon}`, { token: daemon });
      }
    }
    expect(secrets.length).toBe(8);
    // A GitHub token in a header and in the query string, as GitHub's clients send them.
    await call(w.sim, 'GET', `/repos/acme/app/commits/main/statuses?access_token=${github}`, {
      token: github,
    });
    w.sim.webhooks.add({
      projectId: w.project.id,
      event: 'BUILD',
      url: `http://hook-user:user-password@127.0.0.1:${new URL(r.url).port}/hook?key=query-key`,
      secret: SECRET,
    });
    await ended(w, await dispatch(w));
    await w.sim.webhooks.idle();
    const signatures = w.sim.webhooks.deliveries.map((attempt) => attempt.signature);
    expect(signatures).toHaveLength(2);

    const text = w.sim.log.lines.join('\n');
    expect(text).toMatch(/webhook BUILD delivery .* to http:\/\/127\.0\.0\.1:\d+\/hook: 500/);
    for (const secret of [...secrets, ...signatures, ...signatures.map((s) => s.replace(/^sha1=/, ''))])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/hook-user|Bearer|sha1=/);
  });

  it('is kept without printing by the library, and printed line by line when asked (printLog)', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const write = jest.spyOn(process.stdout, 'write');
    try {
      const quiet = await world({ 'e2e.yml': ONE_BUILD });
      await ended(quiet, await dispatch(quiet));
      expect(quiet.sim.log.lines.length).toBeGreaterThan(3);
      expect(log).not.toHaveBeenCalled();
      expect(write).not.toHaveBeenCalled();

      const printed: string[] = [];
      const loud = await world({ 'e2e.yml': ONE_BUILD }, { printLog: (line) => printed.push(line) });
      await ended(loud, await dispatch(loud));
      expect(printed).toEqual(loud.sim.log.lines);
      loud.sim.log.clear();
      expect(loud.sim.log.lines).toEqual([]);
    } finally {
      log.mockRestore();
      write.mockRestore();
    }
  });
});

describe('POST /_sim/reset and webhooks', () => {
  it('removes the webhooks and cancels a delivery waiting for its retry: the old receiver gets nothing more', async () => {
    const r = await receiver(() => 500);
    // The retry would come an hour later: only the reset can end the delivery now.
    const w = await world({ 'e2e.yml': ONE_BUILD }, { webhooks: { attempts: 3, baseIntervalMs: 3_600_000 } });
    w.sim.webhooks.add({ projectId: w.project.id, event: 'BUILD', url: `${r.url}/hook`, secret: SECRET });
    await ended(w, await dispatch(w));
    await waitFor(() => w.sim.webhooks.deliveries.length === 1, 'the first attempt');

    expect((await call(w.sim, 'POST', '/_sim/reset')).status).toBe(200);
    expect(w.sim.webhooks.list()).toEqual([]);
    expect((await call(w.sim, 'GET', '/_sim/webhooks')).json.data).toEqual([]);
    await w.sim.webhooks.idle(); // resolves: nothing is waiting any more
    expect(w.sim.webhooks.deliveries).toEqual([]);

    // A run after the reset delivers to no one.
    await ended(w, await dispatch(w));
    await w.sim.webhooks.idle();
    expect(r.received).toHaveLength(1);
    expect(w.sim.webhooks.deliveries).toEqual([]);

    // Webhooks added after the reset are delivered to as before.
    const next = await receiver(() => 200);
    w.sim.webhooks.add({ projectId: w.project.id, event: 'BUILD', url: `${next.url}/hook`, secret: SECRET });
    await ended(w, await dispatch(w));
    await w.sim.webhooks.idle();
    expect(next.received).toHaveLength(1);
    expect(r.received).toHaveLength(1);
  });
});
