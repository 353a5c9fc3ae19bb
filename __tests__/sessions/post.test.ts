/**
 * The post step (src/post.ts) with the recording IO fixture and a real simulator over loopback:
 * what it says and sends for each kind of saved state. Timing comes in through the state
 * (`poll-interval-ms`), so a stop that keeps failing gives up in about a second, not minutes.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { run } from '../../src/post.js';
import { ServiceClient } from '../../src/service/client.js';
import type { Simulator } from '../../simulator/index.js';
import { createWorld, serviceRequests } from '../../testkit/world/world.js';
import { createTestIO, type RecordingIO } from '../../testkit/world/io.js';
import { STARTUP_ENV } from '../../src/runner/startup-env.js';
import { COMMANDS, COMMAND_NAMES, postCommand } from '../../src/commands/index.js';

const FAST = { 'poll-interval-ms': '100' };

let sim: Simulator;
let token: string;
let appId: string;
let exitCode: typeof process.exitCode;
const savedEnv = { ...process.env };

beforeAll(async () => {
  // Sessions become ready only when a test says so (sim.readySession): never by the wall clock.
  const world = await createWorld({}, { readinessDelayMs: 600_000 });
  ({ sim, token } = world);
  appId = world.project.id;
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  exitCode = process.exitCode;
  process.exitCode = undefined;
});
afterEach(() => {
  process.exitCode = exitCode;
  for (const name of ['SVC_TOKEN', 'SVC_BASE_URL', 'SVC_REQUEST_TIMEOUT_MS']) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

async function createSession(): Promise<{ id: string; url: string }> {
  const client = new ServiceClient({ baseUrl: sim.url, token });
  try {
    const session = await client.createDeviceSession({ appId, platform: 'ios' });
    return { id: session.id, url: session.url ?? '' };
  } finally {
    client.dispose();
  }
}

/** The state start-device-session saves once the session exists (`saved` changes the saved session). */
function stateOf(
  session: { id: string; url: string },
  extra: Record<string, string> = {},
  saved: Record<string, string> = {},
) {
  return {
    'base-url': sim.url,
    'app-id': appId,
    'auto-stop': 'true',
    'create-in-flight': '',
    sessions: JSON.stringify([{ ...session, ...saved }]),
    ...FAST,
    ...extra,
  };
}

/**
 * Every main step saves its transport settings first (session-state.ts): here those of this process,
 * where the post step runs too. `transport: undefined` drops them.
 */
const TRANSPORT = JSON.stringify(Object.fromEntries(STARTUP_ENV.map((name) => [name, process.env[name]])));
async function post(state: Record<string, string | undefined>, inputs: Record<string, string> = { token }) {
  const saved = Object.fromEntries(
    Object.entries({ transport: TRANSPORT, ...state }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const io = createTestIO({ inputs, state: saved });
  await run(io);
  return io;
}

const count = (text: string, part: string) => text.split(part).length - 1;
const byKind = (io: RecordingIO, kind: string) => io.log.filter((line) => line.kind === kind);

describe('post step', () => {
  it('is the post step of the one command whose definition has one (`post: true`), not of a name post.ts knows', () => {
    expect(COMMAND_NAMES.filter((name) => COMMANDS[name].post)).toEqual([postCommand()]);
    expect(postCommand()).toBe('start-device-session');
  });

  it('stops the session the main step created, on the saved base URL, with the token masked', async () => {
    const session = await createSession();
    // Started before the post step, by the world's word rather than by the clock.
    sim.readySession(session.id);
    sim.clearRequests();
    const io = await post(stateOf(session));
    expect(sim.getSession(session.id)?.status).toBe('stopped');
    // Read first (so a session that already ended is said to have), then stopped.
    expect(serviceRequests(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v2/device-run-sessions/${session.id}`,
      `POST /v2/device-run-sessions/${session.id}/stop`,
    ]);
    expect(io.masks).toContain(token);
    expect(io.text().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^Device session ${session.id} is stopped at \\S+\\. ${session.url}$`),
      ),
      // The account's default duration (60 min).
      expect.stringMatching(
        new RegExp(`^Device time of session ${session.id}: \\d+s of its 60 min maximum\\.$`),
      ),
    ]);
    expect(io.summaries).toEqual([
      expect.stringMatching(/\| ⏹️ stopped \| \d+s of its 60 min maximum \| stopped it \|/),
    ]);
    expect(process.exitCode).toBeUndefined();
  });

  it('with nothing saved, says so only in the debug log and sends nothing', async () => {
    const io = await post({});
    expect(io.log).toEqual([
      { kind: 'debug', text: 'No device session was started by this step; nothing to stop.' },
    ]);
    expect(serviceRequests(sim)).toEqual([]);
    expect(process.exitCode).toBeUndefined();
  });

  it('acts on nothing when its main step saved no state: a STATE_ variable from elsewhere names no session to stop', async () => {
    const session = await createSession();
    sim.clearRequests();
    const io = await post({ ...stateOf(session), transport: undefined });
    expect(io.log).toEqual([
      { kind: 'debug', text: 'The main step saved no state for this post step; nothing to stop.' },
    ]);
    expect(serviceRequests(sim)).toEqual([]);
    expect(sim.getSession(session.id)?.status).not.toBe('stopped');
  });

  it('warns, naming the project and where to look, when a create was sent but no id came back', async () => {
    const io = await post({
      'base-url': sim.url,
      'app-id': appId,
      'create-in-flight': '2026-01-31T12:00:00.000Z',
    });
    expect(io.log).toEqual([
      {
        kind: 'warning',
        text:
          'A device session may be running: the create request sent at 2026-01-31T12:00:00.000Z got no usable answer, so its id is unknown and it could not be stopped. ' +
          `Look for it among the device sessions of project ${appId} in the dashboard and stop it there; otherwise it ends at its maximum duration.`,
      },
    ]);
    expect(serviceRequests(sim)).toEqual([]);
    // A saved project id that is not a UUID is not repeated.
    const odd = await post({ 'app-id': '../x', 'create-in-flight': 'now' });
    expect(odd.log[0].text).toContain('project (unknown)');
  });

  it('sends nothing when the session already ended during the main step', async () => {
    const session = await createSession();
    sim.clearRequests();
    const io = await post(
      stateOf(session, {}, { ended: 'stopped', deviceTime: 'not started (60 min maximum)' }),
    );
    expect(io.text()).toBe(`Device session ${session.id} already ended during the main step (stopped).`);
    // The table says how it ended and its device time, from the state: no request for them.
    expect(io.summaries).toEqual([
      expect.stringContaining(
        '| ⏹️ stopped | not started \\(60 min maximum\\) | ended during the main step |',
      ),
    ]);
    expect(serviceRequests(sim)).toEqual([]);
    expect(sim.getSession(session.id)?.status).not.toBe('stopped');
  });

  it('with auto-stop: false, reads the session, leaves it running and says so in a notice', async () => {
    const session = await createSession();
    sim.clearRequests();
    const io = await post(stateOf(session, { 'auto-stop': 'false' }));
    expect(io.log).toEqual([
      {
        kind: 'notice',
        text: `auto-stop is false: device session ${session.id} keeps running until it is stopped or reaches its limits. ${session.url}`,
      },
    ]);
    // Read only, never stopped: auto-stop: false means the user stops it.
    expect(serviceRequests(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v2/device-run-sessions/${session.id}`,
    ]);
    expect(sim.getSession(session.id)?.status).toBe('new');
    expect(io.summaries).toEqual([
      expect.stringContaining(
        '| 🕒 new | not started \\(60 min maximum\\) | left running \\(auto-stop\\: false\\) |',
      ),
    ]);
  });

  it('with auto-stop: false, a session stopped during the job is said to have ended, not to keep running', async () => {
    const session = await createSession();
    const client = new ServiceClient({ baseUrl: sim.url, token });
    await client.stopDeviceSession(session.id).finally(() => client.dispose());
    const io = await post(stateOf(session, { 'auto-stop': 'false' }));
    expect(io.text()).not.toContain('keeps running');
    expect(io.text()).toContain(
      `auto-stop is false, and device session ${session.id} had already been stopped during the job at `,
    );
    expect(io.summaries).toEqual([expect.stringContaining('| ⏹️ stopped | not started')]);
  });

  it.each([
    ['a session id that is a path', {}, { id: '../../v2/workflows/dispatch' }],
    ['a base URL that is not http(s)', { 'base-url': 'file:///etc/passwd' }, {}],
    ['a base URL with a space', { 'base-url': 'http://127.0.0.1 evil' }, {}],
    ['no base URL', { 'base-url': '' }, {}],
  ])('refuses saved state with %s: an error, exit 1, no request', async (_label, bad, badSession) => {
    const session = await createSession();
    sim.clearRequests();
    const io = await post(stateOf(session, bad, badSession));
    expect(byKind(io, 'error')).toEqual([
      {
        kind: 'error',
        text: expect.stringMatching(
          /^The saved state of this step is not usable \(session id or service address malformed\); device session .* was not stopped\. Stop it from the dashboard\.$/,
        ),
      },
    ]);
    expect(process.exitCode).toBe(1);
    expect(serviceRequests(sim)).toEqual([]);
    // Nothing was done to any session: no summary section to write.
    expect(io.summaries).toEqual([]);
  });

  it('uses the saved base URL, never SVC_BASE_URL from the environment, and the token goes nowhere else', async () => {
    const elsewhere: { path?: string; headers: IncomingHttpHeaders }[] = [];
    const other: Server = createServer((request, response) => {
      elsewhere.push({ path: request.url, headers: request.headers });
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      process.env.SVC_BASE_URL = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      process.env.SVC_TOKEN = token;
      const session = await createSession();
      const io = await post(stateOf(session), {});
      expect(sim.getSession(session.id)?.status).toBe('stopped');
      expect(elsewhere).toEqual([]);
      expect(io.masks).toContain(token);
      expect(process.exitCode).toBeUndefined();
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('a stop that cannot be confirmed: one error naming the session and its URL once each, exit 1', async () => {
    const session = await createSession();
    sim.clearRequests();
    sim.injectFault({
      method: 'POST',
      path: '/v2/device-run-sessions/',
      kind: 'status',
      status: 503,
      times: 100,
    });
    const io = await post(stateOf(session));
    // Six attempts with back-off from the saved 100 ms interval, not the default seconds: the
    // waits the step scheduled, as its retry lines give them.
    expect(serviceRequests(sim).filter((r) => r.method === 'POST')).toHaveLength(6);
    const waits = io.log.flatMap((line) => /retrying in (\d+\.\d) s/.exec(line.text)?.[1] ?? []).map(Number);
    expect(waits).toHaveLength(5);
    expect(Math.max(...waits)).toBeLessThan(5);
    const errors = byKind(io, 'error');
    expect(errors).toHaveLength(1);
    const [{ text }] = errors;
    expect(text).toMatch(
      new RegExp(
        `^Device session ${session.id} could not be confirmed stopped: .* Session page: ${session.url}$`,
      ),
    );
    expect(text).toContain('It may still be running and billing');
    expect(count(text, session.url)).toBe(1);
    expect(count(text.replace(session.url, ''), session.id)).toBe(1);
    expect(process.exitCode).toBe(1);
  });

  it('a session the service does not have: one error that says so, exit 1', async () => {
    const io = await post(stateOf({ id: '00000000-0000-4000-8000-000000000000', url: '' }));
    expect(byKind(io, 'error')).toEqual([
      {
        kind: 'error',
        text: expect.stringMatching(
          /^Device session 0{8}-0{4}-4000-8000-0{12} was not found: the service has no session with that id \(404: /,
        ),
      },
    ]);
    expect(process.exitCode).toBe(1);
  });
});
