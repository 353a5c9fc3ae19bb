/**
 * The wiring of every action a workflow can `uses:`: the root action.yml and each
 * `<command>/action.yml` point at a bundle that exists, on the runtime the contract names, with
 * exactly the inputs and outputs of the command's table (the registry, src/commands/index.ts). The generator check in CI
 * catches a generated file that drifted; this catches a table, a path or a bundle that is wrong.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMMANDS as REGISTRY, COMMAND_NAMES as COMMANDS } from '../../src/commands/index.js';
import type { Command as CommandSpec } from '../../src/commands/command.js';
import { readActionYaml, ROOT } from '../../testkit/runner/step.js';

interface ActionYaml {
  inputs?: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { description?: string }>;
  runs: Record<string, string>;
}

const read = (action: string): ActionYaml => readActionYaml(action) as unknown as ActionYaml;
const specOf = (command: string): CommandSpec => (REGISTRY as Record<string, CommandSpec>)[command];

describe.each(COMMANDS)('%s/action.yml', (command) => {
  const action = read(command);
  const spec = specOf(command);

  it('runs its own bundle on node24; only start-device-session has a post step, on always()', () => {
    expect(action.runs.using).toBe('node24');
    expect(action.runs.main).toBe(`../dist/${command}/index.js`);
    expect(existsSync(resolve(ROOT, command, action.runs.main))).toBe(true);
    if (command === 'start-device-session') {
      expect(action.runs).toMatchObject({ post: '../dist/post/index.js', 'post-if': 'always()' });
      expect(existsSync(resolve(ROOT, command, action.runs.post))).toBe(true);
    } else {
      expect(Object.keys(action.runs).sort()).toEqual(['main', 'using']);
    }
    expect(Boolean(spec.post)).toBe(command === 'start-device-session');
  });

  it('declares exactly the inputs of its table (no `command`), with their required flags and defaults', () => {
    const inputs = action.inputs ?? {};
    expect(Object.keys(inputs)).toEqual(Object.keys(spec.inputs));
    expect(inputs).not.toHaveProperty('command');
    for (const [name, input] of Object.entries(spec.inputs)) {
      // An input that falls back to an environment variable (token, base-url, ...) is not required
      // in action.yml: the workflow may give it through `env:` instead.
      expect({ name, required: inputs[name].required, default: inputs[name].default }).toEqual({
        name,
        required: Boolean(input.required && !input.fallbackEnv && !input.fallback),
        default: input.default ?? input.runnerDefault,
      });
      expect(inputs[name].description?.length).toBeGreaterThan(10);
    }
  });

  it('declares exactly the outputs of its table', () => {
    expect(Object.keys(action.outputs ?? {}).sort()).toEqual(Object.keys(spec.outputs).sort());
  });
});

describe('the root action.yml', () => {
  const root = read('root');

  it('runs dist/main with a post step on always(), on node24', () => {
    expect(root.runs).toEqual({
      using: 'node24',
      main: 'dist/main/index.js',
      post: 'dist/post/index.js',
      'post-if': 'always()',
    });
    for (const entry of [root.runs.main, root.runs.post]) expect(existsSync(join(ROOT, entry))).toBe(true);
  });

  it('declares `command` (required) and the union of every command’s inputs and outputs', () => {
    const inputs = root.inputs ?? {};
    const union = new Set(Object.values(REGISTRY).flatMap((spec: CommandSpec) => Object.keys(spec.inputs)));
    expect(Object.keys(inputs).sort()).toEqual(['command', ...union].sort());
    expect(inputs.command.required).toBe(true);
    for (const command of COMMANDS) expect(inputs.command.description).toContain(command);
    // Required inputs of one command are optional in the root: the other commands do not read them.
    expect(Object.entries(inputs).filter(([name, input]) => name !== 'command' && input.required)).toEqual(
      [],
    );
    const outputs = new Set(
      Object.values(REGISTRY).flatMap((spec: CommandSpec) => Object.keys(spec.outputs)),
    );
    expect(Object.keys(root.outputs ?? {}).sort()).toEqual([...outputs].sort());
  });
});
