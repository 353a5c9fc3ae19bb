// The runner emulation lives in scripts/ so the demo, the benchmark and the fault campaign share it.
export * from './runner.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, runAction, type ActionRun, type RunOptions } from './runner.js';

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

/** Runs an action's main entrypoint the way a `uses:` step does: bundle from its action.yml, defaults filled. */
export function runStep(action: ActionName, options: StepOptions = {}): Promise<ActionRun> {
  const { runs } = readActionYaml(action);
  return runAction({
    ...options,
    entry: entryOf(runs.main),
    inputs: stepInputs(action, options.inputs ?? {}),
  });
}

/**
 * The post step the runner runs at the end of the job for a step of `action`: the same inputs, the
 * state its main part saved. Throws when that action.yml declares no post entrypoint: then the runner
 * runs nothing, and a test asking for one is wrong.
 */
export function runStepPost(
  action: ActionName,
  main: ActionRun,
  options: StepOptions = {},
): Promise<ActionRun> {
  const { runs } = readActionYaml(action);
  if (!runs.post) throw new Error(`${action} has no post step`);
  return runAction({
    ...options,
    entry: entryOf(runs.post),
    inputs: stepInputs(action, options.inputs ?? {}),
    state: main.state,
  });
}
