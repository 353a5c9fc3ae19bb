/**
 * The webhook relay of verify-webhook/README.md runs as written (issue 23 item 8, issue 31 items 1 and
 * 2). Its `js` block, copied from the README, runs on Node 24 against GitHub's stand-in (the simulator's); the
 * simulator signs and delivers real webhooks to it; each event GitHub accepted then runs the README's
 * relay workflow ("Service webhook", the second) through the workflow engine, as a repository_dispatch.
 * The relay faces the internet: it relays only what the service signed, each event once within its
 * window (kept in its file across restarts), bounds what a client can make it read, wait for or hold
 * open, and logs what it does not relay, a line a second per kind at most. Time is never waited out for the window: the
 * test writes the relay's file as it would stand a month later and restarts it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLIENT_PAYLOAD_LIMIT, GitHubStandIn, type ReceivedDispatch } from '../../simulator/index.js';
import { findRecipe, findScript } from '../../testkit/docs/recipes.js';
import { RUNTIMES, DEFAULT_RUNTIME } from '../../testkit/runner/step.js';
import { runWorkflow, type WorkflowResult } from '../../testkit/runner/workflow.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { runAndDeliver } from '../../testkit/world/deliveries.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../../testkit/docs/workflows.js';
import { signWebhookBody } from '../../src/webhook/signature.js';

const SECRET = 'relay-webhook-secret-0123456789';
const GITHUB_TOKEN = 'ghs_relayToken0123456789abcdef';
/** The relay's connection bound, its file of relayed events and its window, as the README writes them. */
const MAX_CONNECTIONS = 32;
const KEYS_FILE = 'relayed-events.txt';
const WINDOW_DAYS = 30;

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
let github: GitHubStandIn;
let relay: ChildProcess;
let port: number;
let relayUrl: string;
let dir: string;
let relayLog = '';

/** relay.mjs in `dir`, its environment set up right but for `env`. */
function spawnRelay(env: Record<string, string | undefined>): ChildProcess {
  return spawn(RUNTIMES[DEFAULT_RUNTIME], ['relay.mjs'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      SVC_WEBHOOK_SECRET: SECRET,
      GITHUB_TOKEN,
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_API_URL: github.url,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The README's relay, exactly as the reader copies it, started in `dir` (its file of events there). */
async function startRelay(): Promise<void> {
  // Every request of these tests comes from 127.0.0.1, up to 32 at once: no bound per address here
  // (the default's own test starts a relay of its own).
  relay = spawnRelay({ PORT: String(port), RELAY_MAX_PER_ADDRESS: '0' });
  relay.stdout?.on('data', (chunk: Buffer) => (relayLog += chunk.toString()));
  relay.stderr?.on('data', (chunk: Buffer) => (relayLog += chunk.toString()));
  await untilListening();
}

async function stopRelay(): Promise<void> {
  const exited = new Promise((resolve) => relay.once('exit', resolve));
  relay.kill();
  await exited;
}

/**
 * The polls below give up after 30 s: ten times and more what the relay takes on a busy machine to
 * start (a Node process) or to write a line, and a poll ends as soon as what it waits for holds.
 */
const TRIES_20_MS = 1_500;
const TRIES_10_MS = 3_000;

/**
 * Until a GET is answered 405 (the relay takes POST only), polling its state, not a clock; then, once
 * the relay's log line of that answer has arrived (and with it every earlier line), its log is cleared.
 */
async function untilListening(): Promise<void> {
  for (let tries = 0; ; tries++) {
    const answered = await fetch(relayUrl).then(
      (reply) => reply.status,
      () => 0,
    );
    if (answered === 405) break;
    if (tries > TRIES_20_MS) throw new Error(`the relay does not answer: ${relayLog}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (let tries = 0; !relayLog.includes(' 405 POST only ') && tries < TRIES_10_MS; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  relayLog = '';
}

beforeAll(async () => {
  github = new GitHubStandIn();
  await github.start();
  world = await createWorld(
    { 'webhook.yml': workflow('Webhook', { ...BUILD_IOS, ...BUILD_ANDROID }) },
    // Retries after 20 ms, then 40: a failed delivery is delivered again within the test.
    { webhooks: { attempts: 3, baseIntervalMs: 20 } },
  );
  dir = mkdtempSync(join(tmpdir(), 'svc-relay-'));
  writeFileSync(join(dir, 'relay.mjs'), findScript('verify-webhook/README.md', '// relay.mjs'));
  port = await freePort();
  relayUrl = `http://127.0.0.1:${port}/`;
  await startRelay();
  world.sim.webhooks.add({ projectId: world.project.id, event: 'BUILD', url: relayUrl, secret: SECRET });
});

afterAll(async () => {
  await stopRelay();
  await world.sim.close();
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  github.dispatches.length = 0;
  world.sim.webhooks.clearDeliveries();
  relayLog = '';
});

/** Dispatches webhook.yml (a finished iOS build, an errored Android one) and waits for every delivery. */
async function buildAndDeliver(): Promise<void> {
  world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: 'Gradle failed' });
  await runAndDeliver(world.sim, world.project, world.token, 'webhook.yml');
}

/** The relay workflow run on the repository_dispatch event GitHub made of `dispatch` (GitHub's API at `apiUrl`). */
function handle(dispatch: ReceivedDispatch, apiUrl = github.url): Promise<WorkflowResult> {
  return runWorkflow(RELAY_WORKFLOW.text, {
    secrets: { SVC_WEBHOOK_SECRET: SECRET },
    github: {
      event_name: 'repository_dispatch',
      repository: 'acme/app',
      api_url: apiUrl,
      event: { action: dispatch.event_type, client_payload: dispatch.client_payload as never },
    },
  });
}

const bodyOf = (dispatch: ReceivedDispatch): string =>
  Buffer.from(String(dispatch.client_payload.body_base64), 'base64').toString('utf8');
const statusOf = (body: string): string => (JSON.parse(body) as { status: string }).status;
/** The delivery key of the event a body announces (interface v5): the hash of its identity. */
const keyOf = (body: string): string => {
  const { id, status } = JSON.parse(body) as { id: string; status: string };
  return createHash('sha256')
    .update(JSON.stringify(['BUILD', id, status]))
    .digest('hex');
};
/** The events the relay's file holds, by key: when each was relayed. */
const recorded = (): Record<string, number> =>
  Object.fromEntries(
    readFileSync(join(dir, KEYS_FILE), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.split(' ')[0], Number(line.split(' ')[1])]),
  );
const post = (body: string | Buffer, signature?: string): Promise<Response> =>
  fetch(relayUrl, {
    method: 'POST',
    headers: signature === undefined ? {} : { 'svc-signature': signature },
    body,
  });
/** The lines the relay logged. */
const logLines = (): string[] => relayLog.split('\n').filter(Boolean);
/**
 * The relay's log once it holds `count` lines: its output reaches the test after its answers do, so a
 * test waits for the lines its requests cause (and none arrives in the next test's log).
 */
async function logged(count: number): Promise<string[]> {
  for (let tries = 0; logLines().length < count && tries < TRIES_10_MS; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return logLines();
}

/**
 * How many requests of one kind of refusal `lines` account for: a line of that kind is one, and the
 * count line the relay writes after a second of them ("<kind>: N more in the last second") is N.
 */
function accountedFor(lines: string[], kind: string): number {
  let total = 0;
  for (const line of lines) {
    const more = new RegExp(`^\\S+Z ${escaped(kind)}: (\\d+) more in the last second$`).exec(line);
    if (more) total += Number(more[1]);
    else if (new RegExp(`^\\S+Z ${escaped(kind)}(?::| \\(from)`).test(line)) total++;
  }
  return total;
}
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The relay's log once its lines account for `count` refusals of `kind` (see accountedFor). */
async function loggedRefusals(kind: string, count: number): Promise<string[]> {
  for (let tries = 0; accountedFor(logLines(), kind) < count && tries < TRIES_10_MS; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return logLines();
}

/** A raw connection to the relay: what it answered and whether it closed, driven by its events. */
function rawConnection(options: { to?: number; from?: string; allowHalfOpen?: boolean } = {}): {
  socket: Socket;
  closed: Promise<string>;
} {
  const socket = connect({
    port: options.to ?? port,
    host: '127.0.0.1',
    localAddress: options.from,
    allowHalfOpen: options.allowHalfOpen,
  });
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  return { socket, closed };
}

describe('the webhook relay of verify-webhook/README.md, as written', () => {
  it('each signed delivery reaches the workflow byte for byte and is verified; the relay records the key the workflow outputs; a finished build is released', async () => {
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
      github.dispatches.find((d) => statusOf(bodyOf(d)) === status)!;
    const finished = await handle(byStatus('finished'));
    expect(finished.jobs.handle.result).toBe('success');
    const key = keyOf(bodyOf(byStatus('finished')));
    expect(finished.jobs.handle.outputs).toEqual({ status: 'finished', 'delivery-key': key });
    // The relay and the workflow agree on the event: the key it recorded is the verify step's.
    expect(Object.keys(recorded())).toEqual(
      expect.arrayContaining([key, keyOf(bodyOf(byStatus('errored')))]),
    );
    expect(finished.jobs.release.result).toBe('success');
    expect(github.refs).toContain(`refs/tags/svc-delivery/${key}`);
    expect(finished.jobs.release.steps[1].log).toBe(`Releasing what delivery ${key} announced`);

    const errored = await handle(byStatus('errored'));
    expect(errored.jobs.handle.result).toBe('failure');
    expect(errored.jobs.release.result).toBe('skipped');
    expect(relayLog).toBe('');
  });

  it('GitHub unreachable: 502, nothing recorded, the service delivers again; a repeat of a relayed event, however serialised, is answered 200 and not dispatched', async () => {
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
    expect(github.dispatches).toHaveLength(2);
    expect(await logged(1)).toEqual([expect.stringMatching(/ 502 GitHub answered 503 \(from \S+\)$/)]);

    // The same event delivered once more (an acknowledgement lost on the way), as sent and re-serialised.
    const key = keyOf(failed.body);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(failed.body)).reverse()));
    for (const [body, signature] of [
      [failed.body, failed.signature],
      [reordered, signWebhookBody(reordered, SECRET)],
    ]) {
      const repeat = await post(body, signature);
      expect(repeat.status).toBe(200);
      expect(await repeat.text()).toBe(`already relayed: event ${key}\n`);
    }
    expect(github.dispatches).toHaveLength(2);
    // Both logged: a line, and the second within its second counted.
    const lines = (await loggedRefusals('200 already relayed', 2)).slice(1);
    expect(accountedFor(lines, '200 already relayed')).toBe(2);
    expect(lines[0]).toMatch(new RegExp(` 200 already relayed: event ${key} \\(from \\S+\\)$`));
  });

  it('unsigned or wrongly signed deliveries are answered 401 and never dispatched; one log line each, without body or signature', async () => {
    const genuine = JSON.stringify({ id: randomUUID(), status: 'finished', buildDetailsPageUrl: 'x' });
    const forged: Array<[string, string | undefined]> = [];
    for (let i = 0; i < 5; i++) forged.push([genuine, undefined]);
    for (let i = 0; i < 5; i++)
      forged.push([genuine, `sha1=${createHash('sha1').update(`${i}`).digest('hex')}`]);
    for (let i = 0; i < 5; i++)
      forged.push([genuine, signWebhookBody(genuine, `another-secret-${i}-0123456789`)]);
    for (let i = 0; i < 5; i++) forged.push([`${genuine} `, signWebhookBody(genuine, SECRET)]);
    const answers = await Promise.all(forged.map(([body, signature]) => post(body, signature)));
    expect(answers.map((answer) => answer.status)).toEqual(forged.map(() => 401));
    expect(github.dispatches).toEqual([]);
    // At most a line a second, then a count: all 20 accounted for.
    const lines = await loggedRefusals('401 svc-signature missing or wrong', 20);
    expect(accountedFor(lines, '401 svc-signature missing or wrong')).toBe(20);
    expect(lines[0]).toMatch(/^\S+Z 401 svc-signature missing or wrong \(from \S+\)$/);
    for (const line of lines)
      expect(line).toMatch(
        /^\S+Z 401 svc-signature missing or wrong( \(from \S+\)|: \d+ more in the last second)$/,
      );
    for (const [, signature] of forged) if (signature) expect(relayLog).not.toContain(signature.slice(5));
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
    const tooLarge = '413 too large for a repository_dispatch event';
    expect(accountedFor(await loggedRefusals(tooLarge, 3), tooLarge)).toBe(3);
  });

  it('the largest signed body the relay takes fits in client_payload (GitHub accepts it), one byte more is 413', async () => {
    const largest = 45 * 1024;
    const payload = JSON.stringify({ id: randomUUID(), status: 'finished', buildDetailsPageUrl: 'x' });
    const padded = (size: number): string => payload.padEnd(size, ' ');
    const accepted = await post(padded(largest), signWebhookBody(padded(largest), SECRET));
    expect(accepted.status).toBe(200);
    expect(github.dispatches).toHaveLength(1);
    expect(JSON.stringify(github.dispatches[0].client_payload).length).toBeLessThan(CLIENT_PAYLOAD_LIMIT);
    const tooLarge = await post(padded(largest + 1), signWebhookBody(padded(largest + 1), SECRET));
    expect(tooLarge.status).toBe(413);
    expect(github.dispatches).toHaveLength(1);
    expect(await logged(1)).toEqual([
      expect.stringMatching(/ 413 too large for a repository_dispatch event /),
    ]);
  });

  it('past 45 KiB the relay stops reading: 413 and the connection closed, while the client still sends', async () => {
    // A declared length over the limit: answered before any of the body is read.
    const declared = rawConnection();
    declared.socket.write(`POST / HTTP/1.1\r\nhost: relay\r\ncontent-length: ${10 * 1024 * 1024}\r\n\r\n`);
    // A chunked body with no declared length: answered once it passes the limit, its end never sent.
    const chunked = rawConnection();
    chunked.socket.write('POST / HTTP/1.1\r\nhost: relay\r\ntransfer-encoding: chunked\r\n\r\n');
    const chunk = 'x'.repeat(46 * 1024);
    chunked.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    for (const answer of await Promise.all([declared.closed, chunked.closed]))
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(github.dispatches).toEqual([]);
    const tooLarge = '413 too large for a repository_dispatch event';
    expect(accountedFor(await loggedRefusals(tooLarge, 2), tooLarge)).toBe(2);
  });

  it('a request slow to send its headers, or its body, is answered 408 and closed within seconds, not minutes', async () => {
    const headers = rawConnection();
    headers.socket.write('POST / HTTP/1.1\r\nhost: relay\r\n');
    const body = rawConnection();
    body.socket.write('POST / HTTP/1.1\r\nhost: relay\r\ncontent-length: 100\r\n\r\n{"id":');
    // Node's defaults keep both open for a minute and five; the relay closes them after 5 and 10 s.
    for (const answer of await Promise.all([headers.closed, body.closed]))
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    const lines = await loggedRefusals('ERR_HTTP_REQUEST_TIMEOUT', 2);
    expect(accountedFor(lines, 'ERR_HTTP_REQUEST_TIMEOUT')).toBe(2);
    expect(lines[0]).toMatch(/ ERR_HTTP_REQUEST_TIMEOUT \(from \S+\)$/);
  }, 30_000);

  it(`at most ${MAX_CONNECTIONS} connections at once: one more is closed unanswered and logged, and served again once one closes`, async () => {
    const open = Array.from({ length: MAX_CONNECTIONS }, () => rawConnection());
    await Promise.all(open.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))));
    // Accepted in order after the others: the relay already holds its bound.
    const extra = rawConnection();
    extra.socket.write('GET / HTTP/1.1\r\nhost: relay\r\n\r\n');
    expect(await extra.closed).toBe('');
    expect(await logged(1)).toEqual([
      expect.stringMatching(new RegExp(` connection refused: ${MAX_CONNECTIONS} open \\(from \\S+\\)$`)),
    ]);
    for (const { socket } of open) socket.destroy();
    await Promise.all(open.map(({ closed }) => closed));
    await untilListening();
  });

  it('after its 408 a connection is destroyed: 32 clients that send a request line and keep their side open do not hold every slot', async () => {
    // allowHalfOpen: each client takes the relay's end of the connection and never ends its own.
    const stalled = Array.from({ length: MAX_CONNECTIONS }, () => rawConnection({ allowHalfOpen: true }));
    for (const { socket } of stalled) socket.write('POST / HTTP/1.1\r\n');
    const answered = stalled.map(
      ({ socket }) =>
        new Promise<string>((resolve) => {
          let answer = '';
          socket.on('data', (chunk: Buffer) => {
            answer += chunk.toString();
            if (answer.includes('\r\n\r\n')) resolve(answer);
          });
        }),
    );
    for (const answer of await Promise.all(answered)) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // Served again while every one of them is still open on its side (half-closed, the relay would be full).
    await untilListening();
    for (const { socket } of stalled) socket.destroy();
    await Promise.all(stalled.map(({ closed }) => closed));
  }, 30_000);

  it('a flood of refusals is logged a line a second for each kind, then a count, not a line each', async () => {
    const body = JSON.stringify({ id: randomUUID(), status: 'finished', buildDetailsPageUrl: 'x' });
    const started = Date.now();
    let sent = 0;
    // Twenty at a time: under the 32 connections the relay holds.
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(body, 'sha1=0')));
      sent += answers.filter((answer) => answer.status === 401).length;
    }
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const kind = '401 svc-signature missing or wrong';
    const lines = await loggedRefusals(kind, sent);
    expect(sent).toBe(400);
    expect(accountedFor(lines, kind)).toBe(400);
    // A line and a count line for each second the flood lasted, at most.
    expect(lines.length).toBeLessThanOrEqual(2 * (seconds + 1));
    expect(github.dispatches).toEqual([]);
  });

  it('a 422 on its tag that is not "it exists" fails the release job with what GitHub said, and releases nothing', async () => {
    await buildAndDeliver();
    const finished = github.dispatches.find((d) => statusOf(bodyOf(d)) === 'finished')!;
    // GitHub's 422 to a ref on a commit it does not have; the tag was never created.
    const refusing = createHttpServer((req, res) => {
      const answer =
        req.method === 'POST' && /\/git\/refs$/.test(req.url ?? '')
          ? [422, { message: 'Object does not exist' }]
          : [404, { message: 'Not Found' }];
      res
        .writeHead(answer[0] as number, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer[1]));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const result = await handle(
        finished,
        `http://127.0.0.1:${(refusing.address() as { port: number }).port}`,
      );
      expect(result.jobs.handle.result).toBe('success');
      const key = keyOf(bodyOf(finished));
      expect(result.jobs.release.result).toBe('failure');
      expect(result.jobs.release.steps[0].log).toBe(
        `Creating the tag svc-delivery/${key} failed (HTTP 422): Object does not exist`,
      );
      expect(result.jobs.release.steps[1].outcome).toBe('skipped');
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it("a replay after the relay's window is dispatched again, and the release job finds its tag and releases nothing", async () => {
    await buildAndDeliver();
    const finished = github.dispatches.find((d) => statusOf(bodyOf(d)) === 'finished')!;
    const key = keyOf(bodyOf(finished));
    expect((await handle(finished)).jobs.release.steps[1].outcome).toBe('success');
    const captured = { body: bodyOf(finished), signature: String(finished.client_payload.signature) };

    // Within the window: answered 200 and not dispatched.
    expect((await post(captured.body, captured.signature)).status).toBe(200);
    expect(github.dispatches).toHaveLength(2);
    expect(await logged(1)).toEqual([expect.stringMatching(` 200 already relayed: event ${key} `)]);

    // The relay's file as it stands a month later (every event relayed longer ago than its window),
    // and the relay restarted: it forgets them, as it would by then.
    const monthAgo = Date.now() - (WINDOW_DAYS + 1) * 24 * 60 * 60 * 1000;
    writeFileSync(
      join(dir, KEYS_FILE),
      Object.keys(recorded())
        .map((event) => `${event} ${monthAgo}\n`)
        .join(''),
    );
    await stopRelay();
    await startRelay();
    expect(recorded()).toEqual({});

    // The captured body still verifies (a signature has no expiry): relayed, and the workflow runs.
    const replay = await post(captured.body, captured.signature);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe('relayed\n');
    expect(github.dispatches).toHaveLength(3);
    expect(Object.keys(recorded())).toEqual([key]);
    const replayed = await handle(github.dispatches[2]);
    expect(replayed.jobs.handle.result).toBe('success');
    expect(replayed.jobs.handle.outputs['delivery-key']).toBe(key);
    expect(replayed.jobs.release.steps[0].log).toBe(
      `Delivery ${key} was claimed before (its tag exists): nothing to release.`,
    );
    expect(replayed.jobs.release.steps[1].outcome).toBe('skipped');
  });
});

/** Another copy of the relay, started with `env` on a port of its own: its exit code and its log. */
async function otherRelay(env: Record<string, string | undefined>): Promise<{
  url: string;
  log: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}> {
  const ownPort = await freePort();
  const child = spawnRelay({ PORT: String(ownPort), RELAY_KEYS_FILE: `other-${ownPort}.txt`, ...env });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    url: `http://127.0.0.1:${ownPort}/`,
    log: () => log,
    exited,
    stop: async () => {
      child.kill();
      await exited;
    },
  };
}

/** Until `relay` answers (405 to a GET), polling its state. */
async function answering(url: string): Promise<void> {
  for (let tries = 0; tries < TRIES_20_MS; tries++) {
    const status = await fetch(url).then(
      (reply) => reply.status,
      () => 0,
    );
    if (status === 405) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the relay does not answer');
}

/** Until `log()` has a line that matches `line`: the lines that do. */
async function untilLogged(log: () => string, line: RegExp): Promise<string[]> {
  for (let tries = 0; tries < TRIES_10_MS && !line.test(log()); tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return log()
    .split('\n')
    .filter((logged) => line.test(logged));
}

describe('the relay, set up wrong', () => {
  it.each([
    [
      'GITHUB_TOKEN',
      { GITHUB_TOKEN: undefined },
      'set GITHUB_TOKEN: a token that may create dispatch events on the repository.',
    ],
    [
      'GITHUB_REPOSITORY',
      { GITHUB_REPOSITORY: undefined },
      'set GITHUB_REPOSITORY: the repository to dispatch to, as owner/repo (not set).',
    ],
    [
      'GITHUB_REPOSITORY not owner/repo',
      { GITHUB_REPOSITORY: 'app' },
      'set GITHUB_REPOSITORY: the repository to dispatch to, as owner/repo (not that form).',
    ],
    [
      'the signing secret',
      { SVC_WEBHOOK_SECRET: undefined },
      "set SVC_WEBHOOK_SECRET: the webhook's signing secret (at least 16 characters; 0 given).",
    ],
    ...['30d', '0', ''].map((days): [string, Record<string, string>, string] => [
      `RELAY_REMEMBER_DAYS ${JSON.stringify(days)}`,
      { RELAY_REMEMBER_DAYS: days },
      `set RELAY_REMEMBER_DAYS: how many days an event is remembered, a whole number above 0 such as 30 (${JSON.stringify(days)} given).`,
    ]),
    [
      'a RELAY_MAX_PER_ADDRESS that is no number',
      { RELAY_MAX_PER_ADDRESS: 'four' },
      'set RELAY_MAX_PER_ADDRESS: connections one address may hold, a whole number such as 4, or 0 for no limit ("four" given).',
    ],
    [
      'RELAY_KEYS_FILE in a folder that does not exist',
      { RELAY_KEYS_FILE: 'no-such-folder/relayed-events.txt' },
      'RELAY_KEYS_FILE no-such-folder/relayed-events.txt cannot be written (its folder does not exist): set it to a file in a folder that exists.',
    ],
  ])('with %s it does not start, and names the variable in one line', async (_what, env, said) => {
    const relayed = await otherRelay(env);
    expect(await relayed.exited).toBe(1);
    expect(relayed.log()).toBe(`The relay did not start: ${said}\n`);
  });

  it('on a port in use it does not start, and says so in one line naming PORT', async () => {
    const relayed = await otherRelay({ PORT: String(port) });
    expect(await relayed.exited).toBe(1);
    expect(relayed.log()).toBe(
      `The relay did not start: PORT ${port} is in use (EADDRINUSE): set PORT to a free port.\n`,
    );
  });

  it('at most RELAY_MAX_PER_ADDRESS (4 by default) connections from one address; another address is served', async () => {
    const relayed = await otherRelay({});
    const ownPort = Number(new URL(relayed.url).port);
    try {
      await answering(relayed.url);
      const held = Array.from({ length: 4 }, () => rawConnection({ to: ownPort }));
      await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))));
      const fifth = rawConnection({ to: ownPort });
      fifth.socket.write('GET / HTTP/1.1\r\nhost: relay\r\n\r\n');
      expect(await fifth.closed).toBe('');
      expect(await untilLogged(relayed.log, /connection refused/)).toEqual([
        expect.stringMatching(/ connection refused: 4 open from one address \(from 127\.0\.0\.1\)$/),
      ]);
      // Another address (127.0.0.2 is the loopback too) is served meanwhile.
      const other = rawConnection({ to: ownPort, from: '127.0.0.2' });
      other.socket.write('GET / HTTP/1.1\r\nhost: relay\r\n\r\n');
      expect(await other.closed).toMatch(/^HTTP\/1\.1 405 /);
      for (const { socket } of held) socket.destroy();
      await Promise.all(held.map(({ closed }) => closed));
      await answering(relayed.url);
    } finally {
      await relayed.stop();
    }
  });

  it('counts an IPv6 peer by its /64, and an IPv4 one mapped into IPv6 by its address', () => {
    // peerOf as the README writes it (a second machine's addresses cannot reach a test's loopback).
    const source = findScript('verify-webhook/README.md', '// relay.mjs');
    const text = /^function peerOf[\s\S]*?^}$/m.exec(source)?.[0];
    const peerOf = new Function(`${text}\nreturn peerOf;`)() as (address?: string) => string;
    expect(peerOf('2001:db8:1:2:aaaa::1')).toBe(peerOf('2001:DB8:1:2:bbbb:cccc:dddd:2'));
    expect(peerOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(peerOf('2001:db8:1:3::1')).not.toBe(peerOf('2001:db8:1:2::1'));
    expect(peerOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(peerOf('::1')).toBe('0:0:0:0::/64');
    expect(peerOf('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(peerOf('203.0.113.9')).toBe('203.0.113.9');
  });

  it('each failed dispatch is logged with why (401, 403, 404, unreachable) and answered 502; a trailing / in GITHUB_API_URL is dropped', async () => {
    // GitHub's answers to a dispatch the token may not make.
    const refusing = createHttpServer();
    const statusOf: Record<string, number> = {};
    refusing.on('request', (req, res) => {
      res.writeHead(statusOf[String(req.headers.authorization)] ?? 500).end('{"message":"no"}');
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const refusingUrl = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`;
    statusOf['Bearer ghs_revoked'] = 401;
    statusOf['Bearer ghs_readOnly'] = 403;
    statusOf['Bearer ghs_otherOwner'] = 404;
    const closedPort = await freePort();
    const relays = await Promise.all([
      otherRelay({ GITHUB_API_URL: refusingUrl, GITHUB_TOKEN: 'ghs_revoked' }),
      otherRelay({ GITHUB_API_URL: refusingUrl, GITHUB_TOKEN: 'ghs_readOnly' }),
      otherRelay({ GITHUB_API_URL: refusingUrl, GITHUB_TOKEN: 'ghs_otherOwner' }),
      otherRelay({ GITHUB_API_URL: `http://127.0.0.1:${closedPort}` }),
      otherRelay({ GITHUB_API_URL: `${github.url}/` }),
      // A port fetch refuses to use: its words, not `TypeError`.
      otherRelay({ GITHUB_API_URL: 'http://127.0.0.1:6000' }),
    ]);
    try {
      await Promise.all(relays.map((relayed) => answering(relayed.url)));
      const body = JSON.stringify({ id: randomUUID(), status: 'finished', buildDetailsPageUrl: 'x' });
      const answers = await Promise.all(
        relays.map((relayed) =>
          fetch(relayed.url, {
            method: 'POST',
            headers: { 'svc-signature': signWebhookBody(body, SECRET) },
            body,
          }).then((reply) => reply.status),
        ),
      );
      expect(answers).toEqual([502, 502, 502, 502, 200, 502]);
      expect(github.dispatches).toHaveLength(1);
      const lines = await Promise.all(
        [...relays.slice(0, 4), relays[5]].map((relayed) => untilLogged(relayed.log, / 502 /)),
      );
      expect(lines).toEqual([
        [
          expect.stringMatching(
            / 502 GitHub answered 401: GITHUB_TOKEN was refused \(wrong, expired or revoked\) \(from \S+\)$/,
          ),
        ],
        [
          expect.stringMatching(
            / 502 GitHub answered 403: GITHUB_TOKEN may not create dispatch events on GITHUB_REPOSITORY \(Contents: read and write\) \(from \S+\)$/,
          ),
        ],
        [
          expect.stringMatching(
            new RegExp(
              ` 502 GitHub answered 404: GITHUB_TOKEN sees no repository acme/app at ${refusingUrl} \\(check both\\) \\(from \\S+\\)$`,
            ),
          ),
        ],
        [
          expect.stringMatching(
            new RegExp(
              ` 502 GitHub unreachable: http://127\\.0\\.0\\.1:${closedPort}: ECONNREFUSED \\(from \\S+\\)$`,
            ),
          ),
        ],
        [
          expect.stringMatching(
            / 502 GitHub unreachable: http:\/\/127\.0\.0\.1:6000: bad port \(from \S+\)$/,
          ),
        ],
      ]);
      // Never the token.
      for (const relayed of relays) expect(relayed.log()).not.toContain('ghs_');
    } finally {
      await Promise.all(relays.map((relayed) => relayed.stop()));
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});
