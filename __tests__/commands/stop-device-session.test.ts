/**
 * Stopping a session (src/sessions/stop.ts, and the stop-device-session command of
 * src/commands/stop-device-session.ts read through the registry) with the recording IO and the
 * simulator: "stopped" means confirmed by the service; anything else is an error that names the
 * session, says why, and what to do, and a step that gives up on a session stops it before it fails.
 */
import { SessionLedger } from '../../src/sessions/state.js';
import { ActionFailure } from '../../src/errors.js';
import { COMMANDS } from '../../src/commands/index.js';
import { stopAndFail, StopNotConfirmed, stopSession } from '../../src/sessions/stop.js';
import { ServiceClient } from '../../src/service/client.js';
import type { Simulator } from '../../simulator/index.js';
import { apiRequests, createWorld } from '../../testkit/world/world.js';
import { createTestIO, type RecordingIO } from '../../testkit/world/io.js';
import { inputSource } from '../../testkit/world/sources.js';
import { outputWriter } from '../../src/runner/outputs.js';
import { virtualStepClockEachTest } from '../../testkit/world/world-hooks.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

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
beforeEach(() => {
  sim.reset();
  // The step's six attempts, with back-off short enough for a unit test.
  client = new ServiceClient({
    baseUrl: sim.url,
    token,
    retry: { maxAttempts: 6, baseDelayMs: 5, maxDelayMs: 10 },
  });
});
afterEach(() => client.dispose());
// The deadlines, the confirmation's waits and the client's back-off on the step clock: the same
// attempts on an idle machine and a busy one.
const clock = virtualStepClockEachTest();

/** What a step that gives up on a session passes stopAndFail: its IO, its client, its outputs (start-device-session's). */
const giving = (io: RecordingIO) => ({
  io,
  client,
  outputs: outputWriter(io, COMMANDS['start-device-session'].outputs),
});

async function newSession() {
  const session = await client.createDeviceSession({ appId, platform: 'ios' });
  sim.clearRequests();
  return { id: session.id, url: session.url ?? '' };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a failure');
  return error;
}

describe('stopSession', () => {
  it('one stop request, confirmed by the answer', async () => {
    const { id } = await newSession();
    const session = await stopSession(client, id, { deadline: clock().now() + 10_000 });
    expect(session).toMatchObject({ id, status: 'stopped', finishedAt: expect.any(String) });
    expect(apiRequests(sim)).toEqual([`POST /v2/device-run-sessions/${id}/stop`]);
  });

  it('an answer that is not terminal, with no time left to confirm: not confirmed, and says what the service reports', async () => {
    const { id, url } = await newSession();
    sim.injectFault({
      method: 'POST',
      kind: 'mutate',
      mutate: (json) => ({
        data: { ...(json as { data: object }).data, status: 'in-progress', finishedAt: null },
      }),
    });
    const error = await failure(stopSession(client, id, { deadline: clock().now() + 1000, sessionUrl: url }));
    expect(error).toBeInstanceOf(StopNotConfirmed);
    expect(error.message).toBe(
      `Device session ${id} could not be confirmed stopped: the service still reports it as \`in-progress\`. ` +
        'It may still be running and billing until it reaches its maximum duration: stop it from its session page, ' +
        `or with the stop-device-session command and this session id. Session page: ${url}`,
    );
  });

  it('an answer about another session does not confirm this one', async () => {
    const { id } = await newSession();
    const other = await newSession();
    sim.injectFault({
      method: 'POST',
      times: 10,
      kind: 'mutate',
      mutate: (json) => ({ data: { ...(json as { data: object }).data, id: other.id } }),
    });
    const error = await failure(stopSession(client, id, { deadline: clock().now() + 10_000 }));
    expect(error).toBeInstanceOf(StopNotConfirmed);
    expect(error.message).toContain(`Device session ${id} could not be confirmed stopped: `);
    expect(error.message).toContain(
      `the service answered about device session ${other.id}, not the one asked for`,
    );
  });

  it('an unknown session: the service has no session with that id', async () => {
    const error = await failure(stopSession(client, UNKNOWN_ID, { deadline: clock().now() + 10_000 }));
    expect(error).toBeInstanceOf(StopNotConfirmed);
    expect(error.message).toMatch(
      new RegExp(
        `^Device session ${UNKNOWN_ID} was not found: the service has no session with that id \\(404: .+\\)\\.$`,
      ),
    );
    // Running the command again would not help: nothing advises it.
    expect(error.message).not.toContain('stop-device-session');
  });
});

describe('stopAndFail', () => {
  it('stops the session, records it for the post step, then fails with the reason', async () => {
    const session = await newSession();
    const io = createTestIO();
    const ledger = new SessionLedger(io);
    ledger.created(session);
    const error = await failure(
      stopAndFail(giving(io), session, 'The session did not become ready in time.', { ledger }),
    );
    expect(error).toBeInstanceOf(ActionFailure);
    expect(error.message).toBe(
      `The session did not become ready in time. The session was stopped. ${session.url}`,
    );
    expect(sim.getSession(session.id)?.status).toBe('stopped');
    expect(JSON.parse(io.saved.sessions)).toEqual([
      { id: session.id, url: session.url, ended: 'stopped', deviceTime: expect.any(String) },
    ]);
    expect(io.outputs).toEqual({ status: 'stopped' });
    expect(io.text()).toMatch(new RegExp(`^Device session ${session.id} is stopped at `));
  });

  it('when the stop fails too, both are reported: the stop as an error, the reason as the failure', async () => {
    const session = await newSession();
    sim.injectFault({ method: 'POST', kind: 'status', status: 503, times: 100 });
    const io = createTestIO();
    const error = await failure(stopAndFail(giving(io), session, 'The step was cancelled.'));
    expect(error.message).toBe(
      `The step was cancelled. Stopping it could not be confirmed (see the error above). ${session.url}`,
    );
    expect(io.log.filter((line) => line.kind === 'error')).toEqual([
      {
        kind: 'error',
        text: expect.stringMatching(
          new RegExp(
            `^Device session ${session.id} could not be confirmed stopped: .* Session page: ${session.url}$`,
          ),
        ),
      },
    ]);
    expect(io.saved).toEqual({});
    expect(sim.getSession(session.id)?.status).not.toBe('stopped');
  });
});

describe('the stop-device-session command', () => {
  /** The command read from its inputs, run with the test's client. */
  const stop = (sessionId: string, io: RecordingIO) =>
    COMMANDS['stop-device-session']
      .read(inputSource({ token, 'base-url': sim.url, 'session-id': sessionId, 'timeout-minutes': '1' }))
      .run({ io, signal: new AbortController().signal, client: () => client });

  it('says where it stops what, and sets `status`; a second stop is the same answer', async () => {
    const { id, url } = await newSession();
    const io = createTestIO();
    await stop(id, io);
    expect(io.outputs).toEqual({ status: 'stopped' });
    const host = new URL(sim.url).host;
    expect(io.log[0]).toEqual({ kind: 'info', text: `Stopping device session ${id} at ${host}.` });
    expect(io.log[1].text).toMatch(new RegExp(`^Device session ${id} is stopped at \\S+\\. ${url}$`));
    const again = createTestIO();
    await stop(id, again);
    expect(again.outputs).toEqual({ status: 'stopped' });
  });

  it('an unknown session fails the step with the not-found message and no output', async () => {
    const io = createTestIO();
    const error = await failure(stop(UNKNOWN_ID, io));
    expect(error.message).toContain('the service has no session with that id');
    expect(io.outputs).toEqual({});
  });
});
