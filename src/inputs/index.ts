/**
 * The six commands and their input tables, in one place: reading a command's settings, the root
 * action's "not used by this command" warning, and (through scripts/generate.ts) every action.yml
 * and the README's tables all come from COMMAND_SPECS.
 */
import { didYouMean, shown } from './parsers.js';
import { isLoopbackHost } from '../loopback.js';
import { InputError, secretValues, type CommandSpec, type InputSource } from './table.js';
import { readRunWorkflow, runWorkflow, type RunWorkflowSettings } from './run-workflow.js';
import { readWaitForRun, waitForRun, type WaitForRunSettings } from './wait-for-run.js';
import {
  readStartDeviceSession,
  startDeviceSession,
  type StartSessionSettings,
} from './start-device-session.js';
import {
  readWaitForDeviceSession,
  waitForDeviceSession,
  type WaitForSessionSettings,
} from './wait-for-device-session.js';
import { readStopDeviceSession, stopDeviceSession, type StopSessionSettings } from './stop-device-session.js';
import { readVerifyWebhook, verifyWebhook, type VerifyWebhookSettings } from './verify-webhook.js';

export { InputError, type InputSource } from './table.js';
export type { ApiSettings } from './table.js';
/** `comment: true` and the token to post the comment with. */
export type CommentSettings = { githubToken: string };
export type {
  RunWorkflowSettings,
  WaitForRunSettings,
  StartSessionSettings,
  WaitForSessionSettings,
  StopSessionSettings,
  VerifyWebhookSettings,
};

export const COMMAND_SPECS = {
  'run-workflow': runWorkflow,
  'wait-for-run': waitForRun,
  'start-device-session': startDeviceSession,
  'wait-for-device-session': waitForDeviceSession,
  'stop-device-session': stopDeviceSession,
  'verify-webhook': verifyWebhook,
} satisfies Record<string, CommandSpec>;

export type Command = keyof typeof COMMAND_SPECS;
export const COMMANDS = Object.keys(COMMAND_SPECS) as Command[];

export type Settings =
  | RunWorkflowSettings
  | WaitForRunSettings
  | StartSessionSettings
  | WaitForSessionSettings
  | StopSessionSettings
  | VerifyWebhookSettings;

const READERS: { [C in Command]: (source: InputSource) => Extract<Settings, { command: C }> } = {
  'run-workflow': readRunWorkflow,
  'wait-for-run': readWaitForRun,
  'start-device-session': readStartDeviceSession,
  'wait-for-device-session': readWaitForDeviceSession,
  'stop-device-session': readStopDeviceSession,
  'verify-webhook': readVerifyWebhook,
};

/** The root action's `command` input. */
export function readCommand(source: InputSource): Command {
  const value = source.input('command').trim();
  if ((COMMANDS as string[]).includes(value)) return value as Command;
  const problem =
    value === ''
      ? `\`command\` is required; allowed: ${COMMANDS.join(', ')}.`
      : `\`command\` is ${shown(value)}; allowed: ${COMMANDS.join(', ')}.${didYouMean(value, COMMANDS)}`;
  throw new InputError([problem]);
}

/** Reads and validates every input of `command`; throws InputError listing every problem. */
export function readSettings(
  command: Command,
  source: InputSource,
): { settings: Settings; warnings: string[] } {
  const settings = READERS[command](source);
  return { settings, warnings: transportWarnings(settings) };
}

/**
 * Inputs the root action was given that `command` does not read. Only values the user chose count:
 * the runner fills in the defaults the root action.yml declares (one only where every command that
 * reads the input agrees on it, see scripts/generate.ts), so a value equal to that default is not a
 * choice, nor is an expression default such as github-token's.
 */
export function unusedInputWarnings(command: Command, source: InputSource): string[] {
  const used = new Set(Object.keys(COMMAND_SPECS[command].inputs));
  const warnings: string[] = [];
  for (const [name, variants] of allInputs()) {
    if (used.has(name)) continue;
    const value = source.input(name).trim();
    const defaults = new Set(variants.map((spec) => spec.default));
    const rootDefault = defaults.size === 1 ? [...defaults][0] : undefined;
    if (value === '' || value === rootDefault || rootDefault?.startsWith('${{')) continue;
    warnings.push(`Input \`${name}\` is not used by ${command}; it is ignored.`);
  }
  return warnings;
}

/** Every input name of every command, with the spec each command gives it. */
export function allInputs(): Map<string, CommandSpec['inputs'][string][]> {
  const inputs = new Map<string, CommandSpec['inputs'][string][]>();
  for (const spec of Object.values(COMMAND_SPECS) as CommandSpec[])
    for (const [name, input] of Object.entries(spec.inputs))
      inputs.set(name, [...(inputs.get(name) ?? []), input]);
  return inputs;
}

/** Secrets among `command`'s inputs (all commands' when unknown), to mask before anything is printed. */
export function secretInputs(command: Command | undefined, source: InputSource): string[] {
  const specs = command ? [COMMAND_SPECS[command]] : (Object.values(COMMAND_SPECS) as CommandSpec[]);
  return specs.flatMap((spec) => secretValues(spec.inputs, source));
}

/** A token sent in clear over the network deserves a warning (loopback is fine: the simulator). */
function transportWarnings(settings: Settings): string[] {
  if (!('api' in settings)) return [];
  const url = new URL(settings.api.baseUrl);
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === 'http:' && !loopback)
    return [
      `\`base-url\` uses plain http to ${url.host}: the access token travels unencrypted. Use https unless this network is private to the runner.`,
    ];
  return [];
}
