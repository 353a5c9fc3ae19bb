/**
 * How the GitHub runner reads a step's stdout (actions/runner: `ProcessInvoker` splits the stream,
 * `OutputManager.OnDataReceived` hands each line to `ActionCommandManager.TryProcessCommand`, which
 * parses with `ActionCommand.TryParseV2` and then `ActionCommand.TryParse`). The demo renders logs
 * with it and the security tests check every printed line with it, so both see the commands the
 * runner would really obey, not the ones a simpler reading expects.
 *
 * What it models, each a way text from elsewhere has become a command:
 * - lines end at `\r\n`, `\r` or `\n` (StreamReader.ReadLine), so a lone CR starts a new line;
 * - `::name props::data` counts after trimming leading white space as .NET defines it (U+0085,
 *   U+00A0, U+3000 and the rest, not only what JavaScript's `\s` matches);
 * - when that fails, the legacy `##[name k=v;k=v]data` counts wherever its first `##[` is in the line;
 * - command names compare case-insensitively; unknown names are not commands;
 * - `stop-commands` ignores every later command until the line whose command is its token.
 *
 * The runner compares with the current culture (ICU), which skips default-ignorable characters
 * (U+200B, U+00AD, ...) inside `::` and `##[`. It then cuts the name at a fixed offset (2 or 3
 * characters after the match), so such a match never yields a known name; `ignorables: 'strip'`
 * drops those characters first, a stricter reading for tests that must not under-count.
 */

/** Commands the runner knows (ActionCommandManager's extensions plus stop-commands). */
export const RUNNER_COMMANDS: ReadonlySet<string> = new Set([
  'add-mask',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
  'save-state',
  'set-output',
  'set-env',
  'add-path',
  'stop-commands',
]);

export interface RunnerCommand {
  /** Lower-cased command name (the runner compares names ignoring case). */
  name: string;
  properties: Record<string, string>;
  data: string;
  format: '::' | '##[';
  /** The line as the step printed it. */
  line: string;
  /** Index of the line among all lines of the output. */
  index: number;
}

export interface RunnerLine {
  /** The line as the step printed it. */
  text: string;
  /** The command the runner obeyed on this line, if any (then the line itself is not shown). */
  command?: RunnerCommand;
  /** The values masked when this line was read (a mask hides what comes after it, not before). */
  masks: readonly string[];
}

export interface RunnerReading {
  lines: RunnerLine[];
  /** Every command obeyed, in order (stop-commands and the resume token included). */
  commands: RunnerCommand[];
  /** Values registered as secrets (add-mask data, each of its lines trimmed, stop tokens > 6 chars). */
  masks: string[];
  /** True when output ended while commands were stopped. */
  stopped: boolean;
}

export interface ReadOptions {
  /** 'strip': drop default-ignorable and control characters before parsing (see above). */
  ignorables?: 'keep' | 'strip';
}

/** The characters .NET's Char.IsWhiteSpace accepts, which String.TrimStart() removes. */
const DOTNET_LEADING_WHITE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu;

/** Lines as StreamReader.ReadLine yields them: `\r\n`, `\r` and `\n` end a line; no empty last line. */
export function runnerLines(output: string): string[] {
  const lines = output.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `ActionCommand.TryParseV2`: `::name props::data` after .NET's TrimStart. */
export function parseV2(
  line: string,
  known: ReadonlySet<string>,
): Omit<RunnerCommand, 'line' | 'index'> | undefined {
  const message = line.replace(DOTNET_LEADING_WHITE, '');
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!known.has(name.toLowerCase())) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .trim()
      .split(',')
      .filter(Boolean)) {
      const at = pair.indexOf('=');
      // .NET's Split('=', 2, RemoveEmptyEntries): `=v` and `k=` give one part, so no property.
      if (at > 0 && at < pair.length - 1)
        properties[pair.slice(0, at)] = unescapeProperty(pair.slice(at + 1));
    }
  }
  return { name: name.toLowerCase(), properties, data: unescapeData(message.slice(end + 2)), format: '::' };
}

/** `ActionCommand.TryParse`: the first `##[` anywhere in the line, then up to the next `]`. */
export function parseLegacy(
  line: string,
  known: ReadonlySet<string>,
): Omit<RunnerCommand, 'line' | 'index'> | undefined {
  const prefix = line.indexOf('##[');
  if (prefix < 0) return undefined;
  const close = line.indexOf(']', prefix);
  if (close < 0) return undefined;
  const info = line.slice(prefix + 3, close);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!known.has(name.toLowerCase())) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .split(';')
      .filter(Boolean)) {
      const at = pair.indexOf('=');
      if (at > 0 && at < pair.length - 1) properties[pair.slice(0, at)] = unescapeLegacy(pair.slice(at + 1));
    }
  }
  return { name: name.toLowerCase(), properties, data: unescapeLegacy(line.slice(close + 1)), format: '##[' };
}

/** Reads a whole output the way the runner does, line by line, with its stop-commands state. */
export function readRunnerOutput(output: string, options: ReadOptions = {}): RunnerReading {
  const known = new Set(RUNNER_COMMANDS);
  const reading: RunnerReading = { lines: [], commands: [], masks: [], stopped: false };
  let stopToken: string | undefined;
  let masks: readonly string[] = [];
  const addMask = (value: string): void => {
    if (!masks.includes(value)) masks = [...masks, value].sort((a, b) => b.length - a.length);
  };
  runnerLines(output).forEach((text, index) => {
    const parsedText = options.ignorables === 'strip' ? text.replace(IGNORABLE, '') : text;
    const parsed = parsedText ? (parseV2(parsedText, known) ?? parseLegacy(parsedText, known)) : undefined;
    if (!parsed) return reading.lines.push({ text, masks });
    const command: RunnerCommand = { ...parsed, line: text, index };
    if (stopToken !== undefined) {
      if (command.name !== stopToken.toLowerCase()) return reading.lines.push({ text, masks });
      known.delete(stopToken.toLowerCase());
      stopToken = undefined;
      reading.stopped = false;
    } else if (command.name === 'stop-commands') {
      // The runner refuses an empty token or one that names a command (unless told to allow it).
      if (!command.data || known.has(command.data.toLowerCase()) || /^pause-logging$/i.test(command.data))
        return reading.lines.push({ text, masks });
      stopToken = command.data;
      known.add(stopToken.toLowerCase());
      reading.stopped = true;
      if (stopToken.length > 6) addMask(stopToken);
    } else if (command.name === 'add-mask' && command.data.trim()) {
      addMask(command.data);
      for (const part of command.data.split(/[\r\n]+/)) if (part.trim()) addMask(part.trim());
    }
    reading.commands.push(command);
    reading.lines.push({ text, command, masks });
  });
  reading.masks = [...masks];
  return reading;
}

/** Replaces every registered secret with `***`, longest first, as the runner's secret masker does. */
export function maskText(masks: readonly string[], text: string): string {
  return masks.reduce((masked, secret) => masked.split(secret).join('***'), text);
}

/** The runner's mappings applied in its order (so `%253A` stays `%3A`, as it does there). */
function unescapeData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

function unescapeProperty(text: string): string {
  return text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

/** The legacy format's mappings, applied in the runner's order (`;`, CR, LF, `]`, `%`). */
function unescapeLegacy(text: string): string {
  return text
    .replace(/%3B/g, ';')
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%5D/g, ']')
    .replace(/%25/g, '%');
}
