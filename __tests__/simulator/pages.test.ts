/**
 * A page behind every link (issue 33, item 2): the run, session, build and submission addresses the
 * action prints answer a browser (`Accept: text/html`) with a read-only page of the same state the JSON
 * routes read, with every value escaped and nothing loaded from elsewhere; JSON clients of the same
 * addresses get what they got before; the artifact link of a finished build downloads a small file.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { call, visible, waitFor, UNKNOWN_UUID, type Reply } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { GATE, STORE, workflow } from '../../testkit/docs/workflows.js';
import type { WorkflowRun } from '../../simulator/index.js';
import { MemoryRepo } from '../../simulator/index.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** Text that would be markup, a script or an attribute break if a page inserted it as it is. */
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>"'&amp;`;

let w: World;
afterEach(() => w?.sim.close());

const open = (url: string, headers: Record<string, string> = BROWSER): Promise<Reply> =>
  call(w.sim, 'GET', new URL(url).pathname, { headers });

async function dispatch(fileName: string): Promise<string> {
  const reply = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, gitRef: 'main', fileName },
  });
  expect(reply.status).toBe(200);
  return reply.json.data.id as string;
}

const ended = (id: string): Promise<WorkflowRun> =>
  waitFor(
    () => ['success', 'failure', 'canceled'].includes(w.sim.getRun(id)?.status ?? '') && w.sim.getRun(id),
    'the run to end',
  );

function expectSelfContained(reply: Reply): void {
  expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(reply.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
  expect(reply.text).not.toMatch(/<(script|link|iframe|img|object|embed)\b|<[a-z][^>]*\ssrc=|@import|url\(/i);
  // Links lead to this simulator only.
  for (const [, href] of reply.text.matchAll(/href="([^"]*)"/g))
    expect(href.startsWith('/') || href.startsWith(w.sim.url)).toBe(true);
}

describe('the run page', () => {
  it('shows the jobs, statuses, commit and times, reloads while the run is under way, and not after', async () => {
    w = await createWorld({ 'gate.yml': GATE }, { defaultJobDurationMs: 600_000 });
    const id = await dispatch('gate.yml');
    await waitFor(() => w.sim.getRun(id)?.status === 'in-progress', 'the run to start');
    const run = w.sim.getRun(id)!;

    const running = await open(run.url);
    expect(running.status).toBe(200);
    expectSelfContained(running);
    expect(running.text).toMatch(/<meta http-equiv="refresh" content="1"/);
    const text = visible(running.text);
    expect(text).toContain(`Workflow run ${id}`);
    expect(text).toMatch(/Status in-progress/);
    expect(text).toContain(`Commit ${run.gitCommitHash} ${run.gitCommitMessage}`);
    expect(text).toContain('Ref refs/heads/main');
    expect(text).toContain(`Created ${run.createdAt}`);
    expect(text).toMatch(/build_ios Build iOS build in-progress/);
    expect(text).toMatch(/test Tests \S+ new build_ios/);

    w.sim.finishJob(id, 'build_ios');
    w.sim.finishJob(id, 'test');
    const done = await open(run.url);
    expect(visible(done.text)).toMatch(/Status success/);
    expect(visible(done.text)).toMatch(/build_ios Build iOS build success/);
    expect(done.text).not.toContain('http-equiv="refresh"');
    // The build job links its build's page.
    const buildId = w.sim.getRun(id)!.jobs[0].buildId!;
    expect(done.text).toContain(`href="/accounts/acme/projects/app/builds/${buildId}"`);
  });

  it('JSON clients of the same address get what they got before: a 404 JSON error', async () => {
    w = await createWorld({ 'gate.yml': GATE });
    const run = w.sim.getRun(await dispatch('gate.yml'))!;
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Array<
      Record<string, string>
    >) {
      const reply = await open(run.url, headers);
      expect(reply.status).toBe(404);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.json).toEqual({
        errors: [{ code: 'NOT_FOUND', message: `No route for GET ${new URL(run.url).pathname}` }],
      });
    }
    // The service route itself is unchanged for a browser too.
    const api = await call(w.sim, 'GET', `/v2/workflows/runs/${run.id}`, {
      token: w.token,
      headers: BROWSER,
    });
    expect(api.json.data.id).toBe(run.id);
  });

  it('escapes every value that comes from a request or the state (job names, commit message, outputs, errors)', async () => {
    const repo = new MemoryRepo({});
    repo.commit(
      {
        'hostile.yml': workflow(HOSTILE, {
          build: { name: HOSTILE, type: 'build', outputs: { [`o`]: HOSTILE } },
          after: { name: 'After', needs: ['build'] },
        }),
      },
      HOSTILE,
    );
    w = await createWorld(repo);
    w.sim.setJobBehaviour('after', { outcome: 'failure', errorMessage: HOSTILE });
    const id = await dispatch('hostile.yml');
    await ended(id);
    const page = await open(w.sim.getRun(id)!.url);
    expectSelfContained(page);
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;amp;',
    );
    // Shown as text: the name, the commit message, the output and the error.
    expect(visible(page.text).split(HOSTILE).length - 1).toBeGreaterThanOrEqual(4);
  });
});

describe('the session page', () => {
  it('shows status, device, times and connection with every secret masked, and reloads until the session ends', async () => {
    w = await createWorld({}, { readinessDelayMs: 600_000 });
    w.sim.setSessionBehaviour({ extraRemoteConfigFields: { webPreviewToken: 'preview-secret-value-123' } });
    const created = await call(w.sim, 'POST', '/v2/device-run-sessions', {
      token: w.token,
      body: {
        appId: w.project.id,
        platform: 'ios',
        type: 'argent',
        name: HOSTILE,
        deviceIdentifier: 'iPhone 15',
      },
    });
    const id = created.json.data.id as string;
    const url = created.json.data.url as string;

    const waiting = await open(url);
    expectSelfContained(waiting);
    expect(waiting.text).toContain('http-equiv="refresh"');
    expect(visible(waiting.text)).toMatch(/Status new .*Device iPhone 15 \(simulator .*iOS 18\.2\)/);
    expect(visible(waiting.text)).toContain('None yet: the session is not ready.');
    expect(waiting.text).not.toContain('<script>alert');
    expect(visible(waiting.text)).toContain(`Name ${HOSTILE}`);

    w.sim.readySession(id);
    const config = w.sim.getSession(id)!.remoteConfig!;
    const ready = await open(url);
    const text = visible(ready.text);
    expect(text).toMatch(/Status in-progress/);
    expect(text).toContain(`Started ${w.sim.getSession(id)!.startedAt}`);
    expect(text).toContain(`toolsUrl ${config.toolsUrl as string}`);
    expect(text).toContain('toolsAuthToken ***');
    expect(text).toContain('webPreviewToken ***');
    expect(ready.text).not.toContain(config.toolsAuthToken as string);
    expect(ready.text).not.toContain('preview-secret-value-123');
    expect(ready.text).not.toContain(w.token);

    await call(w.sim, 'POST', `/v2/device-run-sessions/${id}/stop`, { token: w.token });
    const stopped = await open(url);
    expect(visible(stopped.text)).toMatch(/Status stopped .*Finished \d{4}-/);
    expect(visible(stopped.text)).toContain('None any more: the session ended.');
    expect(stopped.text).not.toContain('http-equiv="refresh"');
  });
});

describe('the build and submission pages', () => {
  it('show status and job, and link an artifact that downloads a small file', async () => {
    w = await createWorld({ 'store.yml': STORE });
    const id = await dispatch('store.yml');
    const run = await ended(id);
    const build = run.jobs.find((job) => job.key === 'build_ios')!;
    const submission = run.jobs.find((job) => job.key === 'submit')!;

    const buildPage = await open(`${w.sim.url}/accounts/acme/projects/app/builds/${build.buildId}`);
    expect(buildPage.status).toBe(200);
    expectSelfContained(buildPage);
    expect(visible(buildPage.text)).toMatch(/Status finished Job build_ios Build iOS \(success\)/);
    expect(buildPage.text).toContain(`href="/accounts/acme/projects/app/workflows/${id}"`);
    const artifact = /<a href="([^"]+)" download id="artifact">/.exec(buildPage.text)![1];
    expect(artifact).toBe(`/artifacts/builds/${build.buildId}/app.ipa`);

    const file = await call(w.sim, 'GET', artifact, { headers: BROWSER });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toBe('attachment; filename="app.ipa"');
    expect(file.text).toContain(`build ${build.buildId}`);
    expect(file.text.length).toBeLessThan(1024);

    const submissionPage = await open(
      `${w.sim.url}/accounts/acme/projects/app/submissions/${submission.submissionId}`,
    );
    expect(visible(submissionPage.text)).toMatch(/Status finished Job submit/);
    expect(submissionPage.text).toContain(`href="/artifacts/builds/${build.buildId}/app.ipa"`);
  });

  it('the addresses the webhook payloads carry lead to these pages and files', async () => {
    w = await createWorld({ 'store.yml': STORE });
    const completed: Array<{ buildDetailsPageUrl?: string; artifacts?: { buildUrl?: string } }> = [];
    const { webhookPayload } = await import('../../simulator/webhooks/payloads.js');
    w.sim.events.on('job-completed', (event) => {
      const prepared = webhookPayload(event);
      if (prepared?.event === 'BUILD') completed.push(prepared.payload as (typeof completed)[number]);
    });
    await ended(await dispatch('store.yml'));
    expect(completed).toHaveLength(2);
    for (const payload of completed) {
      expect((await open(payload.buildDetailsPageUrl!)).status).toBe(200);
      expect((await open(payload.artifacts!.buildUrl!, {})).status).toBe(200);
    }
  });
});

describe('pages for what does not exist', () => {
  it('an unknown id is a 404 page, an id that is not a UUID a 400 page, another project’s path a 404 page', async () => {
    w = await createWorld({ 'gate.yml': GATE });
    const run = w.sim.getRun(await dispatch('gate.yml'))!;
    const unknown = await open(`${w.sim.url}/accounts/acme/projects/app/workflows/${UNKNOWN_UUID}`);
    expect(unknown.status).toBe(404);
    expectSelfContained(unknown);
    expect(visible(unknown.text)).toContain(
      `Not found (404) NOT_FOUND No workflow run with id ${UNKNOWN_UUID}`,
    );

    const malformed = await open(`${w.sim.url}/accounts/acme/projects/app/device-sessions/%3Cscript%3E`);
    expect(malformed.status).toBe(400);
    expect(visible(malformed.text)).toContain(
      'Bad request (400) VALIDATION_ERROR deviceRunSessionId must be a valid UUID',
    );

    const elsewhere = await open(run.url.replace('/projects/app/', '/projects/other/'));
    expect(elsewhere.status).toBe(404);
    for (const kind of ['builds', 'submissions', 'device-sessions'])
      expect((await open(`${w.sim.url}/accounts/acme/projects/app/${kind}/${UNKNOWN_UUID}`)).status).toBe(
        404,
      );
    const noArtifact = await call(w.sim, 'GET', `/artifacts/builds/${UNKNOWN_UUID}/app.aab`);
    expect(noArtifact.status).toBe(404);

    // An address of no page at all: a 404 page for a browser, the JSON error for anyone else.
    const nowhere = await open(`${w.sim.url}/no/such/page?<b>`);
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
