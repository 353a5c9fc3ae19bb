/**
 * `npm run demo`: the action end to end against the simulator, as a GitHub runner would run it, on the
 * workflow engine the tests use (testkit/runner/workflow.ts: GitHub's own parser and
 * expression evaluator, the committed dist/ bundles for `uses:` of this action). Starts the simulator
 * with a project whose repository, held in memory, has a sample workflow, then runs:
 * 1. a pull-request gate workflow: the root action (`command: run-workflow`, with `commit-statuses` and
 *    `comment` against the simulator's GitHub stand-in), then the sub-actions run-workflow
 *    (`wait: false`) and wait-for-run gating on the build only; then the pull request as GitHub shows it
 *    (its checks and its comment, and the page's address);
 * 2. the loop that holds no runner, with sync-statuses/README.md's two workflows as written: on a second
 *    pull request, the gate dispatches with `wait: false` and leaves `pending` statuses (the pull
 *    request shown then), the run ends with no runner waiting for it, the settling workflow's
 *    sync-statuses (run by hand, `workflow_dispatch`) settles them, and the pull request is shown again;
 * 3. verify-webhook/README.md's relay workflow, as written, on the BUILD delivery the simulator signed
 *    for the gate's build (a repository_dispatch event, as the README's relay makes one), and again on
 *    the same body with a line break added, which it must reject;
 * 4. the early-start pattern (a device that takes P to provision and an app build that takes B,
 *    started one after the other and overlapped) step by step, with the time each takes from job start
 *    until the tests can start.
 * Each step's log is printed as the runner renders it, with its outputs and job summary.
 *
 * Exits non-zero if anything is not as expected; leaves no temporary directory and no active session.
 * The simulator's addresses it printed stay open until Ctrl-C when its output is a terminal or with
 * `--keep` (`npm run demo -- --keep`); otherwise it ends, saying that they close with it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdPages, keepChoice, keepCommand, KEEP_FLAG } from '../../testkit/docs/keep-open.js';

const { args, keep } = keepChoice(process.argv.slice(2), process.stdout.isTTY);
if (args.length > 0) {
  console.error(
    `npm run demo takes one flag, ${KEEP_FLAG} (the pages stay open until Ctrl-C), not: ${args.join(' ')}`,
  );
  process.exit(1);
}

// Every temporary directory of this process (each step's runner files) goes under one private root,
// so "nothing left behind" is a check of one directory, whatever else runs on the machine.
// os.tmpdir() reads TMPDIR at each call, so this must come before any of them.
const TEMP_ROOT = mkdtempSync(join(tmpdir(), 'svc-demo-'));
process.env.TMPDIR = TEMP_ROOT;

const { MemoryRepo, startSimulator } = await import('../../simulator/index.js');
const { maskWith, renderLog } = await import('../../testkit/runner/step.js');
const { maskText } = await import('../../testkit/runner/commands.js');
const { runWorkflow } = await import('../../testkit/runner/workflow.js');
const { findRecipe } = await import('../../testkit/docs/recipes.js');
const { startReceiver } = await import('../../testkit/world/webhook-receiver.js');
const { deliveriesOf, relayEvent } = await import('../../testkit/world/deliveries.js');
const { pullRequestView } = await import('../../testkit/docs/pull-request-view.js');
const { earlyStartProblems, measureEarlyStart } = await import('../bench/early-start-step.js');
const { noRunnerLoop } = await import('./no-runner.js');
type ActionRun = Awaited<ReturnType<typeof measureEarlyStart>>['steps'][number]['run'];
type Simulator = Awaited<ReturnType<typeof startSimulator>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type WorkflowResult = Awaited<ReturnType<typeof runWorkflow>>;
type StepResult = WorkflowResult['jobs'][string]['steps'][number];

const SAMPLE_WORKFLOW = `name: Pull request gate
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

/** The workflow sync-statuses/README.md's gate dispatches: two jobs (each status post is a second apart). */
const E2E_WORKFLOW = `name: End-to-end tests
on: workflow_dispatch
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  e2e:
    name: End-to-end tests
    needs: [build_ios]
`;

/** The GitHub workflow the demo runs: the gate, then a dispatch followed by id and gated on its build. */
const GATE_WORKFLOW = `name: Demo gate
on: pull_request
permissions:
  contents: read
  statuses: write
  pull-requests: write
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - name: Gate the pull request (the root action, command run-workflow)
        id: gate
        uses: svc-actions/svc-action@v1
        with:
          command: run-workflow
          token: \${{ secrets.SVC_TOKEN }}
          base-url: \${{ vars.SVC_BASE_URL }}
          app-id: \${{ vars.SVC_APP_ID }}
          workflow: pr-gate.yml
          git-ref: main
          inputs: 'profile: production'
          poll-interval-seconds: 0.25
          commit-statuses: true
          comment: true

      - name: Dispatch without waiting
        id: dispatch
        uses: svc-actions/svc-action/run-workflow@v1
        with:
          token: \${{ secrets.SVC_TOKEN }}
          base-url: \${{ vars.SVC_BASE_URL }}
          app-id: \${{ vars.SVC_APP_ID }}
          workflow: pr-gate.yml
          git-ref: main
          wait: false

      - name: Gate on the build only
        id: build
        uses: svc-actions/svc-action/wait-for-run@v1
        with:
          token: \${{ secrets.SVC_TOKEN }}
          base-url: \${{ vars.SVC_BASE_URL }}
          run-id: \${{ steps.dispatch.outputs.run-id }}
          jobs: build_ios
          poll-interval-seconds: 0.25
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

/** Prints what the runner shows of an engine step beyond its log: its outputs and its job summary. */
function showStep(step: StepResult, secrets: string[]): void {
  const hide = (text: string): string => maskText(secrets, text);
  const outputs = Object.entries(step.outputs).filter(([, value]) => value !== '');
  if (outputs.length > 0) {
    console.log(bold('    Outputs:'));
    for (const [name, value] of outputs) console.log(`      ${name} = ${shorten(hide(value))}`);
  }
  if (step.summary.trim()) console.log(`${bold('    Job summary:')}\n${hide(step.summary.trim())}`);
}

/** `receiver` stands for the relay of the README's webhook recipe: it keeps each delivery as sent. */
async function main(sim: Simulator, receiver: Receiver): Promise<void> {
  // GitHub's API as the relay workflow's release job meets it (its tag of the delivery): the simulator's stand-in.
  const github = sim.github;
  const account = sim.addAccount({ name: 'acme' });
  // The project's repository, in memory: its head commit is the one the pull request is at;
  // e2e.yml is the workflow sync-statuses/README.md's gate dispatches.
  const repo = new MemoryRepo({ 'pr-gate.yml': SAMPLE_WORKFLOW, 'e2e.yml': E2E_WORKFLOW });
  const project = sim.addProject({ account, workflows: repo, name: 'mobile-app' });
  const token = sim.addToken({ account, role: 'developer', robot: true });
  const api = { 'base-url': sim.url, token };
  console.log(`Simulator at ${sim.url}; project ${project.id}`);
  // The project's BUILD webhook: the simulator signs and delivers one when a build job ends.
  sim.webhooks.add({ projectId: project.id, event: 'BUILD', url: receiver.url, secret: WEBHOOK_SECRET });
  const secrets = { SVC_TOKEN: token, SVC_WEBHOOK_SECRET: WEBHOOK_SECRET };
  const engine = {
    secrets,
    vars: { SVC_BASE_URL: sim.url, SVC_APP_ID: project.id },
    // A pull request at the repository's head commit, on the simulator's GitHub stand-in:
    // wait-for-run binds the run to that commit (expected-commit), the statuses and comment go there.
    github: {
      event_name: 'pull_request',
      sha: repo.headSha,
      ref: 'refs/pull/1/merge',
      repository: 'acme/app',
      api_url: github.url,
      event: { pull_request: { number: 1, head: { sha: repo.headSha, ref: 'main' } } },
    },
    log: (line: string) => console.log(line),
    onStep: (_job: string, step: StepResult) =>
      showStep(
        step,
        Object.values(secrets).sort((a, b) => b.length - a.length),
      ),
  };

  // 1. The gate: the root action (`command:` chooses), as v1 workflows use it; then the sub-actions.
  console.log(`\n${bold('── A pull-request gate workflow ──')}`);
  const pullRequest = github.addPullRequest({ number: 1, head: repo.headSha, title: 'Demo change' });
  const lines: string[] = [];
  const gate = (
    await runWorkflow(GATE_WORKFLOW, {
      ...engine,
      log: (line: string) => (lines.push(line), engine.log(line)),
    })
  ).jobs.gate;
  const [gated, dispatched, build] = gate.steps;
  expect(
    gated.outcome === 'success' && gated.outputs.status === 'success',
    'the root action should pass the gate',
  );
  const runId = dispatched.outputs['run-id'] ?? '';
  expect(
    dispatched.outcome === 'success' && runId !== '',
    'run-workflow with wait: false should give a run id',
  );
  expect(build.outcome === 'success', 'wait-for-run gating on build_ios should succeed');
  const jobs = JSON.parse(build.outputs.jobs ?? '[]') as Array<{ key: string; status: string }>;
  expect(
    jobs.find((job) => job.key === 'build_ios')?.status === 'success' &&
      jobs.find((job) => job.key === 'submit')?.status !== 'success',
    'wait-for-run should end when build_ios ends, before submit',
  );

  console.log(`\n${bold("── The pull request, as GitHub shows it (the simulator's stand-in) ──")}`);
  for (const line of pullRequestView(github, pullRequest)) console.log(line);
  const states = github.states(repo.headSha);
  expect(
    Object.keys(states).length > 0 && Object.values(states).every((state) => state === 'success'),
    "the gate's commit statuses should all read success on the pull request's head",
  );
  expect(
    github.commentsOn(1).some((comment) => comment.body.includes('✅ the step succeeded')),
    'the gate should leave its sticky comment, saying it succeeded',
  );
  expect(!lines.some((line) => /Warning:/.test(line)), 'the gate should draw no warning');
  // The comment's link, as the gate printed it, opens the pull request's page at the comment.
  const commentLink = /Commented on pull request #1: (\S+)/.exec(lines.join('\n'))?.[1] ?? '';
  const commentPage = commentLink.startsWith(github.url)
    ? await fetch(commentLink, { headers: { accept: 'text/html' } })
    : undefined;
  expect(
    commentPage?.status === 200 &&
      (await commentPage.text()).includes(`id="${new URL(commentLink).hash.slice(1)}"`),
    `the comment's link should open the pull request's page at the comment, not ${commentLink || 'none'}`,
  );

  // 2. The loop that holds no runner: sync-statuses/README.md's gate and settling workflow, as written.
  await noRunnerLoop({
    sim,
    repo,
    engine,
    expect,
    heading: (text) => console.log(`\n${bold(`── ${text} ──`)}`),
  });

  // 3. The webhook: the README's relay workflow, as written, on the delivery of the gate's build.
  await sim.webhooks.idle();
  const buildId = (JSON.parse(gated.outputs['build-ids'] ?? '[]') as string[])[0];
  const delivery = deliveriesOf(receiver).find((d) => d.body.toString('utf8').includes(buildId ?? '-'));
  expect(delivery !== undefined, "the simulator should deliver the BUILD webhook of the gate's build");
  const relayWorkflow = findRecipe('verify-webhook/README.md', 'Service webhook', 2)!;
  if (delivery) {
    const relayed = (body: Buffer): Promise<WorkflowResult> =>
      runWorkflow(relayWorkflow.text, { ...engine, github: relayEvent({ ...delivery, body }, github.url) });
    console.log(`\n${bold("── verify-webhook/README.md's relay workflow, on the build's delivery ──")}`);
    const accepted = await relayed(delivery.body);
    const verified = accepted.jobs.handle.steps[1];
    expect(
      verified.outcome === 'success' &&
        verified.outputs.event === 'BUILD' &&
        verified.outputs.status === 'finished' &&
        verified.outputs.id === buildId &&
        accepted.jobs.release.result === 'success',
      "the relay workflow should verify the delivery of the gate's build and release it",
    );
    console.log(`\n${bold('── The same workflow, on the same body with a line break added ──')}`);
    const altered = await relayed(Buffer.concat([delivery.body, Buffer.from('\n')]));
    const rejected = altered.jobs.handle.steps[1];
    expect(
      rejected.outcome === 'failure' &&
        Object.values(rejected.outputs).every((value) => value === '') &&
        altered.jobs.release.result === 'skipped',
      'the relay workflow should reject an altered body, set no output and release nothing',
    );
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
}

const sim = await startSimulator({ readinessDelayMs: 1000, defaultJobDurationMs: 400 });
const receiver = await startReceiver(() => 200);
try {
  await main(sim, receiver);
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
    '\nDemo finished: the gate passed (its statuses and comment on the pull request shown above), a run was followed by id and gated on its build, a gate that held no runner left its statuses pending and sync-statuses settled them once the run had ended, the webhook of its build was verified and an altered copy rejected, and the early start saved the time shown above; no session is left running and no temporary directory is left behind.',
  );
}
// The addresses printed above answer while the simulator runs: until Ctrl-C in a terminal or with --keep.
await holdPages({ keep, simulatorUrl: sim.url, command: keepCommand('demo', []) });
await sim.close();
await receiver.close();
