/**
 * Every recipe runnable locally: start-device-session (run from the sources, in this process)
 * exports the connection details to GITHUB_ENV, and the real clients, configured only from those
 * variables, drive what they lead to on the simulator:
 * - webdriverio's `remote()` with APPIUM_URL and APPIUM_CAPS;
 * - argent's tool routes (ARGENT_TOOLS_URL, ARGENT_AUTH_TOKEN) with fetch, as argent's client calls them;
 * - the browser preview (`web-preview-url`, `preview-url`) with fetch.
 * A wrong token is refused, and once the post step has stopped the session nothing answers any more.
 * The `agent-device` CLI, driven by what the built bundle exported, is the end-to-end tier's case
 * (__tests__/e2e/sessions-bundles.test.ts).
 */
import { remote } from 'webdriverio';
import { IN_PROCESS } from '../../testkit/runner/in-process.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import {
  htmlPage as page,
  jobEnder,
  PNG_SIGNATURE,
  readyStarter,
} from '../../testkit/world/session-fixtures.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';

let world: World;
beforeAll(async () => {
  world = await createWorld(
    { 'e2e.yml': 'on: workflow_dispatch\njobs:\n  a:\n    type: build\n' },
    { readinessDelayMs: 50 },
  );
});
// After each test: whatever happened, no device is left running.
sharedWorldHooks(() => world);

const start = readyStarter(IN_PROCESS, () => world);

/** The end of the job: the post step of that step stops the session. */
const endJob = jobEnder(IN_PROCESS, () => world);

describe('the connection details lead to controllers that answer the real clients', () => {
  it('appium: webdriverio creates a session with APPIUM_CAPS, takes a screenshot, taps, deletes it', async () => {
    const main = await start({ type: 'appium', platform: 'android' });
    const { APPIUM_URL, APPIUM_CAPS } = main.env;
    expect(APPIUM_URL).toBe(`${world.sim.url}/_devices/${main.outputs['session-id']}/appium`);
    const url = new URL(APPIUM_URL);
    const connect = () =>
      remote({
        protocol: url.protocol.slice(0, -1),
        hostname: url.hostname,
        port: Number(url.port),
        path: url.pathname,
        capabilities: JSON.parse(APPIUM_CAPS) as WebdriverIO.Capabilities,
        logLevel: 'silent',
        connectionRetryCount: 0,
      });
    expect(
      ((await (await fetch(`${APPIUM_URL}/status`)).json()) as { value: { ready: boolean } }).value.ready,
    ).toBe(true);

    const driver = await connect();
    expect(driver.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(driver.capabilities).toMatchObject({ platformName: 'Android', 'appium:udid': 'emulator-5554' });
    const screenshot = Buffer.from(await driver.takeScreenshot(), 'base64');
    expect(screenshot.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // What the Android recipe of start-device-session/README.md calls: the page source, UiAutomator2's XML.
    const source = await driver.getPageSource();
    expect(source).toMatch(/^<\?xml [^>]*\?><hierarchy /);
    expect(source).toContain('class="android.widget.Button" text="Continue"');
    await driver
      .action('pointer', { parameters: { pointerType: 'touch' } })
      .move({ x: 100, y: 200 })
      .down()
      .up()
      .perform();
    await driver.deleteSession();
    // The W3C error for a session that is gone.
    const late = await fetch(`${APPIUM_URL}/session/${driver.sessionId}/screenshot`);
    expect([late.status, ((await late.json()) as { value: { error: string } }).value.error]).toEqual([
      404,
      'invalid session id',
    ]);

    await endJob(main, { type: 'appium', platform: 'android' });
    await expect(connect()).rejects.toThrow(/is stopped/);
  });

  it('argent: the tool list and tool calls with ARGENT_AUTH_TOKEN; a wrong or missing token is refused', async () => {
    const main = await start({ type: 'argent' });
    const { ARGENT_TOOLS_URL, ARGENT_AUTH_TOKEN } = main.env;
    expect(ARGENT_TOOLS_URL).toBe(`${world.sim.url}/_devices/${main.outputs['session-id']}/argent`);
    const auth = { authorization: `Bearer ${ARGENT_AUTH_TOKEN}` };
    const call = async (name: string, args: unknown, headers: Record<string, string> = auth) => {
      const response = await fetch(`${ARGENT_TOOLS_URL}/tools/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(args),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };

    const list = await fetch(`${ARGENT_TOOLS_URL}/tools`, { headers: auth });
    expect(list.status).toBe(200);
    const { tools } = (await list.json()) as { tools: Array<{ name: string; inputSchema: object }> };
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list-devices', 'screenshot', 'gesture-tap']),
    );
    const devices = await call('list-devices', {});
    const [device] = devices.body.data.devices;
    expect(device).toMatchObject({ platform: 'ios', udid: expect.any(String) });
    const shot = await call('screenshot', { udid: device.udid });
    expect(Buffer.from(shot.body.data.base64, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect((await call('gesture-tap', { udid: device.udid, x: 0.5, y: 0.25 })).body.data.tapped).toBe(true);

    expect((await fetch(`${ARGENT_TOOLS_URL}/tools`)).status).toBe(401);
    expect(
      (await fetch(`${ARGENT_TOOLS_URL}/tools`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect((await call('list-devices', {}, { authorization: 'Bearer wrong' })).status).toBe(401);

    const preview = await page(main.outputs['web-preview-url']);
    for (const text of ['argent', 'in-progress']) expect(preview.html).toContain(text);
    await endJob(main, { type: 'argent' });
    expect((await fetch(`${ARGENT_TOOLS_URL}/tools`, { headers: auth })).status).toBe(410);
  });

  it('serve-sim: the preview page shows the session and its status, the name escaped', async () => {
    const name = '<script>alert(1)</script> & co';
    const main = await start({ type: 'serve-sim', name });
    expect(main.env).toEqual({ SVC_DEVICE_SESSION_ID: main.outputs['session-id'] });
    const preview = await page(main.outputs['preview-url']);
    expect(preview.status).toBe(200);
    for (const text of [main.outputs['session-id'], 'ios', 'serve-sim', 'in-progress']) {
      expect(preview.html).toContain(text);
    }
    expect(preview.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(preview.html).not.toContain('<script>');
    await endJob(main, { type: 'serve-sim', name });
    const ended = await page(main.outputs['preview-url']);
    expect([ended.status, ended.html.includes('stopped')]).toEqual([410, true]);
  });
});
