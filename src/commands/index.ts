/**
 * The registry: the one list of the commands. main, post, the root action's "not used by this
 * command" warning, the pull-request comment, scripts/build/main.mjs (an entrypoint per command) and
 * scripts/generate/main.ts (every action.yml, the README's tables) all read it. Adding a command is one
 * new module beside this file and one line here.
 */
import { readFileSync } from 'node:fs';
import type { ActionIO } from '../runner/io.js';
import { didYouMean, shown } from '../inputs/parsers.js';
import { InputError, secretValues, type InputSource, type InputSpec } from '../inputs/table.js';
import type { Command } from './command.js';
import { isLoopbackHost } from '../service/loopback.js';
import { runWorkflow } from './run-workflow.js';
import { waitForRun } from './wait-for-run.js';
import { startDeviceSession } from './start-device-session.js';
import { waitForDeviceSession } from './wait-for-device-session.js';
import { stopDeviceSession } from './stop-device-session.js';
import { verifyWebhook } from './verify-webhook.js';
import { syncStatusesCommand } from './sync-statuses.js';

export const COMMANDS = {
  'run-workflow': runWorkflow,
  'wait-for-run': waitForRun,
  'start-device-session': startDeviceSession,
  'wait-for-device-session': waitForDeviceSession,
  'stop-device-session': stopDeviceSession,
  'verify-webhook': verifyWebhook,
  'sync-statuses': syncStatusesCommand,
} satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

/**
 * The command whose action has a post step, as its definition says (`post: true`): the post step
 * masks its secret inputs, reads its inputs as its main step read them, and writes its comment.
 * The registry holds one such command (__tests__/sessions/post.test.ts).
 */
export function postCommand(): CommandName {
  const withPost = COMMAND_NAMES.filter((name) => COMMANDS[name].post);
  if (withPost.length !== 1) throw new Error(`One command has a post step, not ${withPost.length}.`);
  return withPost[0];
}

/** The runner's side of InputSource: inputs read raw (the tables trim where they should). */
export function inputSource(io: Pick<ActionIO, 'getInput'>): InputSource {
  return {
    input: (name) => io.getInput(name),
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
    // The variable @actions/core reads the input from; the runner sets one for every declared input.
    given: (name) => process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] !== undefined,
  };
}

/** The root action's `command` input. */
export function readCommand(source: InputSource): CommandName {
  const value = source.input('command').trim();
  if ((COMMAND_NAMES as string[]).includes(value)) return value as CommandName;
  const problem =
    value === ''
      ? `\`command\` is required; allowed: ${COMMAND_NAMES.join(', ')}.`
      : `\`command\` is ${shown(value)}; allowed: ${COMMAND_NAMES.join(', ')}.${didYouMean(value, COMMAND_NAMES)}`;
  throw new InputError([problem]);
}

/**
 * The default the root action.yml declares for an input: one only where every command that reads it
 * agrees on it (otherwise each command applies its own). scripts/generate/main.ts writes it, and the
 * unused-input warning knows a value equal to it is the runner's, not the user's choice.
 */
export function rootDefault(name: string): string | undefined {
  const variants = allInputs().get(name) ?? [];
  const defaults = new Set(variants.map((spec) => spec.default ?? spec.runnerDefault));
  return defaults.size === 1 ? [...defaults][0] : undefined;
}

/** Inputs the root action was given that `command` does not read. Only values the user chose count. */
export function unusedInputWarnings(command: CommandName, source: InputSource): string[] {
  const used = new Set(Object.keys(COMMANDS[command].inputs));
  const warnings: string[] = [];
  for (const name of allInputs().keys()) {
    if (used.has(name)) continue;
    const value = source.input(name).trim();
    const fallback = rootDefault(name);
    // An expression default (`${{ github.token }}`) arrives evaluated: any value may be the runner's.
    if (value === '' || value === fallback || fallback?.startsWith('${{')) continue;
    warnings.push(`Input \`${name}\` is not used by ${command}; it is ignored.`);
  }
  return warnings;
}

/** Every input name of every command, with the spec each command gives it. */
export function allInputs(): Map<string, InputSpec[]> {
  const inputs = new Map<string, InputSpec[]>();
  for (const command of Object.values(COMMANDS) as Command[])
    for (const [name, input] of Object.entries(command.inputs))
      inputs.set(name, [...(inputs.get(name) ?? []), input]);
  return inputs;
}

/**
 * Masks every input of `command` that may hold a secret, and its environment fallback (every
 * command's when the command is not known yet): the first thing main and post do, before anything
 * is printed. Which inputs are secret is said once, in the input tables.
 */
export function maskSecretInputs(io: Pick<ActionIO, 'getInput' | 'mask'>, command?: CommandName): void {
  const commands = command ? [COMMANDS[command]] : (Object.values(COMMANDS) as Command[]);
  const source = inputSource(io);
  for (const secret of commands.flatMap((each) => secretValues(each.inputs, source))) io.mask(secret);
}

/** A token sent in clear over the network deserves a warning (loopback is fine: the simulator). */
export function transportWarnings(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return [
      `\`base-url\` uses plain http to ${url.host}: the access token travels unencrypted. Use https unless this network is private to the runner.`,
    ];
  return [];
}
