/**
 * The secret audit (run by secret-audit.test.ts and secret-audit-debug.test.ts): every command, in normal and failing scenarios, with and without RUNNER_DEBUG,
 * run through the built dist/ as the runner runs it. The access token, the session tokens
 * (agentDeviceRemoteSessionToken, toolsAuthToken and any other token field) and the webhook secret
 * never appear in stdout, stderr, the summary or the state file except on their own ::add-mask::
 * line, never in an annotation, and in the output and env files only once masked. That holds when
 * the service echoes the token back in an error body too.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fault } from '../../../simulator/index.js';
import { runAction, runPost, type ActionRun } from '../../../testkit/runner/step.js';
import { createWorld, until, type World } from '../../../testkit/world/world.js';
import { GATE } from '../../../testkit/docs/workflows.js';
import { buildPayload, errorLines, neverInFiles, secretFindings } from './audit.js';

const FAST = { 'poll-interval-seconds': '0.05' };
const RUNTIME = 'node24';
const SESSIONS = '/v2/device-run-sessions';

/** A fault whose error body echoes `secret` in every shape readErrorBody knows. */
function echoFault(
  secret: string,
  match: { method: string; path: string | RegExp; times?: number },
  status = 401,
): Fault {
  return {
    ...match,
    kind: 'status',
    status,
    body: {
      message: `token ${secret} rejected`,
      error: `bad token ${secret}`,
      errors: [{ code: 'UNAUTHORIZED', message: `The token ${secret} is not valid` }],
    },
  };
}

/**
 * The audit, with the given debug setting: secret-audit.test.ts runs it without debug,
 * secret-audit-debug.test.ts with RUNNER_DEBUG=1 (two files, so Jest runs them side by side).
 */
export function secretAudit(label: string, debugEnv: Record<string, string>): void {
  describe(`secret audit ${label}`, () => {
    let world: World;
    /** Every credential-like remoteConfig value the simulator handed out. */
    let sessionSecrets: Set<string>;

    beforeAll(async () => {
      world = await createWorld({ 'gate.yml': GATE }, { readinessDelayMs: 100, defaultJobDurationMs: 40 });
      world.sim.events.on('session-status', (session: { remoteConfig?: Record<string, unknown> | null }) => {
        for (const [field, value] of Object.entries(session.remoteConfig ?? {}))
          if (/token|secret/i.test(field) && typeof value === 'string' && value) sessionSecrets.add(value);
      });
    });
    afterAll(() => world.sim.close());
    // One simulator for the file, emptied between tests (faults, behaviours, runs and sessions).
    beforeEach(() => {
      sessionSecrets = new Set();
      world.sim.reset();
    });
    afterEach(() => {
      expect(world.sim.activeSessions()).toEqual([]);
    });

    const env = (extra: Record<string, string> = {}): Record<string, string> => ({
      SVC_REQUEST_TIMEOUT_MS: '10000',
      ...debugEnv,
      ...extra,
    });

    /** Audits the access token (never in files) and every session secret seen so far. */
    function audit(...runs: ActionRun[]): void {
      const findings: string[] = [];
      for (const run of runs) {
        findings.push(...secretFindings(run, world.token, 'access token'));
        findings.push(...neverInFiles(run, world.token, 'access token'));
        for (const secret of sessionSecrets) findings.push(...secretFindings(run, secret, 'session token'));
      }
      expect(findings).toEqual([]);
    }

    const runWorkflowStep = (inputs: Record<string, string> = {}, extraEnv: Record<string, string> = {}) =>
      runAction({
        runtime: RUNTIME,
        inputs: {
          command: 'run-workflow',
          ...world.api,
          workflow: 'gate.yml',
          'git-ref': 'main',
          ...FAST,
          ...inputs,
        },
        env: env(extraEnv),
      });
    const startSession = (inputs: Record<string, string> = {}) =>
      runAction({
        runtime: RUNTIME,
        inputs: { command: 'start-device-session', ...world.api, platform: 'ios', ...FAST, ...inputs },
        env: env(),
      });
    const post = (main: ActionRun) =>
      runPost(main, { runtime: RUNTIME, inputs: { ...world.api, ...FAST }, env: env() });

    describe('run-workflow', () => {
      it('a successful run', async () => {
        const main = await runWorkflowStep();
        expect(main.exitCode).toBe(0);
        audit(main, await post(main));
      });

      it('a failing run', async () => {
        world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'assertion failed' });
        const main = await runWorkflowStep();
        expect(main.exitCode).toBe(1);
        audit(main);
      });

      it('the token from SVC_TOKEN instead of the input', async () => {
        const main = await runWorkflowStep({ token: '' }, { SVC_TOKEN: world.token });
        expect(main.exitCode).toBe(0);
        expect(main.stdout.split('\n')[0]).toBe(`::add-mask::${world.token}`);
        audit(main);
      });

      it('the dispatch is refused and the service echoes the token', async () => {
        world.sim.injectFault(echoFault(world.token, { method: 'POST', path: '/v2/workflows/dispatch' }));
        const main = await runWorkflowStep();
        expect(main.exitCode).toBe(1);
        expect(main.errors).toEqual([expect.stringContaining('The token *** is not valid')]);
        audit(main);
      });

      it('every read fails with an echo of the token until retries give up', async () => {
        world.sim.injectFault(
          echoFault(world.token, { method: 'GET', path: '/v2/workflows/runs/', times: 6 }, 503),
        );
        const main = await runWorkflowStep();
        expect(main.exitCode).toBe(1);
        expect(main.stdout).toContain('failed 6 times in a row; last error:');
        audit(main);
      });

      it('an HTML error page and a 400 JSON body that echo the token', async () => {
        world.sim.injectFault({
          method: 'GET',
          path: '/v2/workflows/runs/',
          kind: 'body',
          status: 502,
          body: `<html><body>token=${world.token}</body></html>`,
        });
        world.sim.injectFault(echoFault(world.token, { method: 'GET', path: '/v2/workflows/runs/' }, 400));
        const main = await runWorkflowStep();
        expect(main.exitCode).toBe(1);
        audit(main);
      });

      it('run data that echoes the token in job names and errors', async () => {
        world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: `auth ${world.token} failed` });
        const main = await runWorkflowStep();
        expect(main.exitCode).toBe(1);
        const findings = [...secretFindings(main, world.token, 'access token')];
        expect(findings).toEqual([]);
      });
    });

    describe('start-device-session and its post step', () => {
      it.each(['agent-device', 'argent'])(
        'a %s session that becomes ready, then the post step',
        async (type) => {
          world.sim.setSessionBehaviour({
            extraRemoteConfigFields: { webPreviewToken: 'wpt_0123456789abcdefghij' },
          });
          const main = await startSession({ type });
          expect(main.exitCode).toBe(0);
          expect(sessionSecrets.size).toBeGreaterThanOrEqual(2);
          const after = await post(main);
          expect(after.exitCode).toBe(0);
          audit(main, after);
          // Outputs and env holding a session token: only after its mask line (the runner masks them).
          const token = main.outputs['agent-device-remote-session-token'] || main.outputs['tools-auth-token'];
          expect(main.stdout.indexOf(`::add-mask::${token}`)).toBeGreaterThanOrEqual(0);
        },
      );

      it('the service echoes the session token back in later reads', async () => {
        world.sim.setSessionBehaviour({ remoteConfigLagMs: 150 });
        world.sim.injectFault({
          method: 'GET',
          path: `${SESSIONS}/`,
          times: 20,
          kind: 'mutate',
          mutate: (json) => {
            const data = (json as { data?: Record<string, unknown> }).data;
            const token = (data?.remoteConfig as Record<string, string> | null)
              ?.agentDeviceRemoteSessionToken;
            if (data && token) data.name = `session for ${token}`;
            return json;
          },
        });
        const main = await startSession({ type: 'agent-device' });
        expect(main.exitCode).toBe(0);
        audit(main, await post(main));
      });

      it('a session that errors before it is ready', async () => {
        world.sim.setSessionBehaviour({ readinessDelayMs: 60_000, errorAfterMs: 50 });
        const main = await startSession();
        expect(main.exitCode).toBe(1);
        audit(main, await post(main));
      });

      it('a readiness timeout', async () => {
        world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
        // 3 s, not 0.3: time for a busy machine's create to be answered first, and still far from the
        // 60 s readiness, so the step always ends by its timeout.
        const main = await startSession({ 'timeout-minutes': '0.05' });
        expect(main.exitCode).toBe(1);
        audit(main, await post(main));
      });

      it('the create is refused and the service echoes the token', async () => {
        world.sim.injectFault(
          echoFault(world.token, { method: 'POST', path: /^\/v2\/device-run-sessions$/ }, 403),
        );
        const main = await startSession();
        expect(main.exitCode).toBe(1);
        audit(main, await post(main));
      });

      it('reads fail with an echo of the token until retries give up; the session is stopped', async () => {
        world.sim.injectFault(echoFault(world.token, { method: 'GET', path: `${SESSIONS}/`, times: 6 }, 500));
        const main = await startSession();
        expect(main.exitCode).toBe(1);
        audit(main, await post(main));
      });

      it('the post step cannot stop the session and the service echoes the token', async () => {
        const main = await startSession({ type: 'agent-device' });
        expect(main.exitCode).toBe(0);
        world.sim.injectFault(echoFault(world.token, { method: 'POST', path: /\/stop$/, times: 6 }, 502));
        const after = await post(main);
        expect(after.exitCode).toBe(1);
        expect(after.errors).toEqual([expect.stringContaining(main.outputs['session-id'])]);
        audit(main, after);
        // Clean up what the refused stop left running.
        world.sim.clearFaults();
        expect((await post(main)).exitCode).toBe(0);
      });

      it('SIGINT while waiting', async () => {
        world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
        const main = await runAction({
          runtime: RUNTIME,
          inputs: { command: 'start-device-session', ...world.api, platform: 'ios', ...FAST },
          env: env(),
          onSpawn: (child) => {
            void until(() => world.sim.sessions().length > 0).then(() => child.kill('SIGINT'));
          },
        });
        expect(main.exitCode).toBe(1);
        audit(main, await post(main));
      });
    });

    describe('stop-device-session', () => {
      const stop = (sessionId: string) =>
        runAction({
          runtime: RUNTIME,
          inputs: { command: 'stop-device-session', ...world.api, 'session-id': sessionId },
          env: env(),
        });

      it('stops a ready session', async () => {
        const main = await startSession({ type: 'argent', 'auto-stop': 'false' });
        const stopped = await stop(main.outputs['session-id']);
        expect(stopped.exitCode).toBe(0);
        audit(main, stopped);
      });

      it('a 404 and a 500 that echo the token', async () => {
        const missing = await (async () => {
          world.sim.injectFault(echoFault(world.token, { method: 'POST', path: /\/stop$/ }, 404));
          return stop('5f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b');
        })();
        expect(missing.exitCode).toBe(1);
        // Retried (stop is idempotent), then the simulator's own 404 for an unknown session.
        world.sim.injectFault(echoFault(world.token, { method: 'POST', path: /\/stop$/, times: 2 }, 500));
        const failing = await stop('5f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b');
        expect(failing.exitCode).toBe(1);
        audit(missing, failing);
      });
    });

    describe('verify-webhook', () => {
      const SECRET = 'whsec_audit_0123456789abcdef';
      let dir: string;
      beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), 'svc-audit-'));
      });
      afterAll(() => rmSync(dir, { recursive: true, force: true }));

      const sign = (body: string, secret = SECRET): string =>
        `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
      const verify = (inputs: Record<string, string>) =>
        runAction({
          runtime: RUNTIME,
          inputs: { command: 'verify-webhook', 'webhook-secret': SECRET, ...inputs },
          env: env(),
        });
      function webhookAudit(run: ActionRun, secret = SECRET): void {
        const findings = [...secretFindings(run, secret, 'webhook secret')];
        for (const line of errorLines(run)) if (line.includes(secret)) findings.push(`in an error: ${line}`);
        expect(findings).toEqual([]);
      }

      it('a genuine delivery whose error message echoes the secret', async () => {
        const body = JSON.stringify(
          buildPayload({ error: { errorCode: 'E_AUTH', message: `secret ${SECRET} leaked` } }),
        );
        const run = await verify({ payload: body, signature: sign(body) });
        expect(run.exitCode).toBe(0);
        expect(run.stdout).toContain('Error E_AUTH: secret *** leaked');
        webhookAudit(run);
      });

      it('a forged delivery, inline and as a file', async () => {
        const body = JSON.stringify(buildPayload({}));
        const forged = await verify({ payload: body, signature: sign(body, 'another-secret-0123456789') });
        expect(forged.exitCode).toBe(1);
        const file = join(dir, 'body.json');
        writeFileSync(file, `${body}\n`);
        const altered = await verify({ 'payload-file': file, signature: sign(body) });
        expect(altered.exitCode).toBe(1);
        webhookAudit(forged);
        webhookAudit(altered);
      });

      it('a secret that is too short is not echoed', async () => {
        const short = 'short-secret';
        const run = await verify({ 'webhook-secret': short, payload: '{}', signature: 'sha1=00' });
        expect(run.exitCode).toBe(1);
        webhookAudit(run, short);
      });
    });
  });
}
