/**
 * The simulator's `/` (issue 41 item 4): for a browser, one read-only page of the runs, sessions,
 * webhooks and their deliveries, the service's requests per token, the GitHub stand-in's pull requests
 * and merge-queue entries, and the requests that reached GitHub per repository and token, each linked to the page or JSON route that
 * shows it; hostile text stays text, no secret is shown, and it reloads only while something is
 * under way. A JSON client of `/` gets a 404 that names the page and `/_sim/state`; a POST changes nothing.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { call, visible, type Reply } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { GATE } from '../../testkit/docs/workflows.js';
import { startReceiver, type Receiver } from '../../testkit/world/webhook-receiver.js';
import { MemoryRepo } from '../../simulator/index.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** Text that would be markup, a script or an attribute break if the page inserted it as it is. */
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>"'&amp;`;
const WEBHOOK_SECRET = 'overview-webhook-secret-0123456789';
const GITHUB_TOKEN = 'ghs_overviewToken0123456789abcdef';
const PREVIEW_SECRET = 'preview-secret-value-123';

let w: World;
let receiver: Receiver | undefined;
afterEach(async () => {
  await w?.sim.close();
  await receiver?.close();
  receiver = undefined;
});

const overview = (): Promise<Reply> => call(w.sim, 'GET', '/', { headers: BROWSER });
const hrefs = (page: string): string[] =>
  [...page.matchAll(/href="([^"]*)"/g)].map(([, href]) => href.replace(/&amp;/g, '&'));

/** A world with one of everything the overview lists, its names and messages hostile. */
async function busyWorld() {
  w = await createWorld(new MemoryRepo({ 'gate.yml': GATE }, HOSTILE), { defaultJobDurationMs: 3_600_000 });
  receiver = await startReceiver(() => 200);
  // A receiver address with user info and a query, which may hold credentials: shown without them.
  const hook = new URL(receiver.url);
  hook.username = 'hook-user';
  hook.password = 'hook-password-value';
  hook.search = '?key=query-secret-value';
  w.sim.webhooks.add({
    projectId: w.project.id,
    event: 'BUILD',
    url: hook.toString(),
    secret: WEBHOOK_SECRET,
  });
  const run = await w.sim.createRun({ appId: w.project.id, gitRef: 'main', fileName: 'gate.yml' });

  w.sim.setSessionBehaviour({ extraRemoteConfigFields: { webPreviewToken: PREVIEW_SECRET } });
  const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
    token: w.token,
    body: { appId: w.project.id, platform: 'ios', type: 'agent-device', name: HOSTILE },
  });
  const session = created.json.data as { id: string; url: string };
  const unknown = await call(w.sim, 'GET', `/v2/workflows/runs/${run.id}`, {
    token: 'svc_robot_unknown-token-value',
  });
  expect(unknown.status).toBe(401);
  w.sim.readySession(session.id);

  const head = w.repo.headSha;
  w.sim.github.addPullRequest({ number: 7, head, title: HOSTILE });
  const posted = await fetch(`${w.sim.github.url}/repos/acme/app/statuses/${head}`, {
    method: 'POST',
    headers: { authorization: `token ${GITHUB_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ context: 'svc/gate', state: 'pending', description: 'Running' }),
  });
  expect(posted.status).toBe(201);
  const { entry } = await w.sim.github.enqueue(7);
  return { run, session, entry };
}

describe("the simulator's / in a browser", () => {
  it('lists every run, session, webhook, delivery, pull request and count, each linked, hostile text as text', async () => {
    const { run, session, entry } = await busyWorld();
    w.sim.finishJob(run.id, 'build_ios');
    await w.sim.webhooks.idle();
    const delivery = w.sim.webhooks.deliveries[0];
    expect(delivery.acknowledged).toBe(true);

    const reply = await overview();
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(reply.text).not.toMatch(/<(script|link|iframe|img|object|embed)\b|<[a-z][^>]*\ssrc=/i);
    const text = visible(reply.text);

    // Each thing, with its state.
    expect(reply.text).toContain(`<tr data-run="${run.id}">`);
    expect(text).toMatch(
      new RegExp(`${run.id} in-progress acme/app refs/heads/main ${run.gitCommitHash.slice(0, 12)} `),
    );
    expect(text).toContain('build_ios success test in-progress');
    expect(text).toContain(`${session.id} ${HOSTILE} in-progress ios agent-device acme/app`);
    expect(text).toContain(`BUILD acme/app http://127.0.0.1:${new URL(receiver!.url).port}/`);
    expect(text).toContain(`${delivery.deliveryId} BUILD 1 http://127.0.0.1:`);
    expect(text).toContain('200 acknowledged');
    expect(text).toContain(
      `#7 ${HOSTILE} acme/app pending ${w.repo.headSha.slice(0, 12)} position 1, commit ${entry.head.slice(0, 12)} no checks 0`,
    );
    expect(text).toMatch(/acme\/app installation:github-actions\[bot\] 0 1 0 0 0/);
    // The service's requests per token, each named by its user and roles, never by its value.
    expect(text).toContain(
      "Requests to the service's API, per token (2) Token Requests Answered 4xx or 5xx " +
        'robot-1 (robot token, developer on acme) 1 0 a token the simulator does not know 1 1',
    );
    // The commit message, the session's name and the pull request's title are text, not markup.
    expect(text).toContain(`${run.gitCommitHash.slice(0, 12)} ${HOSTILE}`);
    expect(reply.text).not.toContain('<script>');
    expect(reply.text).not.toContain('<img');

    // No secret: the tokens, the webhook's secret and signature, the receiver's user info and query,
    // the session's connection (its own page shows it, masked).
    for (const secret of [
      w.token,
      GITHUB_TOKEN,
      WEBHOOK_SECRET,
      delivery.signature,
      'hook-password-value',
      'hook-user',
      'query-secret-value',
      PREVIEW_SECRET,
      'unknown-token-value',
      String(w.sim.getSession(session.id)!.remoteConfig!.agentDeviceRemoteSessionToken),
    ])
      expect(reply.text).not.toContain(secret);

    // Every link leads to a page or a JSON route of this simulator that answers.
    const links = hrefs(reply.text);
    expect(links).toEqual(
      expect.arrayContaining([
        new URL(run.url).pathname,
        new URL(session.url).pathname,
        '/_sim/state',
        '/_sim/webhooks',
        '/_sim/webhook-deliveries',
        '/_github/acme/app/pull/7',
      ]),
    );
    for (const href of new Set(links)) {
      expect(href).toMatch(/^\/(?!\/)/);
      expect([href, (await call(w.sim, 'GET', href, { headers: BROWSER })).status]).toEqual([href, 200]);
    }
  });

  it('reloads while a run or a session is under way, and not once everything ended', async () => {
    const { run, session } = await busyWorld();
    expect((await overview()).text).toMatch(/<meta http-equiv="refresh" content="1"/);
    w.sim.finishJob(run.id, 'build_ios');
    for (;;) {
      const test = w.sim.getRun(run.id)!.jobs.find((job) => job.key === 'test')!;
      if (test.status === 'in-progress') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    w.sim.finishJob(run.id, 'test');
    expect((await overview()).text).toMatch(/<meta http-equiv="refresh"/);
    await call(w.sim, 'POST', `/v2/device-run-sessions/${session.id}/stop`, { token: w.token });
    const ended = await overview();
    expect(w.sim.getRun(run.id)!.status).toBe('success');
    expect(ended.text).not.toMatch(/<meta http-equiv="refresh"/);
    expect(visible(ended.text)).toContain(`${session.id} ${HOSTILE} stopped`);
  });

  it('an empty simulator says so under each heading', async () => {
    w = await createWorld({});
    const text = visible((await overview()).text);
    expect(text).toContain('Workflow runs (0) · JSON No run yet.');
    expect(text).toContain('Device sessions (0) · JSON No device session yet.');
    expect(text).toContain('Webhooks (0) · JSON No webhook registered.');
    expect(text).toContain('Webhook delivery attempts (0) · JSON No delivery yet.');
    expect(text).toContain("Requests to the service's API, per token (0) No request yet.");
    expect(text).toContain("Pull requests on GitHub's stand-in (0) No pull request open.");
    expect(text).toContain('Requests that reached GitHub, per repository and token (0) No request yet.');
  });
});

describe('/ for anything but a browser', () => {
  it('a JSON client gets a 404 naming the page and /_sim/state; a POST is no route and changes nothing', async () => {
    w = await createWorld({ 'gate.yml': GATE });
    const json = await call(w.sim, 'GET', '/');
    expect(json.status).toBe(404);
    expect(json.json).toEqual({
      errors: [
        {
          code: 'NOT_FOUND',
          message:
            'GET / is the overview page, for a browser (Accept: text/html); the same state as JSON is at GET /_sim/state',
        },
      ],
    });
    const posted = await call(w.sim, 'POST', '/', {
      headers: BROWSER,
      body: { appId: w.project.id, gitRef: 'main', fileName: 'gate.yml' },
    });
    expect(posted.status).toBe(404);
    expect(visible(posted.text)).toContain('No route for POST /');
    expect(w.sim.runs()).toEqual([]);
  });
});
