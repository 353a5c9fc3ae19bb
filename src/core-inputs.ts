/** The runner's side of InputSource: INPUT_* variables (read raw; inputs.ts trims where it should). */
import * as core from './actions-core.js';
import { readFileSync } from 'node:fs';
import type { InputSource } from './inputs.js';
import type { ActionIO } from './io.js';

export function coreInputSource(): InputSource {
  return {
    input: (name) => core.getInput(name, { trimWhitespace: false }),
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
  };
}

/**
 * Masks every input that may hold a secret, and the environment fallbacks of `token` and
 * `github-token`, whatever the command: the first thing main and post do, before anything is printed.
 */
export function maskSecretInputs(io: ActionIO): void {
  for (const name of ['token', 'webhook-secret', 'github-token']) {
    const value = core.getInput(name);
    if (value) io.mask(value);
  }
  for (const name of ['SVC_TOKEN', 'GITHUB_TOKEN']) {
    const value = process.env[name]?.trim();
    if (value) io.mask(value);
  }
}
