/**
 * Workflow-command injection: every string that comes from the service or from a webhook payload
 * (commit messages, workflow and job names, job keys, statuses, error messages, outputs, session
 * names, URLs) is printed so that the runner can never read it as a workflow command: not with
 * embedded line breaks (CR alone included) followed by `::` or `##[`, not with `##[` in the middle
 * of a line, not after white space only .NET trims. Every printed line is read with the runner-like
 * parser (audit.ts). Run from the sources in this process against the simulator; a hostile commit
 * message, job names and job outputs through the built run-workflow bundle are the end-to-end
 * tier's case (__tests__/e2e/security/hardening-bundles.test.ts).
 */
import { createHmac } from 'node:crypto';
import { IN_PROCESS, runAction, runPost } from '../../testkit/runner/in-process.js';
import type { World } from '../../testkit/world/world.js';
import { renderLog } from '../../testkit/runner/in-process.js';
import {
  closeLeavingNoSession,
  expectNoInjectedCommands as expectInert,
  FAST,
  gateRunWorkflow,
  gateWorld,
  hostile,
  MARK,
} from '../../testkit/world/security-fixtures.js';
import { buildPayload, secretFindings } from '../e2e/security/audit.js';

const SESSIONS = '/v2/device-run-sessions';

/** Replaces every string field of the `data` envelope (deeply) with a hostile one, except those kept. */
function poison(keep: string[]): (json: unknown) => unknown {
  const visit = (value: unknown, key: string): unknown => {
    if (keep.includes(key)) return value;
    if (typeof value === 'string') return hostile(key);
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, visit(v, k)]),
      );
    }
    return value;
  };
  return (json) => {
    const envelope = json as { data?: unknown };
    if (envelope.data !== undefined) envelope.data = visit(envelope.data, 'data');
    return envelope;
  };
}

describe('workflow-command injection', () => {
  let world: World;
  beforeEach(async () => {
    world = await gateWorld();
  });
  afterEach(() => closeLeavingNoSession(world));

  const runWorkflowStep = gateRunWorkflow(IN_PROCESS, () => world);
  const startSession = (inputs: Record<string, string> = {}) =>
    runAction({
      inputs: { command: 'start-device-session', ...world.api, platform: 'ios', ...FAST, ...inputs },
      env: { RUNNER_DEBUG: '1', SVC_REQUEST_TIMEOUT_MS: '10000' },
    });

  it('run-workflow: every string of the dispatch answer and of every read is hostile', async () => {
    world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: hostile('error') });
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'mutate',
      mutate: poison(['id']),
    });
    // Statuses too, while the run is under way: unknown, hostile statuses are logged, not obeyed.
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      times: 3,
      kind: 'mutate',
      mutate: poison(['id', 'jobs']),
    });
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      times: 500,
      kind: 'mutate',
      mutate: poison(['id', 'status']),
    });
    const run = await runWorkflowStep();
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('is not known to this version of the action');
    expect(run.outputs.status).toBe('failure');
    expectInert(run);
  });

  it('run-workflow: hostile error messages in a refused dispatch and in retried reads', async () => {
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      times: 2,
      kind: 'status',
      status: 503,
      body: { errors: [{ code: hostile('code'), message: hostile('retried read') }] },
    });
    const ok = await runWorkflowStep();
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain('retrying in');
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'status',
      status: 400,
      body: { errors: [{ code: 'BAD_REQUEST', message: hostile('refused dispatch') }] },
    });
    const refused = await runWorkflowStep();
    expect(refused.exitCode).toBe(1);
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'body',
      status: 500,
      body: hostile('<html>plain text error page</html>'),
    });
    const page = await runWorkflowStep();
    expect(page.exitCode).toBe(1);
    expectInert(ok, refused, page);
  });

  it('start-device-session and post: hostile session names, statuses, URLs and connection details', async () => {
    world.sim.setSessionBehaviour({
      extraStatusBeforeReady: hostile('status'),
      extraRemoteConfigFields: { note: hostile('extra field') },
    });
    world.sim.injectFault({
      method: 'POST',
      path: /^\/v2\/device-run-sessions$/,
      kind: 'mutate',
      mutate: poison(['id', 'status', 'platform', 'type']),
    });
    world.sim.injectFault({
      method: 'GET',
      path: `${SESSIONS}/`,
      times: 500,
      kind: 'mutate',
      mutate: poison(['id', 'status', 'capabilities']),
    });
    const main = await startSession({ type: 'appium', name: 'plain name' });
    expect(main.exitCode).toBe(0);
    expect(main.env.APPIUM_URL).toContain(MARK);
    world.sim.clearFaults();
    world.sim.injectFault({
      method: 'POST',
      path: /\/stop$/,
      kind: 'mutate',
      mutate: poison(['id', 'status']),
    });
    const post = await runPost(main, { inputs: world.api, env: { RUNNER_DEBUG: '1' } });
    expect(post.exitCode).toBe(0);
    expectInert(main, post);
  });

  it('start-device-session: a hostile session URL and name cannot stop commands before the device token is masked', async () => {
    // Only the text fields are hostile: the token stays a real token, so the log can be checked for it.
    const mutate = (json: unknown): unknown => {
      const data = (json as { data?: Record<string, unknown> }).data;
      if (data) {
        data.url = `https://svc.example/s/1 ##[stop-commands]${MARK}stop ##[save-state name=stopped]true`;
        data.name = `\u0085::stop-commands::${MARK}stop\r##[stop-commands]${MARK}stop2`;
      }
      return json;
    };
    world.sim.injectFault({ method: 'POST', path: /^\/v2\/device-run-sessions$/, kind: 'mutate', mutate });
    world.sim.injectFault({ method: 'GET', path: `${SESSIONS}/`, times: 500, kind: 'mutate', mutate });
    const main = await startSession();
    expect(main.exitCode).toBe(0);
    const token = main.outputs['agent-device-remote-session-token'];
    expect(token.length).toBeGreaterThan(8);
    expect(main.state.stopped).not.toBe('true');
    expect(renderLog(main.stdout, true)).not.toContain(token);
    expect(secretFindings(main, token, 'device token')).toEqual([]);
    world.sim.clearFaults();
    const post = await runPost(main, { inputs: world.api, env: { RUNNER_DEBUG: '1' } });
    expect(post.exitCode).toBe(0);
    expect(world.sim.activeSessions()).toEqual([]);
    expectInert(main, post);
  });

  it('start-device-session: a session that errors, and stop-device-session refused with a hostile message', async () => {
    world.sim.setSessionBehaviour({ readinessDelayMs: 60_000, errorAfterMs: 30 });
    world.sim.injectFault({
      method: 'GET',
      path: `${SESSIONS}/`,
      times: 500,
      kind: 'mutate',
      mutate: poison(['id', 'status']),
    });
    const main = await startSession();
    expect(main.exitCode).toBe(1);
    world.sim.clearFaults();
    world.sim.injectFault({
      method: 'POST',
      path: /\/stop$/,
      kind: 'status',
      status: 404,
      body: { errors: [{ code: 'NOT_FOUND', message: hostile('stop refused') }] },
    });
    const stop = await runAction({
      inputs: { command: 'stop-device-session', ...world.api, 'session-id': main.outputs['session-id'] },
      env: { RUNNER_DEBUG: '1' },
    });
    expect(stop.exitCode).toBe(1);
    expectInert(main, stop);
  });

  it('verify-webhook: every string of a genuine payload is hostile', async () => {
    const secret = 'whsec_injection_0123456789';
    const body = JSON.stringify(
      buildPayload({
        accountName: hostile('account'),
        projectName: hostile('project'),
        status: hostile('status'),
        buildDetailsPageUrl: hostile('https://page'),
        error: { errorCode: hostile('code'), message: hostile('message') },
        metadata: { appName: hostile('app'), gitCommitMessage: hostile('commit') },
      }),
    );
    const run = await runAction({
      inputs: {
        command: 'verify-webhook',
        'webhook-secret': secret,
        payload: body,
        signature: `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
      },
      env: { RUNNER_DEBUG: '1' },
    });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.outputs.payload).accountName).toContain(`::error::${MARK}`);
    expectInert(run);
  });

  it('hostile input values are not echoed as commands either', async () => {
    const run = await runAction({
      inputs: {
        command: 'run-workflow',
        ...world.api,
        workflow: hostile('e2e.yml'),
        'git-ref': hostile('main'),
      },
    });
    expect(run.exitCode).toBe(1);
    const unknown = await runAction({ inputs: { command: hostile('deploy') } });
    expect(unknown.exitCode).toBe(1);
    expectInert(run, unknown);
  });
});
