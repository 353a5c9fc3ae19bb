/**
 * The simulator's fault rules on GitHub's side (issue 39, part 1): a rule whose path names
 * `/_github/` applies to the stand-in's answers as to the service's (a 5xx with GitHub's HTML page, a
 * reset connection, a slow answer); a rule without a path stays the service's.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { call } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';

const SHA = 'f'.repeat(40);
let w: World;
beforeEach(async () => {
  w = await createWorld();
});
afterEach(async () => {
  await w.sim.close();
});

const postStatus = () =>
  call(w.sim, 'POST', `/_github/repos/acme/app/statuses/${SHA}`, {
    body: { context: 'svc/a', state: 'pending' },
  });

describe('faults on GitHub’s side', () => {
  it('a 502 from POST /_sim/faults: GitHub’s HTML page, the status not created, the log saying so', async () => {
    const added = await call(w.sim, 'POST', '/_sim/faults', {
      body: {
        method: 'POST',
        path: '/_github/repos/acme/app/statuses',
        kind: 'status',
        status: 502,
        times: 2,
      },
    });
    expect(added.status).toBe(200);
    for (const reply of [await postStatus(), await postStatus()]) {
      expect(reply.status).toBe(502);
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.text).toMatch(/^<!DOCTYPE html>[\s\S]*Server Error/);
    }
    expect(w.sim.github.statuses).toEqual([]);
    expect(w.sim.log.lines.join('\n')).toMatch(
      /POST \/_github\/repos\/acme\/app\/statuses\/\S+ 502 \d+ ms \(simulated fault: status\)/,
    );
    expect((await postStatus()).status).toBe(201);
    // GitHub's requests stay GitHub's: none is among the service's.
    expect(w.sim.requests.some((request) => request.path.startsWith('/_github'))).toBe(false);
  });

  it('a reset connection, after the status was created (processed) or before', async () => {
    w.sim.injectFault({ path: '/_github/repos/acme/app/statuses', kind: 'reset', processed: true });
    await expect(postStatus()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(w.sim.github.statuses).toHaveLength(1);
    w.sim.injectFault({ path: /^\/_github\/graphql/, kind: 'reset', processed: false });
    await expect(
      call(w.sim, 'POST', '/_github/graphql', { body: { query: '{ viewer { login } }' } }),
    ).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(w.sim.github.counts()[0]).toMatchObject({ graphqlRequests: 0, restWrites: 1 });
  });

  it('a slow answer: delayed by at least the rule’s time', async () => {
    w.sim.injectFault({ path: '/_github/repos/acme/app/pulls', kind: 'delay', ms: 300, processed: false });
    const started = Date.now();
    const reply = await call(w.sim, 'GET', '/_github/repos/acme/app/pulls');
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('a body fault and a mutation see GitHub’s JSON; a rule without a path is the service’s only', async () => {
    w.sim.injectFault({ path: '/_github/repos/acme/app/pulls', kind: 'body', body: '{"trunc' });
    expect((await call(w.sim, 'GET', '/_github/repos/acme/app/pulls')).text).toBe('{"trunc');
    w.sim.injectFault({
      path: '/_github/graphql',
      kind: 'mutate',
      mutate: (json) => ({ ...(json as object), extra: true }),
    });
    const mutated = await call(w.sim, 'POST', '/_github/graphql', {
      body: { query: '{ viewer { login } }' },
    });
    expect(mutated.json).toEqual({ data: { viewer: { login: 'github-actions[bot]' } }, extra: true });
    w.sim.injectFault({ kind: 'status', status: 503 });
    expect((await postStatus()).status).toBe(201);
    const state = await call(w.sim, 'GET', '/_sim/state');
    expect(state.json.data.faults).toHaveLength(1);
  });
});
