/**
 * Runs the simulator as a command: `npm run simulator -- [--repo PATH] [--port N] [--host H]
 * [--readiness-delay-ms N] [--job-duration-ms N] [--role ROLE]`.
 * Creates an account, a project linked to --repo (or to a temporary repository with a sample
 * `.eas/workflows/e2e.yml`) and a token, prints how to reach them, and runs until SIGINT/SIGTERM.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROLES, type Role } from './accounts.js';
import { makeTempWorkflowRepo } from './fixture.js';
import { startSimulator } from './index.js';

const USAGE = `Usage: npm run simulator -- [--repo PATH] [--port N] [--host HOST]
       [--readiness-delay-ms N] [--job-duration-ms N] [--role viewer|developer|admin|owner]`;

function nonNegative(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || value.trim() === '')
    throw new Error(`--${name} must be a non-negative number`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repo: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'readiness-delay-ms': { type: 'string' },
      'job-duration-ms': { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = nonNegative('port', values.port, 0);
  const role = (values.role ?? 'developer') as Role;
  if (!ROLES.includes(role)) throw new Error(`--role must be one of: ${ROLES.join(', ')}`);
  const repoPath = values.repo ? resolve(values.repo) : (await makeTempWorkflowRepo()).path;

  const sim = await startSimulator({
    port,
    host: values.host ?? '127.0.0.1',
    readinessDelayMs: nonNegative('readiness-delay-ms', values['readiness-delay-ms'], 3_000),
    defaultJobDurationMs: nonNegative('job-duration-ms', values['job-duration-ms'], 5_000),
  });
  const account = sim.addAccount({ name: 'sim-account' });
  const project = sim.addProject({ account, repoPath, name: 'sim-project' });
  const token = sim.addToken({ account, role, robot: true });

  console.log(`Simulator listening on ${sim.url}
  token (${role}):   ${token}
  project id:        ${project.id}
  repository:        ${repoPath}${values.repo ? '' : ' (temporary, with .eas/workflows/e2e.yml; branch main, tag v1)'}

Service routes (Authorization: Bearer <token>):
  POST ${sim.url}/v2/workflows/dispatch        {"appId","gitRef","fileName","inputs"}
  GET  ${sim.url}/v2/workflows/runs/:id
  POST ${sim.url}/v2/device-run-sessions       {"appId","platform",...}
  GET  ${sim.url}/v2/device-run-sessions/:id
  POST ${sim.url}/v2/device-run-sessions/:id/stop

Control routes (no auth, loopback only):
  GET    ${sim.url}/_sim/state
  POST   ${sim.url}/_sim/runs/:id/approve | reject | cancel
  POST   ${sim.url}/_sim/sessions/:id/error | touch
  POST   ${sim.url}/_sim/session-behaviour  {"readinessDelayMs","errorAfterMs","remoteConfigLagMs",...}
  POST   ${sim.url}/_sim/jobs/:key/behaviour {"durationMs","outcome","errorMessage"}
  POST   ${sim.url}/_sim/faults             {"kind":"status","status":503,"path":"/v2/","times":1}
  DELETE ${sim.url}/_sim/faults
  GET    ${sim.url}/_sim/webhooks
  POST   ${sim.url}/_sim/webhooks           {"projectId","event":"BUILD"|"SUBMIT","url","secret"}
  DELETE ${sim.url}/_sim/webhooks/:id
  GET    ${sim.url}/_sim/webhook-deliveries (every delivery attempt)

Environment for the action:
  SVC_BASE_URL=${sim.url} SVC_TOKEN=${token}
Press Ctrl-C to stop.`);

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, closing the simulator`);
    sim
      .close()
      .then(() => (values.repo ? undefined : rm(repoPath, { recursive: true, force: true })))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`simulator: ${(error as Error).message}`);
  console.error(USAGE);
  process.exit(1);
});
