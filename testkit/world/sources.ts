/** An InputSource for unit tests: inputs and environment from plain maps, and the InputError catcher. */
import { COMMANDS, type CommandName as Command } from '../../src/commands/index.js';
import { InputError, type InputSource } from '../../src/inputs/table.js';

export function inputSource(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): InputSource {
  return {
    input: (name) => inputs[name] ?? '',
    given: (name) => name in inputs,
    env,
    readFile: (path) => {
      if (!(path in files)) throw new Error(`ENOENT: ${path}`);
      return files[path];
    },
  };
}

/** The problems a command's reader lists for these inputs; fails the test when it accepts them. */
export function problemsOf(
  command: Command,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): string[] {
  try {
    COMMANDS[command].read(inputSource(inputs, env));
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error(`expected an InputError for ${JSON.stringify(inputs)}`);
}

export const APP_ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
export const SESSION_ID = '6a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const TOKEN = 'tok_abcdefghijklmnop';
export const API = { token: TOKEN, 'base-url': 'http://127.0.0.1:1' };
