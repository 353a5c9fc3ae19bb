/**
 * `npm run demo`: the action end to end against the simulator, as a GitHub runner would run it.
 * Starts the simulator with a project whose repository, held in memory, has a sample workflow, runs
 * the committed dist/ bundles (the root action once, then the sub-actions) and prints each step's log
 * as the runner would render it, with its outputs and job summary. A webhook delivery the simulator
 * signed for the first run's build is verified with verify-webhook (and the same body with one byte
 * added is rejected). Then the early-start pattern: a device that takes P to provision and an app
 * build that takes B, started one after the other and overlapped, with the time each takes from job
 * start until the tests can start.
 *
 * Exits non-zero if anything is not as expected; leaves no temporary directory and no active session.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every temporary directory of this process (each step's runner files) goes under one private root,
// so "nothing left behind" is a check of one directory, whatever else runs on the machine.
// os.tmpdir() reads TMPDIR at each call, so this must come before any of them.
const TEMP_ROOT = mkdtempSync(join(tmpdir(), 'svc-demo-'));
process.env.TMPDIR = TEMP_ROOT;

const { startSimulator } = await import('../../simulator/index.js');
const { maskWith, renderLog, runAction } = await import('../../__tests__/harness/runner/step.js');
const { earlyStartProblems, measureEarlyStart } = await import('../bench/early-start-step.js');
type ActionRun = Awaited<ReturnType<typeof runAction>>;

const WORKFLOW = `name: Pull request gate
on:
  workflow_dispatch:
    inputs:
      profile:
        type: choice
        options: [preview, production]
        default: preview
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
      profile: \${{ inputs.profile }}
  e2e:
    name: End-to-end tests
    needs: [build_ios]
    outputs:
      report: \${{ steps.test.outputs.report }}
  submit:
    name: Submit to TestFlight
    type: submit
    needs: [e2e]
    params:
      platform: ios
`;

/** The early-start figures: a device that takes P to provision, an app build that takes B. */
const PROVISIONING_MS = 4000;
const BUILD_MS = 3000;
/** What the overlap may cost above max(P, B): a poll interval and two step start-ups, with margin. */
const OVERHEAD_ALLOWED_MS = 1500;
const POLL = '0.25';
/** The signing secret of the demo's webhook (at least 16 characters). */
const WEBHOOK_SECRET = 'demo-webhook-secret-0123456789';

const bold = (text: string): string => (process.stdout.isTTY ? `\u001b[1m${text}\u001b[0m` : text);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const problems: string[] = [];
/** Long outputs (the jobs JSON) cut for the terminal: the runner keeps them whole. */
const shorten = (text: string, max = 160): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;

function expect(condition: boolean, what: string): void {
  if (!condition) problems.push(what);
}

function show(title: string, run: ActionRun): void {
  console.log(`\n${bold(`── ${title} ── exit code ${run.exitCode}, ${seconds(run.durationMs)}`)}`);
  console.log(renderLog(run.stdout));
  if (run.stderr.trim()) console.log(`stderr:\n${run.stderr}`);
  const outputs = Object.entries(run.outputs).filter(([, value]) => value !== '');
  if (outputs.length > 0) {
    console.log(bold('Outputs (as the runner masks them):'));
    for (const [name, value] of outputs) console.log(`  ${name} = ${shorten(maskWith(run.stdout, value))}`);
  }
  const env = Object.entries(run.env);
  if (env.length > 0) {
    console.log(bold('Exported to later steps:'));
    for (const [name, value] of env) console.log(`  ${name}=${maskWith(run.stdout, value)}`);
  }
  if (run.summary.trim()) console.log(`${bold('Job summary:')}\n${run.summary.trim()}`);
}

/**
 * A webhook receiver standing for the relay of the README's webhook recipe: it keeps each delivery's
 * raw body and `svc-signature` header, and acknowledges it.
 */
async function startReceiver(): Promise<{
  url: string;
  deliveries: Array<{ body: Buffer; signature: string }>;
  close: () => Promise<void>;
}> {
  const deliveries: Array<{ body: Buffer; signature: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks), signature: String(req.headers['svc-signature'] ?? '') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  const sim = await startSimulator({ readinessDelayMs: 1000, defaultJobDurationMs: 400 });
  const receiver = await startReceiver();
  try {
    const account = sim.addAccount({ name: 'acme' });
    const project = sim.addProject({ account, workflows: { 'pr-gate.yml': WORKFLOW }, name: 'mobile-app' });
    const token = sim.addToken({ account, role: 'developer', robot: true });
    const api = { 'base-url': sim.url, token };
    console.log(`Simulator at ${sim.url}; project ${project.id}`);
    // The project's BUILD webhook: the simulator signs and delivers one when a build job ends.
    sim.webhooks.add({ projectId: project.id, event: 'BUILD', url: receiver.url, secret: WEBHOOK_SECRET });

    // 1. The root action (one action, `command:` chooses), as v1 workflows use it.
    const gate = await runAction({
      entry: 'main',
      inputs: {
        command: 'run-workflow',
        ...api,
        'app-id': project.id,
        workflow: 'pr-gate.yml',
        'git-ref': 'main',
        inputs: 'profile: production',
        'poll-interval-seconds': POLL,
      },
    });
    show('uses: svc-action (command: run-workflow, pr-gate.yml on main)', gate);
    expect(
      gate.exitCode === 0 && gate.outputs.status === 'success',
      'the root action run-workflow should succeed',
    );

    // 2. Sub-actions: dispatch without waiting, then gate on the build only with wait-for-run.
    const dispatched = await runAction({
      entry: 'run-workflow',
      inputs: {
        ...api,
        'app-id': project.id,
        workflow: 'pr-gate.yml',
        'git-ref': 'main',
        wait: 'false',
      },
    });
    show('uses: svc-action/run-workflow (wait: false)', dispatched);
    const runId = dispatched.outputs['run-id'] ?? '';
    expect(dispatched.exitCode === 0 && runId !== '', 'run-workflow with wait: false should give a run id');
    const gated = await runAction({
      entry: 'wait-for-run',
      inputs: { ...api, 'run-id': runId, jobs: 'build_ios', 'poll-interval-seconds': POLL },
    });
    show('uses: svc-action/wait-for-run (jobs: build_ios)', gated);
    expect(gated.exitCode === 0, 'wait-for-run gating on build_ios should succeed');
    const jobs = JSON.parse(gated.outputs.jobs ?? '[]') as Array<{ key: string; status: string }>;
    expect(
      jobs.find((job) => job.key === 'build_ios')?.status === 'success' &&
        jobs.find((job) => job.key === 'submit')?.status !== 'success',
      'wait-for-run should end when build_ios ends, before submit',
    );

    // 3. verify-webhook: the delivery of the first run's build, as the recipe's relay hands it to a
    // workflow (the raw body written to a file), then the same body with a line break added.
    await sim.webhooks.idle();
    const delivery = receiver.deliveries[0];
    const buildId = (JSON.parse(gate.outputs['build-ids'] ?? '[]') as string[])[0];
    expect(delivery !== undefined, 'the simulator should deliver the BUILD webhook of the first run');
    if (delivery) {
      const bodyDir = mkdtempSync(join(tmpdir(), 'webhook-'));
      try {
        const payloadFile = join(bodyDir, 'svc-webhook.json');
        writeFileSync(payloadFile, delivery.body);
        const webhook = { 'webhook-secret': WEBHOOK_SECRET, signature: delivery.signature };
        const verified = await runAction({
          entry: 'verify-webhook',
          inputs: { ...webhook, 'payload-file': payloadFile },
        });
        show('uses: svc-action/verify-webhook (the BUILD delivery of the first run)', verified);
        expect(
          verified.exitCode === 0 &&
            verified.outputs.event === 'BUILD' &&
            verified.outputs.status === 'finished' &&
            verified.outputs.id === buildId,
          "verify-webhook should accept the delivery of the first run's build",
        );
        const altered = await runAction({
          entry: 'verify-webhook',
          inputs: { ...webhook, payload: `${delivery.body.toString('utf8')}\n` },
        });
        show('uses: svc-action/verify-webhook (the same body with a line break added)', altered);
        expect(
          altered.exitCode === 1 && Object.values(altered.outputs).every((value) => value === ''),
          'verify-webhook should reject an altered body and set no output',
        );
      } finally {
        rmSync(bodyDir, { recursive: true, force: true });
      }
    }

    // 4. The early-start pattern, against the sequential one (scripts/bench/early-start-step.ts).
    console.log(
      `\n${bold(`Early start: provisioning P = ${seconds(PROVISIONING_MS)}, app build B = ${seconds(BUILD_MS)}`)}`,
    );
    const timing = { provisioningMs: PROVISIONING_MS, buildMs: BUILD_MS };
    const early = await measureEarlyStart({
      sim,
      api,
      appId: project.id,
      pollIntervalSeconds: POLL,
      ...timing,
    });
    for (const { title, run } of early.steps) show(title, run);
    problems.push(...earlyStartProblems(early, timing, OVERHEAD_ALLOWED_MS));
    const { sequentialMs, earlyMs } = early;
    console.log(`\n${bold('Job start → device ready and app built (the tests can start):')}`);
    console.log(`  sequential   ${seconds(sequentialMs)}   (P + B = ${seconds(PROVISIONING_MS + BUILD_MS)})`);
    console.log(
      `  early start  ${seconds(earlyMs)}   (max(P, B) = ${seconds(Math.max(PROVISIONING_MS, BUILD_MS))})`,
    );
    console.log(
      `  saved        ${seconds(sequentialMs - earlyMs)} (${Math.round((100 * (sequentialMs - earlyMs)) / sequentialMs)}% of the sequential time; ideally min(P, B) = ${seconds(Math.min(PROVISIONING_MS, BUILD_MS))})`,
    );

    const sessions = sim.sessions().map((session) => `${session.name ?? session.id}: ${session.status}`);
    console.log(`\nSessions on the simulator at the end: ${sessions.join(', ')}`);
    expect(sim.activeSessions().length === 0, 'no session may be left active');
  } finally {
    await sim.close();
    await receiver.close();
  }
}

try {
  await main();
} catch (error) {
  problems.push(
    `the demo stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
}
const leftBehind = readdirSync(TEMP_ROOT);
expect(leftBehind.length === 0, `temporary directories left behind: ${leftBehind.join(', ')}`);
rmSync(TEMP_ROOT, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`\nDemo failed:\n- ${problems.join('\n- ')}`);
  process.exitCode = 1;
} else {
  console.log(
    '\nDemo finished: the gate passed, a run was followed by id and gated on its build, the webhook of its build was verified and an altered copy rejected, and the early start saved the time shown above; no session is left running and no temporary directory is left behind.',
  );
}
