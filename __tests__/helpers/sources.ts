/** An InputSource for unit tests: inputs and environment from plain maps. */
import type { InputSource } from '../../src/inputs.js';

export function inputSource(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): InputSource {
  return {
    input: (name) => inputs[name] ?? '',
    env,
    readFile: (path) => {
      if (!(path in files)) throw new Error(`ENOENT: ${path}`);
      return files[path];
    },
  };
}

export const APP_ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
export const API = { token: 'tok_abcdefghijklmnop', 'base-url': 'http://127.0.0.1:1' };
