/**
 * The simulator's `/` in a real browser (issue 41 item 4): the overview lists the run, the session,
 * the webhook delivery, the stand-in's pull request and GitHub's counts; it follows the run to its end
 * by itself (it reloads while something is under way); each link opens the page it names; hostile text
 * stays text, nothing runs, and nothing is requested from anywhere but the simulator. The run is moved
 * on by explicit controls (finishJob), never by waiting on a duration.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launch, openPage } from './browser.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { GATE } from '../../testkit/docs/workflows.js';
import { startReceiver, type Receiver } from '../../testkit/world/webhook-receiver.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

let browser: Browser;
let w: World;
let receiver: Receiver;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());
afterEach(async () => {
  await w?.sim.close();
  await receiver?.close();
});

describe('the overview in a browser', () => {
  it('lists everything, follows the run to its end by itself, and each link opens its page', async () => {
    w = await createWorld({ 'gate.yml': GATE }, { defaultJobDurationMs: 3_600_000 });
    receiver = await startReceiver(() => 200);
    w.sim.webhooks.add({
      projectId: w.project.id,
      event: 'BUILD',
      url: receiver.url,
      secret: 'overview-webhook-secret-0123456789',
    });
    const run = await w.sim.createRun({ appId: w.project.id, gitRef: 'main', fileName: 'gate.yml' });
    w.sim.github.addPullRequest({ number: 7, head: w.repo.headSha, title: HOSTILE });
    const session = await fetch(`${w.sim.url}/v2/device-run-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: w.project.id, platform: 'ios', type: 'agent-device', name: HOSTILE }),
    }).then(async (reply) => ((await reply.json()) as { data: { id: string } }).data);

    const { page, requested, dialogs } = await openPage(browser);
    await page.goto(`${w.sim.url}/`);
    expect(await page.title()).toBe('svc simulator');
    const runRow = page.locator(`tr[data-run="${run.id}"]`);
    expect(await runRow.locator('td').nth(1).innerText()).toBe('in-progress');
    expect(await page.locator(`tr[data-session="${session.id}"] td`).nth(1).innerText()).toBe(HOSTILE);
    expect(await page.locator('tr[data-pull-request="acme/app#7"] a').innerText()).toBe(`#7 ${HOSTILE}`);
    expect(await page.locator('#deliveries').count()).toBe(0);
    expect(await page.locator('body script, body img').count()).toBe(0);

    // The page reloads itself while the run is under way: the build's delivery and the run's end appear.
    w.sim.finishJob(run.id, 'build_ios');
    await page.locator('#deliveries tr[data-acknowledged="true"]').waitFor();
    while (w.sim.getRun(run.id)!.jobs.find((job) => job.key === 'test')!.status !== 'in-progress')
      await new Promise((resolve) => setTimeout(resolve, 5));
    w.sim.finishJob(run.id, 'test');
    await runRow.locator('[data-status="success"]').first().waitFor();

    // Each link opens what it names.
    await runRow.locator('a').click();
    await page.waitForURL(run.url);
    expect(await page.title()).toBe(`Workflow run ${run.id}`);
    await page.goBack();
    await page.locator('tr[data-pull-request="acme/app#7"] a').click();
    await page.waitForURL(`${w.sim.github.url}/acme/app/pull/7`);
    expect(await page.title()).toBe(`${HOSTILE} #7`);
    await page.goBack();
    await page.locator('h2', { hasText: 'Webhook delivery attempts' }).locator('a').click();
    await page.waitForURL(`${w.sim.url}/_sim/webhook-deliveries`);
    expect(await page.locator('body').innerText()).toContain('"acknowledged":true');

    expect(dialogs).toEqual([]);
    expect(requested.every((url) => url.startsWith(w.sim.url))).toBe(true);
  });
});
