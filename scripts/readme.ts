/**
 * Keeps the README's reference parts generated from action.yml (and from the inputs each command
 * reads, in src/inputs.ts), so they can never drift from what the action declares:
 *
 *   <!-- usage:COMMAND:start --> … <!-- usage:COMMAND:end -->   a usage block per command
 *   <!-- inputs:start --> … <!-- inputs:end -->                 the table of inputs
 *   <!-- outputs:start --> … <!-- outputs:end -->               the table of outputs
 *
 * `node build/scripts/readme.js --check` exits 1 (and says which block) when README.md differs from
 * what action.yml gives; `--write` rewrites the blocks in place. Everything outside the markers is
 * left alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { COMMAND_INPUTS, COMMANDS, type Command } from '../src/inputs.js';

export const ACTION_REF = 'svc-actions/svc-action@v1';

export interface ActionMetadata {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

/** The repository root, from the source (scripts/) or the compiled (build/scripts/) location. */
export function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      readFileSync(join(dir, 'action.yml'));
      return dir;
    } catch {
      dir = dirname(dir);
    }
  }
  return process.cwd();
}

export function readMetadata(root = repositoryRoot()): ActionMetadata {
  const parsed = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as ActionMetadata;
  return { inputs: parsed.inputs ?? {}, outputs: parsed.outputs ?? {} };
}

/** Wraps text into `# ` comment lines of at most `width` characters. */
function comment(text: string, indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + 2 + line.length + 1 + word.length > width) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(`${indent}# ${line}`);
  return lines;
}

/** The description without the leading "`command`:" scope, which the usage block already gives. */
function forCommand(description: string): string {
  const rest = description.replace(/^(`[a-z-]+`(, `[a-z-]+`)*( \([a-z-]+\))?): /, '').trim();
  return /^[a-z]+\b(?!_)/.test(rest) ? rest.charAt(0).toUpperCase() + rest.slice(1) : rest;
}

/** A usage block for one command, like actions/checkout's: every input it reads, with its description. */
export function renderUsage(command: Command, metadata: ActionMetadata): string {
  const lines = ['```yaml', `- uses: ${ACTION_REF}`, '  with:'];
  lines.push(...comment(metadata.inputs.command.description, '    '), `    command: ${command}`, '');
  for (const name of COMMAND_INPUTS[command]) {
    const input = metadata.inputs[name];
    if (!input) throw new Error(`input \`${name}\` (read by ${command}) is not declared in action.yml`);
    lines.push(...comment(forCommand(input.description), '    '), `    ${name}: ''`, '');
  }
  lines.pop();
  lines.push('```');
  return lines.join('\n');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

export function renderInputsTable(metadata: ActionMetadata): string {
  const lines = ['| Input | Used by | Description |', '| --- | --- | --- |'];
  for (const [name, input] of Object.entries(metadata.inputs)) {
    const users =
      name === 'command'
        ? 'all (required)'
        : COMMANDS.filter((command) => COMMAND_INPUTS[command].includes(name))
            .map((command) => `\`${command}\``)
            .join(', ');
    lines.push(`| \`${name}\` | ${users} | ${cell(input.description)} |`);
  }
  return lines.join('\n');
}

export function renderOutputsTable(metadata: ActionMetadata): string {
  const lines = ['| Output | Description |', '| --- | --- |'];
  for (const [name, output] of Object.entries(metadata.outputs)) {
    lines.push(`| \`${name}\` | ${cell(output.description)} |`);
  }
  return lines.join('\n');
}

/** Every generated block: marker name → content. */
export function generatedBlocks(metadata: ActionMetadata): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const command of COMMANDS) blocks.set(`usage:${command}`, renderUsage(command, metadata));
  blocks.set('inputs', renderInputsTable(metadata));
  blocks.set('outputs', renderOutputsTable(metadata));
  return blocks;
}

export interface ReadmeCheck {
  updated: string;
  /** Human-readable problems: missing markers, stale blocks. */
  problems: string[];
}

/** Replaces every generated block in `readme`; reports blocks that are missing or were stale. */
export function updateReadme(readme: string, metadata: ActionMetadata): ReadmeCheck {
  const problems: string[] = [];
  let updated = readme;
  for (const [name, content] of generatedBlocks(metadata)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = updated.indexOf(start);
    const to = updated.indexOf(end);
    if (from < 0 || to < from) {
      problems.push(`README.md has no ${start} … ${end} block`);
      continue;
    }
    const current = updated.slice(from + start.length, to);
    // Prettier would re-align the tables and re-wrap the blocks; the generator owns their layout.
    const wanted = `\n<!-- prettier-ignore-start -->\n${content}\n<!-- prettier-ignore-end -->\n`;
    if (current !== wanted) {
      problems.push(`the ${name} block of README.md does not match action.yml`);
      updated = updated.slice(0, from + start.length) + wanted + updated.slice(to);
    }
  }
  return { updated, problems };
}

function main(args: string[]): number {
  const root = repositoryRoot();
  const path = join(root, 'README.md');
  const { updated, problems } = updateReadme(readFileSync(path, 'utf8'), readMetadata(root));
  if (args.includes('--write')) {
    const missing = problems.filter((problem) => problem.includes('has no'));
    const changed = updated !== readFileSync(path, 'utf8');
    if (changed) writeFileSync(path, updated);
    for (const problem of missing) console.error(problem);
    console.log(changed ? 'README.md updated from action.yml.' : 'README.md was already up to date.');
    return missing.length ? 1 : 0;
  }
  if (args.includes('--check')) {
    for (const problem of problems) console.error(problem);
    if (problems.length) {
      console.error('Run `npm run build:tools && node build/scripts/readme.js --write` to update it.');
      return 1;
    }
    console.log('README.md matches action.yml.');
    return 0;
  }
  console.error('Usage: node build/scripts/readme.js --check | --write');
  return 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
