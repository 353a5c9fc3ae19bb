/**
 * What start-device-session saves for its post step (src/commands/start-device-session.ts), with
 * the recording IO and the simulator: the state is written before the create is sent, so a create
 * whose answer never comes still leaves the post step something to say; a create refused for
 * certain leaves no such warning behind.
 */
import { COMMANDS } from '../../src/commands/index.js';
import type { Invocation } from '../../src/commands/command.js';
import { ServiceClient } from '../../src/service/client.js';
import type { Simulator } from '../../simulator/index.js';
import { createWorld } from '../../testkit/world/world.js';
import { createTestIO, type RecordingIO } from '../../testkit/world/io.js';
import { inputSource } from '../../testkit/world/sources.js';

let sim: Simulator;
let appId: string;
let token: string;
let client: ServiceClient;

beforeAll(async () => {
  const world = await createWorld({}, { readinessDelayMs: 10 });
  ({ sim, token } = world);
  appId = world.project.id;
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());
afterEach(() => client?.dispose());

/** The command read from these inputs (through the registry), with a client for the simulator. */
function invocation(inputs: Record<string, string> = {}, as = token): Invocation {
  client = new ServiceClient({
    baseUrl: sim.url,
    token: as,
    retry: { maxAttempts: 6, baseDelayMs: 5, maxDelayMs: 10 },
  });
  const source = inputSource({
    token: as,
    'base-url': sim.url,
    'app-id': appId,
    platform: 'ios',
    'poll-interval-seconds': '0.05',
    ...inputs,
  });
  return COMMANDS['start-device-session'].read(source);
}

async function start(io: RecordingIO, command: Invocation): Promise<Error | undefined> {
  return command.run({ io, signal: new AbortController().signal, client: () => client }).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
}

describe('start-device-session state', () => {
  it('saves what the post step needs before the create, then the session; wait: false returns at once', async () => {
    const io = createTestIO();
    const command = invocation({ wait: 'false', 'auto-stop': 'false' });
    // What was saved at the moment the create request left.
    let savedBeforeCreate: Record<string, string> = {};
    const create = client.createDeviceSession.bind(client);
    client.createDeviceSession = (...args) => ((savedBeforeCreate = { ...io.saved }), create(...args));
    expect(await start(io, command)).toBeUndefined();
    expect(savedBeforeCreate).toEqual({
      'base-url': sim.url,
      'app-id': appId,
      'auto-stop': 'false',
      'poll-interval-ms': '50',
      'create-in-flight': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const [session] = sim.sessions();
    // One list of the sessions created; the marker of an unanswered create cleared once the answer came.
    expect(io.saved).toMatchObject({
      sessions: JSON.stringify([{ id: session.id, url: session.url }]),
      'create-in-flight': '',
    });
    expect(io.outputs).toMatchObject({ 'session-id': session.id, 'session-url': session.url, status: 'new' });
    expect(io.exported).toEqual({ SVC_DEVICE_SESSION_ID: session.id });
    expect(io.text()).toContain(
      `Not waiting for the session (wait: false). Wait for session ${session.id} later with wait-for-device-session and \`session-id: \${{ steps.<id>.outputs.session-id }}\`, <id> being this step's id.`,
    );
    expect(io.summaries).toHaveLength(1);
  });

  it('a create refused with a 4xx clears the in-flight marker: the post step will not warn', async () => {
    const stranger = sim.addToken({ account: sim.addAccount({ name: 'other' }), role: 'developer' });
    const io = createTestIO();
    const error = await start(io, invocation({}, stranger));
    expect(error?.message).toMatch(/^Creating the device session failed: /);
    expect(sim.sessions()).toEqual([]);
    expect(io.saved['create-in-flight']).toBe('');
    expect(io.saved.sessions).toBeUndefined();
  });

  it('a create whose answer is lost keeps the marker, and says the service may have processed it', async () => {
    sim.injectFault({ method: 'POST', kind: 'partial' });
    const io = createTestIO();
    const error = await start(io, invocation());
    expect(error?.message).toContain(
      'The service may have processed the request anyway; it was not repeated',
    );
    expect(sim.sessions()).toHaveLength(1);
    expect(io.saved['create-in-flight']).toMatch(/^\d{4}-/);
    expect(io.saved.sessions).toBeUndefined();
  });
});
