/**
 * The edges, each step run in process from the sources: an IPv6 base URL works end to end, a session
 * whose create answer is unusable is still stopped, stopping an unknown session says what that
 * means, and special files as `payload-file` end the step at once. Bad inputs end the step before any
 * request through the bundles, on the Node 24 action.yml declares, in
 * __tests__/e2e/runs-bundles.test.ts (the rules themselves are unit-tested in __tests__/inputs/).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { runAction, type ActionRun, type RunOptions } from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { savedSessions } from '../../testkit/world/session-state.js';
import { expectOneError } from '../../testkit/runner/expect-step.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function step(
  entry: string,
  inputs: Record<string, string>,
  extra: Partial<RunOptions> = {},
): Promise<ActionRun> {
  return runAction({ entry, inputs, ...extra });
}

describe('edges', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({}, { readinessDelayMs: 50 });
  });
  afterAll(() => world.sim.close());
  beforeEach(() => world.sim.reset());

  it('a session whose create answer is nested too deep is stopped by the main step', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/device-run-sessions',
      // Built as text: JSON.stringify itself cannot write nesting this deep.
      mutate: (json) => `${JSON.stringify(json).slice(0, -2)},"extra":${deep}}}`,
      kind: 'mutate',
    });
    const run = await step('start-device-session', {
      ...world.api,
      platform: 'ios',
      'poll-interval-seconds': '0.05',
    });
    const error = expectOneError(run);
    expect(error).toContain(
      "Creating the device session failed: the service's answer is nested more than 64 levels deep.",
    );
    expect(error).toContain('The session was stopped.');
    expect(error).not.toContain('call stack');
    const [session] = world.sim.sessions();
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    expect(world.sim.sessionEndedBy(session.id)).toBe('stop-operation');
    expect(run.outputs['session-id']).toBe(session.id);
    expect(savedSessions(run)).toEqual([
      { id: session.id, url: '', ended: 'stopped', deviceTime: expect.any(String) },
    ]);
  });

  it('stopping an unknown session says the service has no such session, without advising to stop it again', async () => {
    const run = await step('stop-device-session', { ...world.api, 'session-id': UNKNOWN_ID });
    const error = expectOneError(run);
    expect(error).toContain(
      `Device session ${UNKNOWN_ID} was not found: the service has no session with that id (404: `,
    );
    expect(error).not.toMatch(/stop-device-session|stop it|try again/i);
    expect(apiRequests(world.sim)).toEqual([`POST /v2/device-run-sessions/${UNKNOWN_ID}/stop`]);
  });

  it('payload-file of /dev/zero or a named pipe ends at once with a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-edges-'));
    try {
      const fifo = join(dir, 'body.fifo');
      execFileSync('mkfifo', [fifo]);
      const webhook = { 'webhook-secret': 'w'.repeat(20), signature: `sha1=${'0'.repeat(40)}` };
      const runs = await Promise.all(
        ['/dev/zero', fifo].map((path) => step('verify-webhook', { ...webhook, 'payload-file': path })),
      );
      for (const [run, path] of [
        [runs[0], '/dev/zero'],
        [runs[1], fifo],
      ] as const)
        expect(expectOneError(run)).toContain(
          `\`payload-file\` (${path}) is not a regular file; give the path of the file that holds the body.`,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const IPV6 = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});
if (!IPV6) console.warn('No IPv6 loopback (::1) on this machine: the IPv6 test is skipped.');

(IPV6 ? describe : describe.skip)('IPv6 base URL', () => {
  it('start-device-session and its post step work against http://[::1]:PORT', async () => {
    const { sim, api } = await createWorld({}, { host: '::1', readinessDelayMs: 50 });
    try {
      expect(api['base-url']).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const inputs = { ...api, platform: 'android', type: 'appium', 'poll-interval-seconds': '0.05' };
      const main = await step('start-device-session', inputs);
      expect(main.exitCode).toBe(0);
      const [session] = sim.sessions();
      expect(main.outputs).toMatchObject({ 'session-id': session.id, status: 'in-progress' });
      expect(main.state['base-url']).toBe(api['base-url']);
      const post = await step('post', inputs, { state: main.state });
      expect(post.exitCode).toBe(0);
      expect(sim.getSession(session.id)?.status).toBe('stopped');
      const seen = sim.requests.filter((request) => !request.control);
      expect(new Set(seen.map((request) => request.headers.host))).toEqual(
        new Set([api['base-url'].slice('http://'.length)]),
      );
    } finally {
      await sim.close();
    }
  });
});
