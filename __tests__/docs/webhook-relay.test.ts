/**
 * The webhook relay of verify-webhook/README.md runs as written (issue 23 item 8). Its `js` block,
 * copied from the README, runs on Node 24 against a fake of GitHub's dispatch endpoint; the simulator
 * signs and delivers real webhooks to it; each event GitHub accepted then runs the README's relay
 * workflow ("Service webhook", the second) through the workflow engine, as a repository_dispatch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLIENT_PAYLOAD_LIMIT, FakeGitHub, type ReceivedDispatch } from '../harness/fake-github.js';
import { findRecipe, findScript } from '../harness/recipes.js';
import { RUNTIMES, DEFAULT_RUNTIME } from '../harness/runner/step.js';
import { runWorkflow, type WorkflowResult } from '../harness/runner/workflow.js';
import { createWorld, type World } from '../harness/world.js';
import { runAndDeliver } from '../harness/deliveries.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../harness/workflows.js';

const SECRET = 'relay-webhook-secret-0123456789';
const GITHUB_TOKEN = 'ghs_relayToken0123456789abcdef';

/** The relay recipe's workflow: the README's second "Service webhook" block. */
const RELAY_WORKFLOW = findRecipe('verify-webhook/README.md', 'Service webhook', 2)!;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let world: World;
let github: FakeGitHub;
let relay: ChildProcess;
let relayUrl: string;
let dir: string;
let relayLog = '';

beforeAll(async () => {
  github = new FakeGitHub();
  await github.start();
  world = await createWorld(
    { 'webhook.yml': workflow('Webhook', { ...BUILD_IOS, ...BUILD_ANDROID }) },
    // Retries after 20 ms, then 40: a failed delivery is delivered again within the test.
    { webhooks: { attempts: 3, baseIntervalMs: 20 } },
  );
  dir = mkdtempSync(join(tmpdir(), 'svc-relay-'));
  // The README's receiver, exactly as the reader copies it.
  writeFileSync(join(dir, 'relay.mjs'), findScript('verify-webhook/README.md', '// relay.mjs'));
  const port = await freePort();
  relayUrl = `http://127.0.0.1:${port}/`;
  relay = spawn(RUNTIMES[DEFAULT_RUNTIME], ['relay.mjs'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      GITHUB_TOKEN,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_API_URL: github.url,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  relay.stdout?.on('data', (chunk: Buffer) => (relayLog += chunk.toString()));
  relay.stderr?.on('data', (chunk: Buffer) => (relayLog += chunk.toString()));
  // Listening once a GET is answered (405: the receiver takes POST only).
  for (let tries = 0; ; tries++) {
    const answered = await fetch(relayUrl).then(
      (reply) => reply.status,
      () => 0,
    );
    if (answered === 405) break;
    if (tries > 500) throw new Error(`the relay did not start: ${relayLog}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  world.sim.webhooks.add({ projectId: world.project.id, event: 'BUILD', url: relayUrl, secret: SECRET });
});

afterAll(async () => {
  relay.kill();
  await world.sim.close();
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  github.dispatches.length = 0;
  world.sim.webhooks.clearDeliveries();
});

/** Dispatches webhook.yml (a finished iOS build, an errored Android one) and waits for every delivery. */
async function buildAndDeliver(): Promise<void> {
  world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: 'Gradle failed' });
  await runAndDeliver(world.sim, world.project, world.token, 'webhook.yml');
}

/** The relay workflow run on the repository_dispatch event GitHub made of `dispatch`. */
function handle(dispatch: ReceivedDispatch): Promise<WorkflowResult> {
  return runWorkflow(RELAY_WORKFLOW.text, {
    secrets: { SVC_WEBHOOK_SECRET: SECRET },
    github: {
      event_name: 'repository_dispatch',
      repository: 'acme/app',
      event: { action: dispatch.event_type, client_payload: dispatch.client_payload as never },
    },
  });
}

const bodyOf = (dispatch: ReceivedDispatch): string =>
  Buffer.from(String(dispatch.client_payload.body_base64), 'base64').toString('utf8');
/** The delivery key of the event a body announces (interface v5): the hash of its identity. */
const keyOf = (body: string): string => {
  const { id, status } = JSON.parse(body) as { id: string; status: string };
  return createHash('sha256')
    .update(JSON.stringify(['BUILD', id, status]))
    .digest('hex');
};

describe('the webhook relay of verify-webhook/README.md, as written', () => {
  it('each signed delivery reaches the workflow byte for byte and is verified; a finished build is released', async () => {
    await buildAndDeliver();
    const sent = world.sim.webhooks.deliveries;
    expect(sent.map((attempt) => attempt.status)).toEqual([200, 200]);
    expect(github.dispatches).toHaveLength(2);
    for (const dispatch of github.dispatches) {
      expect(dispatch.event_type).toBe('svc-webhook');
      expect(dispatch.authorization).toBe(`Bearer ${GITHUB_TOKEN}`);
      const attempt = sent.find((a) => a.body === bodyOf(dispatch));
      expect(attempt?.signature).toBe(dispatch.client_payload.signature);
    }

    const byStatus = (status: string): ReceivedDispatch =>
      github.dispatches.find((d) => (JSON.parse(bodyOf(d)) as { status: string }).status === status)!;
    const finished = await handle(byStatus('finished'));
    expect(finished.jobs.handle.result).toBe('success');
    expect(finished.jobs.handle.outputs).toEqual({
      status: 'finished',
      'delivery-key': keyOf(bodyOf(byStatus('finished'))),
    });
    expect(finished.jobs.release.result).toBe('success');
    expect(finished.jobs.release.steps[0].log).toContain(
      `Releasing what delivery ${keyOf(bodyOf(byStatus('finished')))} announced`,
    );

    const errored = await handle(byStatus('errored'));
    expect(errored.jobs.handle.result).toBe('failure');
    expect(errored.jobs.release.result).toBe('skipped');
  });

  it('GitHub unreachable: 502, the service delivers again; a repeat has the same delivery-key, another delivery not', async () => {
    github.failNextDispatches = 1;
    await buildAndDeliver();
    const attempts = world.sim.webhooks.deliveries;
    // Two deliveries (iOS, Android); the first request to reach GitHub failed: that one was sent twice.
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 200, 502]);
    const failed = attempts.find((attempt) => attempt.status === 502)!;
    const retried = attempts.filter((attempt) => attempt.deliveryId === failed.deliveryId);
    expect(retried.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 502],
      [2, 200],
    ]);
    expect(retried[1].body).toBe(retried[0].body);

    // The same body delivered once more (an acknowledgement lost on the way): a second identical event.
    const repeat = await fetch(relayUrl, {
      method: 'POST',
      headers: { 'svc-signature': failed.signature, 'content-type': 'application/json' },
      body: failed.body,
    });
    expect(repeat.status).toBe(200);
    expect(github.dispatches).toHaveLength(3);

    const keys = await Promise.all(
      github.dispatches.map(async (dispatch) => (await handle(dispatch)).jobs.handle.outputs['delivery-key']),
    );
    const repeated = github.dispatches.map((dispatch) => bodyOf(dispatch) === failed.body);
    expect(repeated.filter(Boolean)).toHaveLength(2);
    const repeatKeys = keys.filter((_, index) => repeated[index]);
    const otherKeys = keys.filter((_, index) => !repeated[index]);
    expect(repeatKeys).toEqual([keyOf(failed.body), keyOf(failed.body)]);
    expect(otherKeys).toHaveLength(1);
    expect(otherKeys[0]).not.toBe(repeatKeys[0]);
    expect(otherKeys[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a body too large for client_payload is refused with 413, a status the service delivers again on', async () => {
    const [webhook] = world.sim.webhooks.list(world.project.id);
    const huge = { status: 'errored', error: { message: 'x'.repeat(50_000) } };
    world.sim.webhooks.deliver({ ...webhook, secret: SECRET }, huge);
    await world.sim.webhooks.idle();
    const attempts = world.sim.webhooks.deliveries;
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.acknowledged])).toEqual([
      [1, 413, false],
      [2, 413, false],
      [3, 413, false],
    ]);
    expect(github.dispatches).toEqual([]);
  });

  it('the largest body the relay takes fits in client_payload (GitHub accepts it), one byte more is 413', async () => {
    const send = (size: number): Promise<Response> =>
      fetch(relayUrl, {
        method: 'POST',
        headers: { 'svc-signature': `sha1=${'0'.repeat(40)}` },
        body: '{'.padEnd(size, ' '),
      });
    const largest = 45 * 1024;
    expect((await send(largest)).status).toBe(200);
    expect(github.dispatches).toHaveLength(1);
    expect(JSON.stringify(github.dispatches[0].client_payload).length).toBeLessThan(CLIENT_PAYLOAD_LIMIT);
    expect((await send(largest + 1)).status).toBe(413);
    expect(github.dispatches).toHaveLength(1);
    expect(relayLog).toBe('');
  });
});
