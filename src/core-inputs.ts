/** The runner's side of InputSource: inputs read raw through ActionIO (inputs.ts trims where it should). */
import { readFileSync } from 'node:fs';
import type { InputSource } from './inputs.js';
import type { ActionIO } from './io.js';

export function coreInputSource(io: Pick<ActionIO, 'getInput'>): InputSource {
  return {
    input: (name) => io.getInput(name),
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
  };
}

/**
 * Masks every input that may hold a secret, and the environment fallbacks of `token` and
 * `github-token`, whatever the command: the first thing main and post do, before anything is printed.
 */
export function maskSecretInputs(io: Pick<ActionIO, 'getInput' | 'mask'>): void {
  for (const name of ['token', 'webhook-secret', 'github-token']) {
    const value = io.getInput(name).trim();
    if (value) io.mask(value);
  }
  for (const name of ['SVC_TOKEN', 'GITHUB_TOKEN']) {
    const value = process.env[name]?.trim();
    if (value) io.mask(value);
  }
}
