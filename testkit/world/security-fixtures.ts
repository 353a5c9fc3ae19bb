/**
 * The fixtures the security tests share across the tiers (__tests__/security/, in process, and
 * __tests__/e2e/security/hardening-bundles.test.ts, the bundles): the hostile text that would smuggle
 * workflow commands in, the workflow that carries it, the check that none got through; the huge
 * answer's session and its step; the inputs each command of the hostile-input matrix is given. A
 * helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) and the world as a getter,
 * since the tests create their world in a hook.
 */
import { expect } from '@jest/globals';
import { injectedCommands } from '../runner/injected-commands.js';
import type { ActionRun, RunOptions, StepRunners } from '../runner/step.js';
import { TOKEN } from './hostile-cases.js';
import { hugeRemoteConfigFields, LONG_SESSION_NAME } from './huge-answer.js';
import { createWorld, type World } from './world.js';

/** What the runner would act on, were a smuggled command obeyed. */
export const MARK = 'PWNED';
/** Every way a line break can smuggle a command in, each carrying MARK where the runner would act on it. */
export const HOSTILE = [
  `safe text\n::error::${MARK} one`,
  `\r\n::add-mask::${MARK}`,
  `\n   ::set-output name=${MARK}::1`,
  `\n##[error]${MARK} legacy`,
  `\r::warning title=${MARK}::x`,
  `\n::stop-commands::${MARK}`,
  `\n::notice::${MARK}%0A::error::${MARK}`,
  `\u2028::debug::${MARK}`,
  ` mid-line ##[add-mask]${MARK}`,
  ` ##[error title=x]${MARK} forged`,
  ` ##[stop-commands]${MARK}stop`,
  ` ##[save-state name=stopped]true`,
  `\n\u0085::add-mask::${MARK}`,
  `\n\u00a0::error::${MARK}`,
  `\n\u3000::stop-commands::${MARK}stop2`,
  `\r##[set-output name=${MARK}]1`,
].join('');

/** `label`, then HOSTILE. */
export function hostile(label: string): string {
  return `${label} ${HOSTILE}`;
}

/** gate.yml: a job name from the workflow file and a job output, both hostile. */
export const GATE_WORKFLOW = `name: Gate
on: workflow_dispatch
jobs:
  build:
    name: ${JSON.stringify(hostile('job name from the workflow file'))}
    type: build
  test:
    name: Tests
    needs: [build]
    outputs:
      note: ${JSON.stringify(hostile('job output'))}
`;
export const FAST = { 'poll-interval-seconds': '0.05' };
/** The names a step's outputs and state may have. */
export const OUTPUT_NAMES = /^[a-z][a-z-]*$/;

/** No run wrote a command MARK smuggled in, a name the step did not mean, or HTML in its summary. */
export function expectNoInjectedCommands(...runs: ActionRun[]): void {
  for (const run of runs) {
    expect(injectedCommands(run.stdout, MARK)).toEqual([]);
    expect(injectedCommands(run.stderr, MARK)).toEqual([]);
    for (const name of Object.keys(run.outputs)) expect(name).toMatch(OUTPUT_NAMES);
    for (const name of Object.keys(run.env)) expect(name).toMatch(/^[A-Z][A-Z_]*$/);
    for (const name of Object.keys(run.state)) expect(name).toMatch(OUTPUT_NAMES);
    expect(run.summary).not.toMatch(/<script|<img|<a /i);
  }
}

/** A world of its own for an injection test: gate.yml, sessions ready after 80 ms, jobs of 40 ms. */
export function gateWorld(): Promise<World> {
  return createWorld({ 'gate.yml': GATE_WORKFLOW }, { readinessDelayMs: 80, defaultJobDurationMs: 40 });
}

/** Closes a test's own world, then checks that the test left no device running. */
export async function closeLeavingNoSession(world: World): Promise<void> {
  const leaked = world.sim.activeSessions();
  await world.sim.close();
  expect(leaked).toEqual([]);
}

/** run-workflow (through the root action) on gate.yml, with debug logging and short request timeouts. */
export function gateRunWorkflow(
  runners: StepRunners,
  world: () => World,
  options: RunOptions = {},
): (inputs?: Record<string, string>) => Promise<ActionRun> {
  return (inputs = {}) =>
    runners.runAction({
      ...options,
      inputs: {
        command: 'run-workflow',
        ...world().api,
        workflow: 'gate.yml',
        'git-ref': 'main',
        ...FAST,
        ...inputs,
      },
      env: { RUNNER_DEBUG: '1', SVC_REQUEST_TIMEOUT_MS: '10000' },
    });
}

/** Back to a clean simulator whose sessions answer with about 600 kB of connection details. */
export function resetWithHugeAnswers(world: World): void {
  world.sim.reset();
  world.sim.setSessionBehaviour({
    readinessDelayMs: 100,
    extraRemoteConfigFields: hugeRemoteConfigFields(),
  });
}

/** start-device-session (through the root action) on such a session, its `timeout-minutes` 3 s. */
export function hugeSessionStarter(
  runners: StepRunners,
  world: () => World,
  options: RunOptions = {},
): (onSpawn?: RunOptions['onSpawn']) => Promise<ActionRun> {
  return (onSpawn) =>
    runners.runAction({
      ...options,
      inputs: {
        command: 'start-device-session',
        ...world().api,
        platform: 'ios',
        type: 'appium',
        name: LONG_SESSION_NAME,
        'poll-interval-seconds': '0.05',
        // 3 s: the session is ready after 0.1 s, and handling its answer must not outlast this.
        'timeout-minutes': '0.05',
      },
      onSpawn,
    });
}

/** The inputs the hostile-input matrix gives each command besides the case's own (TOKEN as the token). */
export function hostileCaseInputs(world: World): Record<string, Record<string, string>> {
  return {
    'run-workflow': { ...world.api, token: TOKEN, workflow: 'e2e.yml', 'git-ref': 'main' },
    'start-device-session': { ...world.api, token: TOKEN, platform: 'ios' },
    'stop-device-session': { token: TOKEN, 'base-url': world.api['base-url'] },
    'verify-webhook': {},
  };
}
