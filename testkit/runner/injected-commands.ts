/**
 * Whether any line of a step's log could act as a workflow command, read with the runner-like parser
 * (commands.ts): lines end at CR too, `##[` counts anywhere in a line, `::` after .NET white space.
 * The security tests of both tiers use it (__tests__/security/, __tests__/e2e/security/).
 */
import { readRunnerOutput, type RunnerCommand } from './commands.js';

/** Workflow commands the action itself issues (through @actions/core). */
const OWN_COMMANDS = new Set(['add-mask', 'error', 'warning', 'notice', 'debug', 'group', 'endgroup']);

/**
 * Commands the runner would obey in `output` that the action did not mean to issue: any command
 * it never issues (save-state, stop-commands, set-output, ...), any in the legacy `##[` format or
 * not at the very start of its line (the action's own are `::name::` at column 0), and any own
 * command whose data was injected (an add-mask holding `marker`, or data starting with it). Read
 * twice: as the runner compares (ordinal), and with ICU-ignorable characters dropped.
 */
export function injectedCommands(output: string, marker: string): string[] {
  const injected = (command: RunnerCommand): boolean =>
    !OWN_COMMANDS.has(command.name) ||
    command.format !== '::' ||
    !command.line.startsWith('::') ||
    (command.name === 'add-mask' && command.data.includes(marker)) ||
    command.data.trimStart().startsWith(marker);
  const found = [
    ...readRunnerOutput(output).commands,
    ...readRunnerOutput(output, { ignorables: 'strip' }).commands,
  ].filter(injected);
  return [...new Set(found.map((command) => `${command.name} (${command.format}): ${command.line}`))];
}
