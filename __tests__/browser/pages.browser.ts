/**
 * The simulator's pages in a real browser (issue 33, item 4): a run page opened while the run is
 * under way reaches success by itself (it reloads while the run runs, and stops when it ended); a
 * session page shows no secret; hostile text stays text; nothing is requested from anywhere but the
 * simulator. The run is moved on by explicit controls (finishJob), never by waiting on a duration.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launch, openPage } from './browser.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { GATE, workflow } from '../../testkit/docs/workflows.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

let browser: Browser;
let w: World;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());
afterEach(() => w?.sim.close());

/** Waits (without a deadline of its own: Jest's test timeout) until the simulator's run has started. */
async function started(id: string): Promise<void> {
  while (w.sim.getRun(id)?.status !== 'in-progress') await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('in a browser', () => {
  it('the run page of a run in progress reaches success, then stops reloading', async () => {
    w = await createWorld({ 'gate.yml': GATE }, { defaultJobDurationMs: 3_600_000 });
    const run = await w.sim.createRun({ appId: w.project.id, gitRef: 'main', fileName: 'gate.yml' });
    await started(run.id);
    const { page, requested, dialogs } = await openPage(browser);
    await page.goto(run.url);

    const runStatus = page.locator('table.fields [data-status]').first();
    expect(await runStatus.textContent()).toBe('in-progress');
    expect(await page.locator('tr[data-job="build_ios"] [data-status]').textContent()).toBe('in-progress');
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(1);

    w.sim.finishJob(run.id, 'build_ios');
    await page.locator('tr[data-job="test"] [data-status="in-progress"]').waitFor();
    w.sim.finishJob(run.id, 'test');
    // The page reloads itself until it shows the end: no action of the test's on the page.
    await page.locator('table.fields [data-status="success"]').waitFor();
    expect(await page.locator('tr[data-job] [data-status]').allTextContents()).toEqual([
      'success',
      'success',
    ]);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    expect(await page.title()).toBe(`Workflow run ${run.id}`);

    expect(requested.every((url) => url.startsWith(w.sim.url))).toBe(true);
    expect(dialogs).toEqual([]);
  });

  it('the session page shows the connection with no secret in it', async () => {
    w = await createWorld({}, { readinessDelayMs: 3_600_000 });
    w.sim.setSessionBehaviour({ extraRemoteConfigFields: { webPreviewToken: 'preview-secret-value-123' } });
    const created = await fetch(`${w.sim.url}/v2/device-run-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: w.project.id, platform: 'ios', type: 'agent-device', name: HOSTILE }),
    });
    const session = ((await created.json()) as { data: { id: string; url: string } }).data;
    w.sim.readySession(session.id);
    const config = w.sim.getSession(session.id)!.remoteConfig!;
    const secrets = [config.agentDeviceRemoteSessionToken as string, 'preview-secret-value-123', w.token];

    const { page, requested, dialogs } = await openPage(browser);
    await page.goto(session.url);
    const text = await page.locator('body').innerText();
    expect(text).toContain('in-progress');
    expect(text).toContain(config.agentDeviceRemoteSessionUrl as string);
    expect(await page.locator('#connection').innerText()).toMatch(/agentDeviceRemoteSessionToken\s+\*\*\*/);
    const html = await page.content();
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(html).not.toContain(secret);
    }
    // The hostile name is text on the page, not an element, and ran nothing.
    expect(text).toContain(HOSTILE);
    expect(await page.locator('body script, body img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(requested.every((url) => url.startsWith(w.sim.url))).toBe(true);
  });

  it('a run whose names and messages are hostile shows them as text and runs nothing', async () => {
    w = await createWorld({ 'x.yml': workflow(HOSTILE, { build: { name: HOSTILE, type: 'build' } }) });
    w.sim.setJobBehaviour('build', { outcome: 'failure', errorMessage: HOSTILE });
    const run = await w.sim.createRun({ appId: w.project.id, gitRef: 'main', fileName: 'x.yml' });
    const { page, dialogs } = await openPage(browser);
    await page.goto(run.url);
    await page.locator('table.fields [data-status="failure"]').waitFor();
    expect(await page.locator('tr[data-job="build"] td').nth(1).innerText()).toBe(HOSTILE);
    expect(await page.locator('body').innerText()).toContain(`${HOSTILE} failed: ${HOSTILE}`);
    expect(await page.locator('body script, body img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it("the pull request's page shows each status context with its state, and the comment as GitHub renders it", async () => {
    w = await createWorld({});
    const head = w.repo.headSha;
    w.sim.github.addPullRequest({ number: 7, head, title: 'Add the gate' });
    // What the action posts (its commit-statuses and comment), through the stand-in's routes.
    const post = (path: string, body: unknown) =>
      fetch(`${w.sim.github.url}${path}`, {
        method: 'POST',
        headers: { authorization: 'token ghs_x', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post(`/repos/acme/app/statuses/${head}`, {
      context: 'svc/gate',
      state: 'pending',
      description: 'Running',
    });
    await post(`/repos/acme/app/statuses/${head}`, {
      context: 'svc/gate',
      state: 'success',
      description: 'Succeeded',
    });
    await post(`/repos/acme/app/statuses/${head}`, {
      context: 'svc/gate/build',
      state: 'failure',
      description: 'Failed',
    });
    await post('/repos/acme/app/issues/7/comments', {
      body: `<!-- marker -->\n**Gate** <sub>note</sub>\n\n${HOSTILE}`,
    });

    const { page, dialogs, requested } = await openPage(browser);
    await page.goto(`${w.sim.github.url}/acme/app/pull/7`);
    const states = await page
      .locator('#checks tr[data-context]')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute('data-context'),
          row.querySelector('[data-state]')?.getAttribute('data-state'),
        ]),
      );
    expect(states).toEqual([
      ['svc/gate', 'success'],
      ['svc/gate/build', 'failure'],
    ]);
    expect(await page.locator('[data-overall]').textContent()).toBe('failure');
    const comment = page.locator('.comment').first();
    expect(await comment.locator('strong', { hasText: 'Gate' }).count()).toBe(1);
    expect(await comment.locator('sub').textContent()).toBe('note');
    expect(await comment.innerText()).toContain(HOSTILE);
    expect(await comment.innerText()).not.toContain('marker');
    expect(await page.locator('body script, body img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(requested.every((url) => url.startsWith(w.sim.url))).toBe(true);
  });
});
