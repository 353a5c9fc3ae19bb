/**
 * `npm run demo`: the action end to end against the simulator, as a GitHub runner would run it.
 * Creates a throw-away git repository with a sample workflow, starts the simulator, runs the
 * committed dist/ bundle for run-workflow and for a device session (main, then post), and prints
 * the log, outputs and job summary of each step. Exits non-zero if anything is not as expected.
 */
import { makeTempWorkflowRepo, startSimulator } from '../simulator/index.js';
import { maskWith, renderLog, runAction, runPost, type ActionRun } from './runner.js';

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

const bold = (text: string): string => (process.stdout.isTTY ? `\u001b[1m${text}\u001b[0m` : text);
const problems: string[] = [];

function show(title: string, run: ActionRun): void {
  console.log(`\n${bold(`── ${title} ── exit code ${run.exitCode}`)}`);
  console.log(renderLog(run.stdout));
  if (run.stderr.trim()) console.log(`stderr:\n${run.stderr}`);
  const outputs = Object.entries(run.outputs);
  if (outputs.length > 0) {
    console.log(bold('\nOutputs (as the runner masks them):'));
    for (const [name, value] of outputs) console.log(`  ${name} = ${maskWith(run.stdout, value)}`);
  }
  const env = Object.entries(run.env);
  if (env.length > 0) {
    console.log(bold('\nExported to later steps:'));
    for (const [name, value] of env) console.log(`  ${name}=${maskWith(run.stdout, value)}`);
  }
  if (run.summary.trim()) console.log(`${bold('\nJob summary:')}\n${run.summary}`);
}

function expect(condition: boolean, what: string): void {
  if (!condition) problems.push(what);
}

async function main(): Promise<void> {
  const repo = await makeTempWorkflowRepo({ 'pr-gate.yml': WORKFLOW });
  const sim = await startSimulator({ readinessDelayMs: 1500, defaultJobDurationMs: 700 });
  try {
    const account = sim.addAccount({ name: 'acme' });
    const project = sim.addProject({ account, repoPath: repo.path, name: 'mobile-app' });
    const token = sim.addToken({ account, role: 'developer', robot: true });
    const api = { 'base-url': sim.url, token, 'app-id': project.id };
    console.log(`Simulator at ${sim.url}; project ${project.id}; repository ${repo.path}`);

    const workflow = await runAction({
      inputs: {
        command: 'run-workflow',
        ...api,
        workflow: 'pr-gate.yml',
        'git-ref': 'main',
        inputs: 'profile: production',
        'poll-interval-seconds': '0.5',
      },
    });
    show('run-workflow (pr-gate.yml on main)', workflow);
    expect(workflow.exitCode === 0 && workflow.outputs.status === 'success', 'run-workflow should succeed');

    const device = await runAction({
      inputs: {
        command: 'start-device-session',
        ...api,
        platform: 'ios',
        type: 'agent-device',
        name: 'demo',
        'max-duration-minutes': '30',
        'poll-interval-seconds': '0.5',
      },
    });
    show('start-device-session (agent-device, iOS)', device);
    expect(
      device.exitCode === 0 && device.outputs.status === 'in-progress',
      'the device session should become ready',
    );

    const post = await runPost(device, { inputs: api });
    show('post step of start-device-session (end of job)', post);
    const sessions = sim.sessions().map((session) => `${session.id}: ${session.status}`);
    console.log(`\nSessions on the simulator after the job: ${sessions.join(', ')}`);
    expect(post.exitCode === 0 && sim.activeSessions().length === 0, 'the post step should stop the session');
  } finally {
    await sim.close();
  }
  if (problems.length > 0) {
    console.error(`\nDemo failed: ${problems.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      '\nDemo finished: the workflow run passed the gate, and the device session was started and stopped.',
    );
  }
}

await main();
