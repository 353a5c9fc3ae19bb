/**
 * Every command of the registry (src/commands/index.ts) run in process against the simulator, on its
 * success path and on each path that reaches a moment some of its outputs wait for (their `when`,
 * src/runner/outputs.ts): every output declared for a moment the path reached is set, and nothing
 * the command does not declare is. A declared output that no code sets, or one set but not declared,
 * fails here, whatever the type checker let through.
 */
import { COMMANDS, COMMAND_NAMES, type CommandName } from '../../src/commands/index.js';
import type { Moment } from '../../src/runner/outputs.js';
import { runStep, type ActionRun } from '../../testkit/runner/in-process.js';
import { createWorld, stopLeftSessions, type World } from '../../testkit/world/world.js';
import { deliveriesOf, receiveBuildWebhooks, runAndDeliver } from '../../testkit/world/deliveries.js';
import type { Receiver } from '../../testkit/world/webhook-receiver.js';
import { workflow } from '../../testkit/docs/workflows.js';
import { GitHubStandIn } from '../../simulator/index.js';

const PIPELINE = workflow('Pipeline', { build: { type: 'build' }, e2e: { needs: ['build'] } });
const SECRET = 'whsec-outputs-0123456789-abcdef';
const GITHUB_TOKEN = 'ghs_outputsToken0123456789';

let world: World;
let receiver: Receiver;
let github: GitHubStandIn;
beforeAll(async () => {
  world = await createWorld(
    { 'pipeline.yml': PIPELINE },
    { defaultJobDurationMs: 20, readinessDelayMs: 10, webhooks: { baseIntervalMs: 20 } },
  );
  receiver = await receiveBuildWebhooks(world.sim, world.project, SECRET);
  github = new GitHubStandIn();
  await github.start();
});
afterAll(async () => {
  await stopLeftSessions(world);
  await world.sim.close();
  await receiver.close();
  await github.close();
});

/** The inputs every command that calls the service needs, polling fast. */
const service = (): Record<string, string> => ({ token: world.token, 'base-url': world.sim.url });
const fast = { 'poll-interval-seconds': '0.05' };

/** One way through a command, and the moments it reaches. */
interface Path {
  command: CommandName;
  name: string;
  reaches: Moment[];
  /** Runs the step (and whatever it needs first); a success path exits 0, a refused one 1. */
  run(): Promise<ActionRun>;
  exitCode: 0 | 1;
}

const PATHS: Path[] = [
  {
    command: 'run-workflow',
    name: 'the run followed to its end',
    reaches: ['always', 'started', 'dispatched', 'run-read'],
    exitCode: 0,
    run: () =>
      runStep('run-workflow', {
        inputs: { ...world.api, ...fast, workflow: 'pipeline.yml', 'git-ref': 'main' },
      }),
  },
  {
    command: 'run-workflow',
    name: 'wait: false',
    reaches: ['always', 'started', 'dispatched'],
    exitCode: 0,
    run: () => dispatch(),
  },
  {
    command: 'run-workflow',
    name: 'dry-run: true',
    reaches: ['always', 'started'],
    exitCode: 0,
    run: () =>
      runStep('run-workflow', {
        inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'main', 'dry-run': 'true' },
      }),
  },
  {
    command: 'wait-for-run',
    name: 'a run followed to its end',
    reaches: ['always', 'started', 'run-read'],
    exitCode: 0,
    run: async () => {
      const runId = (await dispatch()).outputs['run-id'];
      return runStep('wait-for-run', { inputs: { ...service(), ...fast, 'run-id': runId } });
    },
  },
  {
    command: 'start-device-session',
    name: 'the session waited for until ready',
    reaches: ['always', 'started', 'created', 'ready'],
    exitCode: 0,
    run: () => runStep('start-device-session', { inputs: { ...world.api, ...fast, platform: 'ios' } }),
  },
  {
    command: 'start-device-session',
    name: 'wait: false',
    reaches: ['always', 'started', 'created'],
    exitCode: 0,
    run: () => startWithoutWaiting(),
  },
  {
    command: 'wait-for-device-session',
    name: 'a session waited for until ready',
    reaches: ['always', 'started', 'ready'],
    exitCode: 0,
    run: async () => {
      const sessionId = (await startWithoutWaiting()).outputs['session-id'];
      return runStep('wait-for-device-session', {
        inputs: { ...service(), ...fast, 'session-id': sessionId },
      });
    },
  },
  {
    command: 'stop-device-session',
    name: 'a session stopped',
    reaches: ['always', 'started', 'stopped'],
    exitCode: 0,
    run: async () => {
      const sessionId = (await startWithoutWaiting()).outputs['session-id'];
      return runStep('stop-device-session', { inputs: { ...service(), 'session-id': sessionId } });
    },
  },
  {
    command: 'verify-webhook',
    name: 'a delivery the simulator signed',
    reaches: ['always', 'started', 'verified'],
    exitCode: 0,
    run: async () => {
      await runAndDeliver(world.sim, world.project, world.token, 'pipeline.yml');
      const [delivery] = deliveriesOf(receiver).slice(-1);
      return runStep('verify-webhook', {
        inputs: {
          'webhook-secret': SECRET,
          signature: delivery.signature,
          payload: delivery.body.toString('utf8'),
        },
      });
    },
  },
  {
    command: 'sync-statuses',
    name: 'the open pull requests synced',
    reaches: ['always', 'started', 'synced'],
    exitCode: 0,
    run: () =>
      runStep('sync-statuses', {
        inputs: { ...service(), 'github-token': GITHUB_TOKEN },
        env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/app' },
      }),
  },
  // Refused inputs (none given): only what is set on every path.
  ...COMMAND_NAMES.map((command): Path => ({
    command,
    name: 'inputs refused',
    reaches: ['always'],
    exitCode: 1,
    run: () => runStep(command, { inputs: {}, env: { SVC_TOKEN: '', SVC_BASE_URL: '' } }),
  })),
];

/** A run of the pipeline dispatched with `wait: false`. */
function dispatch(): Promise<ActionRun> {
  return runStep('run-workflow', {
    inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'main', wait: 'false' },
  });
}

/** A session created with `wait: false`. */
function startWithoutWaiting(): Promise<ActionRun> {
  return runStep('start-device-session', { inputs: { ...world.api, platform: 'ios', wait: 'false' } });
}

describe('the outputs each command declares are the outputs it sets', () => {
  it.each(PATHS.map((path) => [path.command, path.name, path] as const))(
    '%s, %s',
    async (command, _name, path) => {
      const run = await path.run();
      const declared = COMMANDS[command].outputs;
      const set = Object.keys(run.outputs);
      expect({ exitCode: run.exitCode, errors: path.exitCode === 0 ? run.errors : [] }).toEqual({
        exitCode: path.exitCode,
        errors: [],
      });
      expect({
        // Declared for a moment this path reached, and not set.
        missing: Object.keys(declared).filter(
          (name) => path.reaches.includes(declared[name].when) && !set.includes(name),
        ),
        undeclared: set.filter((name) => !(name in declared)),
      }).toEqual({ missing: [], undeclared: [] });
    },
  );

  it('every output of every command is checked: each moment its outputs wait for is reached by a path', () => {
    const unchecked = COMMAND_NAMES.flatMap((command) =>
      Object.entries(COMMANDS[command].outputs)
        .filter(([, output]) =>
          PATHS.every((path) => path.command !== command || !path.reaches.includes(output.when)),
        )
        .map(([name, output]) => `${command}: ${name} (${output.when})`),
    );
    expect(unchecked).toEqual([]);
  });
});
