/**
 * start-device-session, its post step and stop-device-session end to end: the committed bundle run
 * as the runner runs it (main, then post with the saved state), against the simulator, on Node 20
 * and Node 24. Every test ends by checking that no session the action created is left active.
 */
import { runAction, runPost, RUNTIME_NAMES, type ActionRun } from '../helpers/run-action.js';
import { apiRequests, createWorld, until, type World } from '../helpers/world.js';

const FAST = { 'poll-interval-seconds': '0.05' };
const SESSIONS = '/v2/device-run-sessions';

/** Every file and stream the step wrote, for secret checks. */
function everything(run: ActionRun): string {
  return [run.stdout, run.stderr, ...Object.values(run.files)].join('\n');
}

/** The secret must appear only after its ::add-mask:: line, in stdout, and nowhere in a file the runner does not mask. */
function expectMaskedFirst(run: ActionRun, secret: string): void {
  const maskAt = run.stdout.indexOf(`::add-mask::${secret}`);
  expect(maskAt).toBeGreaterThanOrEqual(0);
  expect(run.stdout.indexOf(secret)).toBe(maskAt + '::add-mask::'.length);
  expect(run.stderr).not.toContain(secret);
  expect(run.summary).not.toContain(secret);
  expect(run.files.state).not.toContain(secret);
}

describe.each(RUNTIME_NAMES)('device sessions on %s', (runtime) => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld(
      { 'e2e.yml': 'on: workflow_dispatch\njobs:\n  a:\n    type: build\n' },
      { readinessDelayMs: 150 },
    );
  });
  afterEach(async () => {
    // The promise users rely on: whatever happened, no device is left running.
    const leaked = world.sim.activeSessions();
    await world.sim.close();
    expect(leaked).toEqual([]);
  });

  const start = (inputs: Record<string, string>, env: Record<string, string> = {}) =>
    runAction({
      runtime,
      inputs: { command: 'start-device-session', ...world.api, platform: 'ios', ...FAST, ...inputs },
      env,
    });

  it('agent-device on iOS: masked outputs, exported variables, summary, post stops it', async () => {
    const main = await start({ type: 'agent-device', name: 'e2e', 'max-duration-minutes': '30' });
    expect(main.exitCode).toBe(0);
    const [session] = world.sim.sessions();
    const config = session.remoteConfig ?? world.sim.getSession(session.id)?.remoteConfig;
    expect(world.sim.getSession(session.id)?.status).toBe('in-progress');
    const token = main.outputs['agent-device-remote-session-token'];
    expect(token).toMatch(/.{16,}/);
    expect(main.outputs).toMatchObject({
      'session-id': session.id,
      'session-url': session.url,
      'job-run-id': session.jobRunId,
      status: 'in-progress',
      'agent-device-remote-session-url': expect.stringMatching(/^https?:\/\//),
      'web-preview-url': expect.stringMatching(/^https?:\/\//),
      'tools-url': '',
      'appium-url': '',
      'preview-url': '',
      capabilities: '',
    });
    expect(JSON.parse(main.outputs['remote-config'])).toMatchObject({ agentDeviceRemoteSessionToken: token });
    expect(main.env).toEqual({
      SVC_DEVICE_SESSION_ID: session.id,
      AGENT_DEVICE_DAEMON_BASE_URL: main.outputs['agent-device-remote-session-url'],
      AGENT_DEVICE_DAEMON_AUTH_TOKEN: token,
    });
    expect(main.state).toMatchObject({
      'session-id': session.id,
      'session-url': session.url,
      'auto-stop': 'true',
    });
    expectMaskedFirst(main, token);
    expectMaskedFirst(main, world.token);
    expect(main.summary).toContain('The post step stops this session when the job ends.');
    expect(config).toBeDefined();
    const body = world.sim.requests[0].body as Record<string, unknown>;
    expect(body).toEqual({
      appId: world.project.id,
      platform: 'ios',
      type: 'agent-device',
      name: 'e2e',
      maxDurationMinutes: 30,
    });

    const post = await runPost(main, { runtime, inputs: { ...world.api } });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain(`Device session ${session.id} is stopped at `);
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    const requests = apiRequests(world.sim);
    expect(requests[0]).toBe(`POST ${SESSIONS}`);
    expect(requests.at(-1)).toBe(`POST ${SESSIONS}/${session.id}/stop`);
    expect(requests.slice(1, -1).every((line) => line === `GET ${SESSIONS}/${session.id}`)).toBe(true);
  });

  it.each([
    [
      'agent-device',
      'android',
      ['AGENT_DEVICE_DAEMON_BASE_URL', 'AGENT_DEVICE_DAEMON_AUTH_TOKEN'],
      ['agent-device-remote-session-token'],
    ],
    ['argent', 'ios', ['ARGENT_TOOLS_URL', 'ARGENT_AUTH_TOKEN'], ['tools-auth-token']],
    ['appium', 'android', ['APPIUM_URL', 'APPIUM_CAPS'], []],
    ['appium', 'ios', ['APPIUM_URL', 'APPIUM_CAPS'], []],
    ['serve-sim', 'ios', [], []],
  ])('%s on %s exports the variables its controller reads', async (type, platform, variables, secrets) => {
    const main = await start({ type, platform });
    expect(main.exitCode).toBe(0);
    expect(Object.keys(main.env).sort()).toEqual(['SVC_DEVICE_SESSION_ID', ...variables].sort());
    for (const output of secrets) expectMaskedFirst(main, main.outputs[output]);
    // Only iOS sessions carry a browser preview.
    if (platform === 'android') expect(main.outputs['web-preview-url']).toBe('');
    if (type === 'serve-sim') expect(main.outputs['preview-url']).toMatch(/^https?:\/\//);
    if (type === 'appium') {
      expect(JSON.parse(main.env.APPIUM_CAPS)).toMatchObject({
        platformName: expect.stringMatching(new RegExp(platform, 'i')),
      });
      expect(main.outputs.capabilities).toBe(main.env.APPIUM_CAPS);
    }
    expect((await runPost(main, { runtime, inputs: world.api })).exitCode).toBe(0);
  });

  it('argent without a token exports no ARGENT_AUTH_TOKEN', async () => {
    world.sim.setSessionBehaviour({ omitArgentToken: true });
    const main = await start({ type: 'argent' });
    expect(main.exitCode).toBe(0);
    expect(main.env.ARGENT_TOOLS_URL).toMatch(/^https?:\/\//);
    expect(main.env).not.toHaveProperty('ARGENT_AUTH_TOKEN');
    expect(main.outputs['tools-auth-token']).toBe('');
    await runPost(main, { runtime, inputs: world.api });
  });

  it('keeps waiting through an unknown status and a lagging remoteConfig; masks unknown token fields', async () => {
    world.sim.setSessionBehaviour({
      extraStatusBeforeReady: 'queued',
      remoteConfigLagMs: 200,
      extraRemoteConfigFields: {
        previewApiUrl: 'https://preview.example/api',
        webPreviewToken: 'wpt_0123456789abcdef',
      },
    });
    const main = await start({});
    expect(main.exitCode).toBe(0);
    expect(
      main.stdout.match(
        /Session status `queued` is not known to this version of the action; treating it as not ready yet/g,
      ),
    ).toHaveLength(1);
    expect(main.stdout).toContain('session: in-progress (waiting for connection details)');
    expectMaskedFirst(main, 'wpt_0123456789abcdef');
    expect(JSON.parse(main.outputs['remote-config'])).toMatchObject({
      previewApiUrl: 'https://preview.example/api',
    });
    await runPost(main, { runtime, inputs: world.api });
  });

  it('fails with the session URL when the session errors before it is ready; post has nothing to stop', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 5000, errorAfterMs: 100 });
    const main = await start({});
    const [session] = world.sim.sessions();
    expect(main.exitCode).toBe(1);
    expect(main.outputs.status).toBe('errored');
    expect(main.stdout).toContain(
      `::error::The device session became errored before it was ready. ${session.url}`,
    );
    const post = await runPost(main, { runtime, inputs: world.api });
    expect(post.exitCode).toBe(0);
    expect(apiRequests(world.sim).filter((line) => line.endsWith('/stop'))).toEqual([]);
  });

  it('stops the session and fails when it is not ready within timeout-minutes', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
    const main = await start({ 'timeout-minutes': '0.005' });
    const [session] = world.sim.sessions();
    expect(main.exitCode).toBe(1);
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    expect(main.stdout).toContain(
      '::error::The device session was not ready within timeout-minutes (0.005); last status: new. The session was stopped.',
    );
    expect(main.outputs.status).toBe('stopped');
    const post = await runPost(main, { runtime, inputs: world.api });
    expect(post.stdout).toContain('already ended during the main step');
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s while waiting, stops the session and exits non-zero',
    async (signal) => {
      world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
      let signalledAt = 0;
      const main = await runAction({
        runtime,
        inputs: {
          command: 'start-device-session',
          ...world.api,
          platform: 'ios',
          'poll-interval-seconds': '5',
        },
        onSpawn: (child) => {
          // Signal once the step is waiting (its first progress line), not while the create is in flight.
          child.stdout?.on('data', (chunk: Buffer) => {
            if (!signalledAt && chunk.toString().includes('session: new')) {
              signalledAt = Date.now();
              child.kill(signal);
            }
          });
        },
      });
      const [session] = world.sim.sessions();
      expect(main.exitCode).not.toBe(0);
      expect(world.sim.getSession(session.id)?.status).toBe('stopped');
      const stop = world.sim.requests.find((request) => request.path.endsWith('/stop'));
      expect(Date.parse(stop!.receivedAt) - signalledAt).toBeLessThan(2000);
      expect(main.stdout).toContain(`Received ${signal}: cancelling.`);
      expect(main.stdout).toContain(
        '::error::The step was cancelled while waiting for the device session; the session was stopped.',
      );
    },
  );

  it('on a signal while the create request is in flight, stops the session once its id arrives', async () => {
    world.sim.injectFault({
      method: 'POST',
      path: SESSIONS,
      kind: 'delay',
      ms: 400,
      processed: true,
      times: 1,
    });
    const main = await runAction({
      runtime,
      inputs: { command: 'start-device-session', ...world.api, platform: 'ios' },
      onSpawn: (child) => {
        void until(() => world.sim.sessions().length > 0).then(() => child.kill('SIGTERM'));
      },
    });
    const [session] = world.sim.sessions();
    expect(main.exitCode).toBe(1);
    expect(main.state['session-id']).toBe(session.id);
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    expect(main.stdout).toContain(
      `::error::The step was cancelled; the device session was stopped. ${session.url}`,
    );
  });

  it('post stops the session after a later step failed, and succeeds when it was already stopped', async () => {
    const first = await start({});
    const second = await start({ name: 'second' });
    const [a, b] = world.sim.sessions();
    // Two sessions in one job: each step's post stops its own.
    expect(first.state['session-id']).toBe(a.id);
    expect(second.state['session-id']).toBe(b.id);
    const stopCommand = await runAction({
      runtime,
      inputs: { command: 'stop-device-session', ...world.api, 'session-id': b.id },
    });
    expect(stopCommand.exitCode).toBe(0);
    expect(stopCommand.outputs).toEqual({ status: 'stopped' });
    const postA = await runPost(first, { runtime, inputs: world.api });
    const postB = await runPost(second, { runtime, inputs: world.api });
    expect([postA.exitCode, postB.exitCode]).toEqual([0, 0]);
    expect(world.sim.sessions().map((session) => session.status)).toEqual(['stopped', 'stopped']);
    expect(postB.stdout).toContain(`Device session ${b.id} is stopped`);
  });

  it('post with no state does nothing', async () => {
    const post = await runAction({ runtime, entry: 'post', inputs: world.api });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain('No device session was started by this step; nothing to stop.');
    expect(apiRequests(world.sim)).toEqual([]);
  });

  it('post fails loudly, naming the session and its URL, when the stop cannot be confirmed', async () => {
    const main = await start({});
    const [session] = world.sim.sessions();
    world.sim.injectFault({ method: 'POST', path: /\/stop$/, kind: 'status', status: 503, times: 100 });
    const post = await runPost(main, { runtime, inputs: world.api });
    expect(post.exitCode).toBe(1);
    expect(post.stdout).toMatch(
      new RegExp(
        `::error::Device session ${session.id} \\(${session.url}\\) could not be confirmed stopped: .*503`,
      ),
    );
    expect(post.stdout).toContain(`session-id: ${session.id}`);
    world.sim.clearFaults();
    expect((await runPost(main, { runtime, inputs: world.api })).exitCode).toBe(0);
  });

  it('with auto-stop: false the post step leaves the session and says so', async () => {
    const main = await start({ 'auto-stop': 'false' });
    const [session] = world.sim.sessions();
    const post = await runPost(main, { runtime, inputs: world.api });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain(`::notice::auto-stop is false: device session ${session.id} keeps running`);
    expect(world.sim.getSession(session.id)?.status).toBe('in-progress');
    await runAction({
      runtime,
      inputs: { command: 'stop-device-session', ...world.api, 'session-id': session.id },
    });
  });

  it('with wait: false returns at once with status new; post stops it', async () => {
    const main = await start({ wait: 'false', 'export-env': 'false' });
    expect(main.exitCode).toBe(0);
    expect(main.outputs.status).toBe('new');
    expect(main.env).toEqual({});
    expect(apiRequests(world.sim)).toEqual([`POST ${SESSIONS}`]);
    const post = await runPost(main, { runtime, inputs: world.api });
    expect({ exitCode: post.exitCode, stdout: post.stdout }).toMatchObject({
      exitCode: 0,
      stdout: expect.stringContaining('is stopped'),
    });
  });

  it('reports a viewer token as 403 and creates nothing', async () => {
    const viewer = world.sim.addToken({ account: world.account, role: 'viewer' });
    const main = await start({ token: viewer });
    expect(main.exitCode).toBe(1);
    expect(main.stdout).toContain('Permission denied (403 Forbidden)');
    expect(world.sim.sessions()).toEqual([]);
    expect(everything(main).split(`::add-mask::${viewer}`).slice(1).join('')).not.toContain(viewer);
  });

  it('reports the feature not enabled as 400', async () => {
    const account = world.sim.addAccount({ name: 'no-devices', deviceSessions: false });
    const project = world.sim.addProject({ account, repoPath: world.repo.path });
    const token = world.sim.addToken({ account, role: 'owner' });
    const main = await start({ token, 'app-id': project.id });
    expect(main.exitCode).toBe(1);
    expect(main.stdout).toContain('The service rejected the request (400 Bad Request)');
  });

  it('does not create a second session when the create answer is lost', async () => {
    world.sim.injectFault({ method: 'POST', path: SESSIONS, kind: 'reset', processed: true, times: 1 });
    const main = await start({ 'max-duration-minutes': '5' });
    expect(main.exitCode).toBe(1);
    expect(main.stdout).toContain('it was not repeated, so that nothing is created twice');
    expect(apiRequests(world.sim)).toEqual([`POST ${SESSIONS}`]);
    // The service created one the action cannot know about: the only case a session can outlive the step
    // (until its max duration). Clean it up so the leak check below tests the action, not the fault.
    for (const session of world.sim.activeSessions()) world.sim.failSession(session.id);
  });
});

describe.each(RUNTIME_NAMES)('start-device-session input validation on %s', (runtime) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': 'on: workflow_dispatch\njobs: {}\n' });
  });
  afterAll(() => world.sim.close());

  it.each([
    [{ platform: 'windows' }, '`platform` is `windows`; allowed: android, ios'],
    [{ name: ' ' }, '`name` must not be blank'],
    [{ type: 'selenium' }, '`type` is `selenium`'],
    [{ 'max-duration-minutes': '116' }, '`max-duration-minutes` must be a whole number from 0 to 115'],
    [
      { 'max-idle-time-minutes': '20', 'max-duration-minutes': '10' },
      'must be smaller than `max-duration-minutes`',
    ],
    [{ type: 'serve-sim', 'max-idle-time-minutes': '5' }, 'not supported for `type: serve-sim`'],
    [{ type: 'serve-sim', platform: 'android' }, '`type: serve-sim` is iOS only'],
    [
      { 'build-id': '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', 'svc-go': 'true' },
      'only one application source is allowed',
    ],
    [
      { 'application-archive-url': 'file:///app.apk' },
      '`application-archive-url` must be an http or https URL',
    ],
    [{ 'sdk-version': '54' }, '`sdk-version` is valid only with `svc-go: true`'],
    [{ 'launch-args': '-x' }, '`launch-args` requires an application source'],
    [{ 'open-url': 'app://x' }, '`open-url` requires an application source'],
    [{ 'app-id': 'abc' }, '`app-id` must be a UUID'],
  ])('%j fails before any request', async (inputs, message) => {
    world.sim.clearRequests();
    const run = await runAction({
      runtime,
      inputs: { command: 'start-device-session', ...world.api, platform: 'ios', ...inputs },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(message);
    expect(run.stdout.match(/::error::/g)).toHaveLength(1);
    expect(apiRequests(world.sim)).toEqual([]);
    expect(run.state).toEqual({});
  });
});
