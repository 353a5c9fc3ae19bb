/**
 * The part of `@actions/core` (3.0.1) the action uses, written out with the same output byte for
 * byte: workflow commands on stdout (`::name props::data`, escaped the same way), file commands
 * (`GITHUB_OUTPUT`, `GITHUB_ENV`, `GITHUB_STATE`: `name<<ghadelimiter_<uuid>`), inputs, state and
 * the job summary.
 *
 * Why not the library itself: `@actions/core` statically imports `@actions/http-client` (for OIDC),
 * which imports undici, plus `@actions/exec`; bundled, that is about 0.5 MB parsed and evaluated on
 * every start and about 60 ms of start-up on Node 24, more than bare Node itself (`npm run bench`).
 * None of it is needed to write these few commands.
 */
import { appendFileSync, constants, existsSync, promises as fsPromises } from 'node:fs';
import { EOL } from 'node:os';

// node:crypto and fs.promises load on first use, after the first request is on its way: loading
// them up front costs several milliseconds of start-up (each pulls in other built-in modules).
const randomUUID = (): string =>
  (process.getBuiltinModule('node:crypto') as typeof import('node:crypto')).randomUUID();

/** `toCommandValue`: strings as they are, null/undefined as '', anything else as JSON. */
function toCommandValue(input: unknown): string {
  if (input === null || input === undefined) return '';
  if (typeof input === 'string' || input instanceof String) return input as string;
  return JSON.stringify(input);
}

function escapeData(value: unknown): string {
  return toCommandValue(value).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(value: unknown): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function issueCommand(command: string, properties: Record<string, string>, message: unknown): void {
  const entries = Object.entries(properties);
  const props = entries
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  process.stdout.write(`::${command}${entries.length > 0 ? ` ${props}` : ''}::${escapeData(message)}${EOL}`);
}

function issueFileCommand(command: 'OUTPUT' | 'ENV' | 'STATE', message: string): void {
  const filePath = process.env[`GITHUB_${command}`];
  if (!filePath) throw new Error(`Unable to find environment variable for file command ${command}`);
  if (!existsSync(filePath)) throw new Error(`Missing file at path: ${filePath}`);
  appendFileSync(filePath, `${message}${EOL}`, { encoding: 'utf8' });
}

function prepareKeyValueMessage(key: string, value: unknown): string {
  const delimiter = `ghadelimiter_${randomUUID()}`;
  const converted = toCommandValue(value);
  if (key.includes(delimiter))
    throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
  if (converted.includes(delimiter))
    throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
  return `${key}<<${delimiter}${EOL}${converted}${EOL}${delimiter}`;
}

export function getInput(name: string, options?: { required?: boolean; trimWhitespace?: boolean }): string {
  const value = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
  if (options?.required && !value) throw new Error(`Input required and not supplied: ${name}`);
  return options?.trimWhitespace === false ? value : value.trim();
}

export function getState(name: string): string {
  return process.env[`STATE_${name}`] || '';
}

export function setOutput(name: string, value: unknown): void {
  if (process.env['GITHUB_OUTPUT']) return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
  process.stdout.write(EOL);
  issueCommand('set-output', { name }, toCommandValue(value));
}

export function exportVariable(name: string, value: unknown): void {
  const converted = toCommandValue(value);
  process.env[name] = converted;
  if (process.env['GITHUB_ENV']) return issueFileCommand('ENV', prepareKeyValueMessage(name, value));
  issueCommand('set-env', { name }, converted);
}

export function saveState(name: string, value: unknown): void {
  // Also readable by getState() in this process: @github/local-action runs the main and the post
  // entrypoints in one process (`--post src/post.ts`). On a runner they are separate processes, so
  // this changes nothing there.
  process.env[`STATE_${name}`] = toCommandValue(value);
  if (process.env['GITHUB_STATE']) return issueFileCommand('STATE', prepareKeyValueMessage(name, value));
  issueCommand('save-state', { name }, toCommandValue(value));
}

export function setSecret(secret: string): void {
  issueCommand('add-mask', {}, secret);
}

export function setFailed(message: string | Error): void {
  process.exitCode = 1;
  error(message);
}

export function info(message: string): void {
  process.stdout.write(message + EOL);
}

export function debug(message: string): void {
  issueCommand('debug', {}, message);
}

export function error(message: string | Error): void {
  issueCommand('error', {}, message instanceof Error ? message.toString() : message);
}

export function warning(message: string | Error): void {
  issueCommand('warning', {}, message instanceof Error ? message.toString() : message);
}

export function notice(message: string | Error): void {
  issueCommand('notice', {}, message instanceof Error ? message.toString() : message);
}

/** `core.summary`, the two methods used: `addRaw(text, addEOL)` then `write()` (append). */
class Summary {
  private buffer = '';

  addRaw(text: string, addEOL = false): this {
    this.buffer += text;
    if (addEOL) this.buffer += EOL;
    return this;
  }

  async write(): Promise<this> {
    const filePath = process.env['GITHUB_STEP_SUMMARY'];
    if (!filePath) {
      throw new Error(
        'Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.',
      );
    }
    try {
      await fsPromises.access(filePath, constants.R_OK | constants.W_OK);
    } catch {
      throw new Error(
        `Unable to access summary file: '${filePath}'. Check if the file has correct read/write permissions.`,
      );
    }
    await fsPromises.appendFile(filePath, this.buffer, { encoding: 'utf8' });
    this.buffer = '';
    return this;
  }
}

export const summary = new Summary();
