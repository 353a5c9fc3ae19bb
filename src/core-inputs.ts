/** The runner's side of InputSource: inputs read raw through ActionIO (the input tables trim where they should). */
import { readFileSync } from 'node:fs';
import { secretInputs, type Command, type InputSource } from './inputs/index.js';
import type { ActionIO } from './io.js';

export function coreInputSource(io: Pick<ActionIO, 'getInput'>): InputSource {
  return {
    input: (name) => io.getInput(name),
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
  };
}

/**
 * Masks every input of `command` that may hold a secret, and its environment fallback (every
 * command's when the command is not known yet): the first thing main and post do, before anything
 * is printed. Which inputs are secret is said once, in the input tables.
 */
export function maskSecretInputs(io: Pick<ActionIO, 'getInput' | 'mask'>, command?: Command): void {
  for (const secret of secretInputs(command, coreInputSource(io))) io.mask(secret);
}
