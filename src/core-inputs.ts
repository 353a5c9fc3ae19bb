/** The runner's side of InputSource: INPUT_* variables (read raw; inputs.ts trims where it should). */
import * as core from './actions-core.js';
import { readFileSync } from 'node:fs';
import type { InputSource } from './inputs.js';

export function coreInputSource(): InputSource {
  return {
    input: (name) => core.getInput(name, { trimWhitespace: false }),
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
  };
}
