/**
 * A step run in this process, from the sources: the same options and the same ActionRun as
 * step.ts's runAction, which runs the bundle in a process of its own. The step gets what the runner
 * gives a process: its INPUT_* and STATE_* variables and the five step files in the environment
 * (`@actions/core` reads them there, as in the bundle), a working directory, and its own stdout, read
 * back with the runner's rules. What it wrote to the files, its log and its exit code come back the
 * same way, so one test reads the same whichever way the step ran.
 *
 * What this cannot show, and stays in the end-to-end tier (__tests__/e2e): the bundle itself (what
 * ncc built, its licences, its start-up), exit codes as the process ends with them, signals and the
 * runner's grace, a post step's fresh Node process, proxies and start-up settings (Node reads them as
 * it starts), and two steps running at once (one process has one environment: steps here run one at
 * a time, in the order they were asked for).
 */
import { summary } from '@actions/core';
import { run, runPost as runPostStep } from '../../src/action.js';
import { replaceStepClock } from '../../src/text/clock.js';
import {
  createStepFiles,
  stepEnvironment,
  stepResult,
  stepRunners,
  type ActionRun,
  type RunOptions,
} from './step.js';

/**
 * Variables of the test process a step keeps: what Node, Jest and the tools it starts need. Not
 * NODE_OPTIONS: this process has it from Jest (--experimental-vm-modules), the runner gives a step
 * none, and start-device-session saves it for its post step (the transport state): kept, it would
 * show in that state where the bundle's has none. Node read it as this process started; dropping
 * it from the environment changes nothing here.
 */
const KEPT = new Set(['PATH', 'HOME', 'TMPDIR', 'JEST_WORKER_ID', 'LANG', 'TZ']);

let queue: Promise<unknown> = Promise.resolve();

/** Runs a step of the sources in this process, after any step still running here has ended. */
export function runActionInProcess(options: RunOptions): Promise<ActionRun> {
  if (options.runtime !== undefined || options.onSpawn !== undefined)
    throw new Error('runtime and onSpawn need a process of the step’s own: use step.ts’s runAction');
  const step = queue.then(() => runOne(options));
  queue = step.catch(() => undefined);
  return step;
}

async function runOne(options: RunOptions): Promise<ActionRun> {
  const entry = options.entry ?? 'main';
  const files = createStepFiles();
  const env = stepEnvironment(options, files.env, files.dir);
  const savedEnv = { ...process.env };
  const savedCwd = process.cwd();
  const savedExitCode = process.exitCode;
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  const streams = { stdout: '', stderr: '' };
  const started = Date.now();

  for (const name of Object.keys(process.env)) if (!KEPT.has(name)) delete process.env[name];
  Object.assign(process.env, env);
  process.exitCode = undefined;
  // @actions/core's summary keeps the file it found first, for a process that is one step: each step
  // here starts it afresh (its path and its buffer, both private fields).
  Object.assign(summary, { _filePath: undefined, _buffer: '' });
  process.chdir(files.dir);
  for (const name of ['stdout', 'stderr'] as const)
    process[name].write = ((chunk: string | Uint8Array) => {
      streams[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof process.stdout.write;
  const restoreClock = options.clock ? replaceStepClock(options.clock) : () => undefined;
  try {
    if (env['INPUT_GITHUB-TOKEN'] || env.GITHUB_TOKEN) await readGitHubEnvironmentAgain();
    if (entry === 'post') await runPostStep();
    else await run(entry === 'main' ? undefined : (entry as Parameters<typeof run>[0]));
    const code = process.exitCode;
    return stepResult(
      { exitCode: code === undefined ? 0 : Number(code), signal: null, ...streams },
      files.read(),
      started,
    );
  } finally {
    restoreClock();
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
    process.exitCode = savedExitCode;
    process.chdir(savedCwd);
    for (const name of Object.keys(process.env)) delete process.env[name];
    Object.assign(process.env, savedEnv);
    files.remove();
  }
}

/**
 * `@actions/github` reads the environment once, as it is loaded: its `context` (the event payload,
 * the URLs) and the API's base URL (`defaults.baseUrl`, which every Octokit it makes starts from).
 * Right for a process that is one step; here the module stays loaded from one step to the next, so
 * the second step of a test file would reach the first step's GitHub (its GITHUB_API_URL, its
 * event). A step given a GitHub token (the only steps that load the module) gets both read again
 * from its own environment; the others never load it, as in the bundle.
 */
async function readGitHubEnvironmentAgain(): Promise<void> {
  const { context } = await import('@actions/github');
  const { defaults } = await import('@actions/github/lib/utils');
  Object.assign(context, new (context.constructor as new () => typeof context)());
  defaults.baseUrl = process.env.GITHUB_API_URL || 'https://api.github.com';
}

/**
 * The same calls as step.ts's, each step run from the sources in this process; IN_PROCESS holds them as
 * one value, for fixtures that serve both tiers (step.ts's BUNDLES is the other).
 */
export const IN_PROCESS = stepRunners(runActionInProcess);
export const { runAction, runPost, runStep, runStepPost } = IN_PROCESS;

// Everything else of step.ts (renderLog, the types, the runner's files) as it is: a test moves between
// the tiers by this one import. The names above shadow step.ts's own.
export * from './step.js';
