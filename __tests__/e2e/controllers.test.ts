/**
 * Every recipe runnable locally: start-device-session (the built bundle, on the runner's Node 24)
 * exports the connection details to GITHUB_ENV, and the real clients, configured only from those
 * variables, drive what they lead to on the simulator:
 * - the `agent-device` CLI (npm; its engines want Node >= 22.12, so it runs on the Node 24 binary)
 *   with AGENT_DEVICE_DAEMON_BASE_URL / AGENT_DEVICE_DAEMON_AUTH_TOKEN;
 * - webdriverio's `remote()` with APPIUM_URL and APPIUM_CAPS;
 * - argent's tool routes (ARGENT_TOOLS_URL, ARGENT_AUTH_TOKEN) with fetch, as argent's client calls them;
 * - the browser preview (`web-preview-url`, `preview-url`) with fetch.
 * A wrong token is refused, and once the post step has stopped the session nothing answers any more.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remote } from 'webdriverio';
import { ROOT, RUNTIMES, runStep, runStepPost, type ActionRun } from '../../testkit/runner/step.js';
import { createWorld, type World } from '../../testkit/world/world.js';

const AGENT_DEVICE_CLI = join(ROOT, 'node_modules', 'agent-device', 'bin', 'agent-device.mjs');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let world: World;
let home: string;
beforeAll(async () => {
  world = await createWorld(
    { 'e2e.yml': 'on: workflow_dispatch\njobs:\n  a:\n    type: build\n' },
    { readinessDelayMs: 50 },
  );
  // The agent-device CLI keeps its state and logs under HOME: a throw-away one.
  home = await mkdtemp(join(tmpdir(), 'svc-controllers-'));
});
afterAll(async () => {
  await world.sim.close();
  await rm(home, { recursive: true, force: true });
});
beforeEach(() => world.sim.reset());
afterEach(() => {
  expect(world.sim.activeSessions()).toEqual([]);
});

function inputs(given: Record<string, string>): Record<string, string> {
  return { ...world.api, platform: 'ios', 'poll-interval-seconds': '0.05', ...given };
}

async function start(given: Record<string, string>): Promise<ActionRun> {
  const main = await runStep('start-device-session', { inputs: inputs(given) });
  expect(main.stderr).toBe('');
  expect(main.exitCode).toBe(0);
  return main;
}

/** The end of the job: the post step of that step stops the session. */
async function endJob(main: ActionRun, given: Record<string, string>): Promise<void> {
  const post = await runStepPost('start-device-session', main, { inputs: inputs(given) });
  expect(post.exitCode).toBe(0);
  expect(world.sim.getSession(main.outputs['session-id'])?.status).toBe('stopped');
}

interface CliResult {
  code: number;
  json: { success: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } };
}

/** Runs `agent-device <args> --json` on Node 24 with the job's environment (what GITHUB_ENV gave). */
function agentDevice(args: string[], jobEnv: Record<string, string>): Promise<CliResult> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    AGENT_DEVICE_STATE_DIR: join(home, 'state'),
    ...jobEnv,
  };
  return new Promise((resolve, reject) => {
    execFile(
      RUNTIMES.node24,
      [AGENT_DEVICE_CLI, ...args, '--json'],
      { env, cwd: home, timeout: 30_000 },
      (error, stdout, stderr) => {
        try {
          const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
          resolve({ code, json: JSON.parse(stdout) as CliResult['json'] });
        } catch {
          reject(
            new Error(`agent-device ${args[0]}: no JSON on stdout: ${stdout} ${stderr} ${String(error)}`),
          );
        }
      },
    );
  });
}

async function page(url: string): Promise<{ status: number; html: string }> {
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return { status: response.status, html: await response.text() };
}

describe('the connection details lead to controllers that answer the real clients', () => {
  it('agent-device: the CLI lists the device, opens an app, takes a screenshot, taps, closes; a wrong token is refused', async () => {
    const main = await start({ type: 'agent-device' });
    const id = main.outputs['session-id'];
    const env = main.env;
    expect(env.AGENT_DEVICE_DAEMON_BASE_URL).toBe(`${world.sim.url}/_devices/${id}/agent-device`);
    expect(env.AGENT_DEVICE_DAEMON_AUTH_TOKEN).toMatch(/.{16,}/);

    const devices = await agentDevice(['devices'], env);
    expect(devices).toEqual({
      code: 0,
      json: {
        success: true,
        data: { devices: [expect.objectContaining({ platform: 'ios', kind: 'simulator', booted: true })] },
      },
    });
    expect((await agentDevice(['open', 'com.example.app'], env)).json).toMatchObject({
      success: true,
      data: { appBundleId: 'com.example.app', platform: 'ios' },
    });
    const shotPath = join(home, 'shot.png');
    const shot = await agentDevice(['screenshot', shotPath], env);
    expect(shot.json).toEqual({ success: true, data: { path: shotPath } });
    expect((await readFile(shotPath)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect((await agentDevice(['press', '120', '240'], env)).json).toMatchObject({
      success: true,
      data: { x: 120, y: 240 },
    });
    expect((await agentDevice(['close'], env)).json).toMatchObject({ success: true });

    const refused = await agentDevice(['devices'], {
      ...env,
      AGENT_DEVICE_DAEMON_AUTH_TOKEN: 'not-the-token',
    });
    expect(refused.code).not.toBe(0);
    expect(refused.json.error).toMatchObject({ code: 'UNAUTHORIZED' });
    // The secret's exact check: right token 200, wrong token 401, on the health route too.
    const health = (token: string) =>
      fetch(`${env.AGENT_DEVICE_DAEMON_BASE_URL}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect((await health(env.AGENT_DEVICE_DAEMON_AUTH_TOKEN)).status).toBe(200);
    expect((await health(`${env.AGENT_DEVICE_DAEMON_AUTH_TOKEN}x`)).status).toBe(401);

    const preview = await page(main.outputs['web-preview-url']);
    expect(preview.status).toBe(200);
    for (const text of [id, 'ios', 'agent-device', 'in-progress']) expect(preview.html).toContain(text);

    await endJob(main, { type: 'agent-device' });
    const after = await agentDevice(['devices'], env);
    expect(after.code).not.toBe(0);
    expect(after.json.error?.message).toContain(`Device session ${id} is stopped`);
    const ended = await page(main.outputs['web-preview-url']);
    expect(ended.status).toBe(410);
    expect(ended.html).toContain('stopped');
  });

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
