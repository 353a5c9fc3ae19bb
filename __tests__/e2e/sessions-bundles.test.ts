/**
 * The device sessions through the built bundles, as the runner runs them (a Node 24 process per step,
 * main then post with the saved state), against the simulator: what needs a process of the step's
 * own, and one case for each file whose other cases run in process from the sources
 * (__tests__/sessions/*.test.ts, the unit tier):
 * - device-session.test.ts: start-device-session on iOS as the sub-action and as the root action,
 *   then its post step (the point of that file): the post step's own process, started after the main
 *   one ended with nothing of it but the saved state (STATE_*) and the step's inputs, stops the
 *   session on the service the state names; and the signals while the step waits or creates;
 * - post-step.test.ts: a signal while the post step stops the session (the point of that file:
 *   the runner's signal and the post step's grace need a process), and a read before the stop that
 *   gets no answer (5 s of real time by a constant of src/, too long for the unit tier);
 * - session-state.test.ts: state that always lets the post step start (the runner hands state to the
 *   post step's process as environment variables, and Linux refuses one over 128 KiB);
 * - wait-for-device-session.test.ts: the early-start pattern (its point), and SIGINT while waiting;
 * - stop-device-session.test.ts: a running session stopped, and its job summary;
 * - controllers.test.ts: agent-device's CLI driven by what the bundle exported.
 * The post step's fresh Node process (a start-up setting changed after the main step) is in
 * security/post-startup-env.test.ts; the required `session-id`, in session-id-bundles.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatElapsed } from '../../src/text/time.js';
import {
  BUNDLES,
  renderLog,
  ROOT,
  RUNTIMES,
  runPost,
  runStepPost,
  type ActionRun,
} from '../../testkit/runner/step.js';
import {
  apiRequests,
  createWorld,
  mutateSessionReads,
  until,
  type World,
} from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';
import { lastSavedSession, savedSessions } from '../../testkit/world/session-state.js';
import {
  doorInputs,
  doorStarter,
  earlyStarter,
  expectMaskedFirst,
  htmlPage as page,
  jobEnder,
  laterWaiter,
  PNG_SIGNATURE,
  readyStarter,
  serviceSession,
  SESSIONS,
  sessionStarter,
  sessionStopper,
  START_DOORS as ACTIONS,
  STOP_LEFT,
  STOP_LEFT_CHECKED,
  stopSummaryRow as row,
} from '../../testkit/world/session-fixtures.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';

describe('device-session.test.ts: start-device-session, its post step, signals', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD }, { readinessDelayMs: 120 });
  });
  // After each test: whatever happened, no device is left running.
  sharedWorldHooks(() => world);

  /** What a workflow writes in `with:` for the given door. */
  const withInputs = doorInputs(() => world);

  const start = doorStarter(BUNDLES, () => world);

  it.each(ACTIONS)(
    '%s: agent-device on iOS: masked outputs, exported variables, state, summary; post stops it',
    async (action) => {
      const main = await start(action, { type: 'agent-device', name: 'e2e', 'max-duration-minutes': '30' });
      expect(main.stderr).toBe('');
      expect(main.exitCode).toBe(0);
      expect(main.annotations.filter(({ kind }) => kind === 'warning')).toEqual([]);
      const [session] = world.sim.sessions();
      expect(session.status).toBe('in-progress');
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
        'tools-auth-token': '',
        'appium-url': '',
        'preview-url': '',
        capabilities: '',
      });
      expect(JSON.parse(main.outputs['remote-config'])).toEqual(session.remoteConfig);
      expect(main.env).toEqual({
        SVC_DEVICE_SESSION_ID: session.id,
        AGENT_DEVICE_DAEMON_BASE_URL: main.outputs['agent-device-remote-session-url'],
        AGENT_DEVICE_DAEMON_AUTH_TOKEN: token,
      });
      // What the post step needs, saved as state (one list of sessions); the marker of a create in
      // flight came first, and was cleared once the answer named the session.
      expect(main.state).toEqual({
        'create-in-flight': '',
        'base-url': world.sim.url,
        'app-id': world.project.id,
        'auto-stop': 'true',
        'poll-interval-ms': '50',
        sessions: JSON.stringify([{ id: session.id, url: session.url }]),
        transport: '{}',
      });
      const markerAt = main.files.state.search(/create-in-flight<<\S+\r?\n\d{4}-\d\d-\d\dT/);
      expect(markerAt).toBeGreaterThan(-1);
      expect(markerAt).toBeLessThan(main.files.state.indexOf(session.id));
      expectMaskedFirst(main, token);
      expectMaskedFirst(main, world.token);
      expect(main.summary).toContain('ready');
      expect(main.summary).toContain('The post step stops this session when the job ends.');
      expect(main.summary).toContain('| Device time |');
      expect(main.summary).toMatch(/\| \d+s of its 30 min maximum \|/);
      expect(world.sim.requests[0].body).toEqual({
        appId: world.project.id,
        platform: 'ios',
        type: 'agent-device',
        name: 'e2e',
        maxDurationMinutes: 30,
      });

      // The post step uses the base URL from state, whatever the environment says by then.
      const ending = await runStepPost(action, main, {
        inputs: withInputs(action, { 'base-url': 'http://127.0.0.1:9' }),
        env: { SVC_BASE_URL: 'http://127.0.0.1:9' },
      });
      expect(ending.exitCode).toBe(0);
      expect(ending.stdout).toContain(`Device session ${session.id} is stopped at `);
      // How long the paid device ran, against its maximum, in the log and the post step's summary.
      expect(ending.stdout).toMatch(
        new RegExp(`Device time of session ${session.id}: \\d+s of its 30 min maximum\\.`),
      );
      expect(ending.summary).toContain('### Device sessions at the end of the job');
      expect(ending.summary).toMatch(
        new RegExp(
          `\\| \\[${session.id}\\]\\(<[^>]+>\\) \\| ⏹️ stopped \\| \\d+s of its 30 min maximum \\| stopped it \\|`,
        ),
      );
      expect(world.sim.getSession(session.id)?.status).toBe('stopped');
      const requests = apiRequests(world.sim);
      expect(requests[0]).toBe(`POST ${SESSIONS}`);
      expect(requests.at(-1)).toBe(`POST ${SESSIONS}/${session.id}/stop`);
      expect(requests.slice(1, -1).every((line) => line === `GET ${SESSIONS}/${session.id}`)).toBe(true);
    },
  );

  it('on SIGINT or SIGTERM while waiting, stops the session at once and exits non-zero', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const signalled: Record<string, boolean> = {};
    const mains = await Promise.all(
      signals.map((signal, index) =>
        start(
          index ? 'root' : 'start-device-session',
          // A wait far beyond the test's limit: only a stop made at the signal lets the test pass.
          { name: signal, 'poll-interval-seconds': '3600' },
          {
            onSpawn: (child) => {
              // Signal once the step is waiting (its first progress line), not while the create is in flight.
              child.stdout?.on('data', (chunk: Buffer) => {
                if (!signalled[signal] && chunk.toString().includes('session: new')) {
                  signalled[signal] = true;
                  child.kill(signal);
                }
              });
            },
          },
        ),
      ),
    );
    signals.forEach((signal, index) => {
      const main = mains[index];
      const id = main.outputs['session-id'];
      expect(main.exitCode).not.toBe(0);
      expect(world.sim.getSession(id)?.status).toBe('stopped');
      // The stop came at the signal, before the first read (an interval of an hour away).
      const requests = world.sim.requests.filter((request) => request.path.startsWith(`${SESSIONS}/${id}`));
      expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        `POST ${SESSIONS}/${id}/stop`,
      ]);
      expect(main.stdout).toContain(`Received ${signal}: cancelling.`);
      expect(main.errors).toContain(
        `The step was cancelled while waiting for the device session. The session was stopped. ${world.sim.getSession(id)?.url}`,
      );
    });
  });

  it('on a signal while the create request is in flight, stops the session once its id arrives', async () => {
    world.sim.injectFault({
      method: 'POST',
      path: SESSIONS,
      kind: 'delay',
      ms: 400,
      processed: true,
      times: 1,
    });
    const main = await start(
      'start-device-session',
      {},
      {
        onSpawn: (child) => {
          void until(() => world.sim.sessions().length > 0).then(() => child.kill('SIGTERM'));
        },
      },
    );
    const [session] = world.sim.sessions();
    expect(main.exitCode).toBe(1);
    expect(savedSessions(main).map((saved) => saved.id)).toEqual([session.id]);
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    expect(main.errors).toContain(`The step was cancelled. The session was stopped. ${session.url}`);
  });
});

describe('post-step.test.ts: a signal while the post step stops the session; a read that gets no answer', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({}, { readinessDelayMs: 50 });
  });
  // Whatever a test left running (on purpose) is stopped here, then checked.
  sharedWorldHooks(() => world, STOP_LEFT_CHECKED);

  // The post step's grace after a signal is the main step's (a later step cannot change it).
  const start = sessionStarter(BUNDLES, () => world);

  test.each(['SIGINT', 'SIGTERM'] as const)(
    'a %s while the post step stops the session: the stop is still tried, then an error names the session and its URL',
    async (signal) => {
      const main = await start({}, { SVC_CANCEL_GRACE_MS: '800' });
      expect(main.exitCode).toBe(0);
      const id = main.outputs['session-id'];
      const url = main.outputs['session-url'];
      // Every stop answer is held back far longer than the grace the post step has.
      world.sim.injectFault({
        method: 'POST',
        path: /\/stop$/,
        kind: 'delay',
        ms: 20_000,
        processed: false,
        times: 20,
      });
      const post = runPost(main, {
        inputs: world.api,
        onSpawn: (child) => {
          void until(() => world.sim.requests.some((request) => request.path.endsWith('/stop'))).then(() =>
            child.kill(signal),
          );
        },
      });
      const result = await post;
      const log = renderLog(result.stdout);
      expect(result.exitCode).toBe(1);
      // The grace ended the stop it was waiting for: one stop was sent, and not repeated (each held
      // 20 s: a step that outlived its grace would repeat it, or outlast the test's limit).
      expect(world.sim.requests.filter((request) => request.path.endsWith('/stop'))).toHaveLength(1);
      const errors = result.errors;
      expect(errors).toHaveLength(1);
      // The session once, its page once: each fact once.
      expect(errors[0]).toContain(url);
      expect(errors[0].replace(url, '<url>').split(id)).toHaveLength(2);
      expect(errors[0]).toContain('could not be confirmed stopped');
      expect(log).toContain(`Received ${signal}: still stopping device session ${id}`);
    },
  );

  test('a signal during a stop that does get confirmed: the session is stopped, and the cancelled post step exits 1', async () => {
    const main = await start({}, { SVC_CANCEL_GRACE_MS: '5000' });
    world.sim.injectFault({ method: 'POST', path: /\/stop$/, kind: 'delay', ms: 300, processed: true });
    const result = await runPost(main, {
      inputs: world.api,
      onSpawn: (child) => {
        void until(() => world.sim.requests.some((request) => request.path.endsWith('/stop'))).then(() =>
          child.kill('SIGINT'),
        );
      },
    });
    expect(result.exitCode).toBe(1);
    expect(renderLog(result.stdout)).toContain('is stopped');
    expect(world.sim.getSession(main.outputs['session-id'] ?? lastSavedSession(main)?.id ?? '')?.status).toBe(
      'stopped',
    );
  });

  // Not a process's matter, but 5 s of real time (the post step's read before the stop is given up
  // after READ_BEFORE_STOP_MS, a constant of src/sessions/post-step.ts): too long for the unit tier.
  test('the read before the stop never holds the stop up: a read that gets no answer is given up, and the session stopped', async () => {
    const main = await start();
    expect(main.exitCode).toBe(0);
    const id = main.outputs['session-id'];
    // The read is answered only after far longer than the step is given here (and than a request's timeout).
    world.sim.injectFault({
      method: 'GET',
      path: `/v2/device-run-sessions/${id}`,
      kind: 'delay',
      ms: 120_000,
      processed: false,
    });
    // The harness's limit: ten times the 5 s the read is given, and well under the read's 120 s.
    const post = await runPost(main, { inputs: world.api, timeoutMs: 60_000 });
    expect(post.signal).toBeNull();
    expect(post.exitCode).toBe(0);
    expect(world.sim.getSession(id)?.status).toBe('stopped');
    expect(renderLog(post.stdout)).toContain(`Device session ${id} is stopped at `);
  }, 90_000);
});

describe('session-state.test.ts: state that always lets the post step start', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({}, { readinessDelayMs: 50 });
  });
  sharedWorldHooks(() => world, STOP_LEFT);

  const start = sessionStarter(BUNDLES, () => world);

  /** Every create answer names the session with a page URL of `length` characters. */
  function longUrls(length: number, times: number): void {
    world.sim.injectFault({
      method: 'POST',
      path: /^\/v2\/device-run-sessions$/,
      kind: 'mutate',
      times,
      mutate: (json) => {
        const answer = json as { data: { url: string } };
        answer.data.url = `https://svc.example/device-sessions/${'x'.repeat(length)}`.slice(0, length);
        return answer;
      },
    });
  }

  /** The bytes the post step's environment gets from the main step's state (`STATE_<name>=<value>`). */
  const stateBytes = (run: ActionRun): number[] =>
    Object.entries(run.state).map(([name, value]) => Buffer.byteLength(`STATE_${name}=${value}`));

  it('five attempts whose sessions have 30,000-character urls: the post step starts and stops the last', async () => {
    longUrls(30_000, 5);
    // The first four sessions read as errored (another attempt follows); the fifth becomes ready.
    mutateSessionReads(world, (session) => {
      if (world.sim.sessions().length < 5) Object.assign(session, { status: 'errored', remoteConfig: null });
    });
    const main = await start({ 'start-attempts': '5' });
    expect(main.exitCode).toBe(0);
    world.sim.clearFaults();
    // Before the fix the runner could not start it at all (E2BIG): the state held every url.
    const post = await runPost(main, { inputs: world.api });
    expect(post.exitCode).toBe(0);
    const sessions = world.sim.sessions();
    expect(sessions).toHaveLength(5);
    // The id is all a stop needs: a url that long is not kept.
    expect(savedSessions(main).map((saved) => [saved.id, saved.url])).toEqual(
      sessions.map((s) => [s.id, '']),
    );
    // The whole state, not only each variable, is well under Linux's 128 KiB per string.
    expect(stateBytes(main).reduce((sum, bytes) => sum + bytes, 0)).toBeLessThan(16 * 1024);
    for (const session of sessions) expect(world.sim.getSession(session.id)?.status).toBe('stopped');
    expect(renderLog(post.stdout)).toContain(`Device session ${sessions[4].id} is stopped at `);
  });

  it('one session whose url is 140,000 characters: the post step starts and stops it', async () => {
    longUrls(140_000, 1);
    const main = await start();
    expect(main.exitCode).toBe(0);
    const [session] = world.sim.sessions();
    const post = await runPost(main, { inputs: world.api });
    expect(post.exitCode).toBe(0);
    expect(Math.max(...stateBytes(main))).toBeLessThan(8 * 1024);
    expect(world.sim.getSession(session.id)?.status).toBe('stopped');
  });
});

describe('wait-for-device-session.test.ts: the early-start pattern, and a signal while waiting', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD }, { readinessDelayMs: 100 });
  });
  // After each test: whatever happened, no device is left running.
  sharedWorldHooks(() => world);

  /** The first step: create the device and go on at once. */
  const startEarly = earlyStarter(BUNDLES, () => world);

  /** The later step, with the job's environment (see laterWaiter). */
  const waitLater = laterWaiter(BUNDLES, () => world);

  it('the early-start pattern: outputs and environment as start-device-session gives them; post of the start stops it', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
    const start = await startEarly({ type: 'appium' });
    expect(start.exitCode).toBe(0);
    expect(start.outputs.status).toBe('new');
    const id = start.outputs['session-id'];
    expect(start.env).toEqual({ SVC_DEVICE_SESSION_ID: id });
    // The notice says how to wait: with the step's output, never with the rewritable variable.
    expect(renderLog(start.stdout)).toContain(
      `Not waiting for the session (wait: false). Wait for session ${id} later with wait-for-device-session and \`session-id: \${{ steps.<id>.outputs.session-id }}\`, <id> being this step's id.`,
    );
    expect(start.stdout).not.toMatch(/SVC_DEVICE_SESSION_ID/);
    // "Build the app" meanwhile: provisioning goes on without anyone waiting.
    expect(world.sim.getSession(id)?.status).toBe('new');

    // Provisioning ends while the later step waits (after it has seen the session still new).
    const wait = await waitLater(
      start,
      {},
      {
        onSpawn: (child) =>
          child.stdout?.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('session: new')) world.sim.readySession(id);
          }),
      },
    );
    expect(wait.stdout).toMatch(/session: new[\s\S]*session: in-progress/);
    expect(wait.stderr).toBe('');
    expect(wait.exitCode).toBe(0);
    const session = world.sim.getSession(id)!;
    expect(session.status).toBe('in-progress');
    expect(wait.outputs).toMatchObject({
      'session-id': id,
      'session-url': session.url,
      'job-run-id': session.jobRunId,
      status: 'in-progress',
      'appium-url': expect.stringMatching(/^https?:\/\//),
      capabilities: JSON.stringify(session.remoteConfig?.capabilities),
      'agent-device-remote-session-url': '',
      'agent-device-remote-session-token': '',
    });
    expect(JSON.parse(wait.outputs['remote-config'])).toEqual(session.remoteConfig);
    expect(wait.env).toEqual({
      SVC_DEVICE_SESSION_ID: id,
      APPIUM_URL: wait.outputs['appium-url'],
      APPIUM_CAPS: wait.outputs.capabilities,
    });
    expect(wait.stdout).toContain(`Waiting for device session ${id} at 127.0.0.1`);
    expect(wait.summary).toContain('ready');
    expect(wait.summary).toContain('This step does not stop the session when the job ends.');
    expect(wait.state).toEqual({});
    // Reads only: it neither creates nor stops.
    expect(
      apiRequests(world.sim)
        .slice(1)
        .every((line) => line === `GET ${SESSIONS}/${id}`),
    ).toBe(true);

    const ending = await runStepPost('start-device-session', start, {
      inputs: { ...world.api, platform: 'ios' },
    });
    expect(ending.exitCode).toBe(0);
    expect(world.sim.getSession(id)?.status).toBe('stopped');
  });

  it('on SIGINT while waiting, stops the session and exits non-zero', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
    const start = await startEarly();
    const id = start.outputs['session-id'];
    let signalled = false;
    const wait = await waitLater(
      start,
      // A wait far beyond the test's limit: only a stop made at the signal lets the test pass.
      { 'poll-interval-seconds': '3600' },
      {
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (!signalled && chunk.toString().includes('session: new')) {
              signalled = true;
              child.kill('SIGINT');
            }
          });
        },
      },
    );
    expect(signalled).toBe(true);
    expect(wait.exitCode).toBe(1);
    expect(world.sim.getSession(id)?.status).toBe('stopped');
    // After the signal: the stop, and no further read of the session.
    const requests = world.sim.requests.filter((request) => request.path.startsWith(`${SESSIONS}/${id}`));
    expect(requests.map((request) => `${request.method} ${request.path}`).slice(-2)).toEqual([
      `GET ${SESSIONS}/${id}`,
      `POST ${SESSIONS}/${id}/stop`,
    ]);
    expect(wait.stdout).toContain('Received SIGINT: cancelling.');
    expect(wait.errors).toContainEqual(
      expect.stringMatching(
        /^The step was cancelled while waiting for the device session\. The session was stopped\./,
      ),
    );
  });
});

describe('stop-device-session.test.ts: a running session stopped, and its job summary', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({}, { readinessDelayMs: 60_000 });
  });
  sharedWorldHooks(() => world);

  /** A session created on the service (by another job, say), made ready unless `ready` is false. */
  const session = (name: string, ready = true) => serviceSession(world, name, ready);

  const stop = sessionStopper(BUNDLES, () => world);

  it('a running session: its name as text, its page linked, when it finished and how long it ran', async () => {
    const { id, url } = await session('Nightly @octocat <b>e2e</b>');
    const result = await stop(id);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({ status: 'stopped' });
    const stopped = world.sim.getSession(id)!;
    expect(result.summary).toContain(
      '### Device session `Nightly @octocat <b>e2e</b>` (ios agent-device): ⏹️ stopped\n',
    );
    expect(result.summary).toContain('| Session | Status | Finished | Ran for |');
    const finished = new Date(stopped.finishedAt!).toISOString().slice(0, 19).replace('T', ' ');
    const ran = Date.parse(stopped.finishedAt!) - Date.parse(stopped.startedAt!);
    expect(row(result.summary)).toEqual([
      `[${id}](<${url}>)`,
      'stopped',
      `${finished} UTC`,
      formatElapsed(ran),
    ]);
  });
});

describe('controllers.test.ts: agent-device driven by the variables the bundle exported', () => {
  const AGENT_DEVICE_CLI = join(ROOT, 'node_modules', 'agent-device', 'bin', 'agent-device.mjs');

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
  afterAll(() => rm(home, { recursive: true, force: true }));
  sharedWorldHooks(() => world);

  const start = readyStarter(BUNDLES, () => world);

  /** The end of the job: the post step of that step stops the session. */
  const endJob = jobEnder(BUNDLES, () => world);

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
});
