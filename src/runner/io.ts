/**
 * Everything the action reads from and writes to the runner goes through one ActionIO: inputs,
 * state, log lines, annotations, outputs, exported variables and the job summary. `@actions/core`
 * writes all of it; this is the one module that imports it. The seam adds the two rules that must
 * hold everywhere: registered secrets never appear (masked with the runner first, then redacted
 * from any text as a second line of defence) and no text from elsewhere can act as a workflow
 * command (see text/neutralise.ts). Tests use the recording IO in testkit/world/io.ts.
 */
import * as core from '@actions/core';
import { neutraliseLines } from '../text/neutralise.js';
import { CUT_MARK } from '../text/one-line.js';
import { base64Forms, decodedViews } from './secret-forms.js';

export interface ActionIO {
  /** An input as the runner passed it (`INPUT_<NAME>`), untrimmed; '' when unset. */
  getInput(name: string): string;
  /** State the main step saved (`STATE_<name>`); '' when unset. */
  getState(name: string): string;
  /** A log line (or several); text from elsewhere in it is printed as text, never obeyed. */
  info(message: string): void;
  warning(message: string): void;
  /** An error annotation; does not by itself fail the step. */
  error(message: string): void;
  /** An error annotation that fails the step (exit code 1). */
  setFailed(message: string): void;
  notice(message: string): void;
  debug(message: string): void;
  /** Registers a secret with the runner (`::add-mask::`) before it is used anywhere. */
  mask(secret: string): void;
  setOutput(name: string, value: string): void;
  exportVariable(name: string, value: string): void;
  saveState(name: string, value: string): void;
  appendSummary(markdown: string): Promise<void>;
  /** Replaces every registered secret in `text` with `***`. */
  redact(text: string): string;
  /** Whether `text` holds a registered secret in any form: whole, or encoded (see secret-forms.ts). */
  holdsSecret(text: string): boolean;
}

/** Secrets registered in this process, longest first so a secret containing another is fully hidden. */
export class SecretRegistry {
  private readonly secrets: string[] = [];
  /** For each secret with spaces in it: the starts a cut between its words can leave (see below). */
  private readonly partials = new Map<string, string[]>();

  add(secret: string): boolean {
    if (!secret || this.secrets.includes(secret)) return false;
    this.secrets.push(secret);
    this.secrets.sort((a, b) => b.length - a.length);
    this.partials.set(secret, partialStarts(secret));
    return true;
  }

  /** Whether `text` holds a secret as it is, in any decoding of it, or base64-encoded. */
  holdsSecret(text: string): boolean {
    const views = decodedViews(text);
    return this.secrets.some(
      (secret) =>
        views.some((view) => view.includes(secret)) ||
        base64Forms(secret).some((form) => text.includes(form)),
    );
  }

  /** Linear in the text for each secret: a few searches, whatever the secret's length. */
  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) {
      if (result.includes(secret)) result = result.split(secret).join('***');
      // Text shortened before it got here ends in ` …` after a whole word (oneLine in text/one-line.ts
      // never cuts inside one): a cut between the words of a secret leaves its first words behind,
      // which no whole-value match finds. Such a start is hidden too.
      if (!result.includes(CUT_MARK)) continue;
      for (const start of this.partials.get(secret) ?? [])
        if (result.includes(start)) result = result.split(start).join(`*** ${CUT_MARK}`);
    }
    return result;
  }
}

/** The shortest start of a secret worth hiding at a cut: shorter ones are common text. */
const MIN_PARTIAL = 4;
/** Cuts are made within at most this many characters (the longest text shortened is shorter). */
const MAX_PARTIAL = 4096;
/** A secret with more spaces than this in its start is prose: its later word boundaries are not tried. */
const MAX_PARTIALS = 64;

/**
 * `first words …` for each word boundary in the start of `secret`, longest first: what oneLine
 * leaves of a text cut between two of its words. A secret without a space (a token) has none.
 */
function partialStarts(secret: string): string[] {
  const starts: string[] = [];
  const head = secret.slice(0, MAX_PARTIAL);
  for (const match of head.matchAll(/\S\s/g)) {
    const start = head.slice(0, match.index + 1);
    if (start.trim().length >= MIN_PARTIAL) starts.push(`${start} ${CUT_MARK}`);
    if (starts.length >= MAX_PARTIALS) break;
  }
  return starts.reverse();
}

/**
 * Every string inside `value` (objects and arrays walked, others kept) with `redact` applied: for
 * text from elsewhere that is rendered (Markdown escaping would otherwise change a secret's
 * characters, `_` into `\_`, so that redacting the rendered text no longer finds it).
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, redact)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactDeep(item, redact)]),
    ) as T;
  return value;
}

/**
 * The parts of a secret to register: the whole, and each line of a multi-line secret, because the
 * runner masks line by line (a log line never holds a multi-line value whole).
 */
export function secretParts(secret: string): string[] {
  return [secret, ...secret.split(/\r\n|\r|\n/)].filter((part) => part.trim() !== '');
}

/**
 * Control characters but the line feed and the tab: raw escape sequences (colours, cursor moves,
 * a terminal title), a carriage return that overwrites a line, the Unicode line separators. No
 * message of the action holds one on purpose; text from elsewhere that does shows a space there.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
/**
 * In an annotation @actions/core escapes CR and LF itself and the runner shows the rest as data:
 * only what drives a terminal (ESC, the C1 CSI, other C0 controls, DEL) is taken out there.
 */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u009b]/g;

export function createCoreIO(): ActionIO {
  const registry = new SecretRegistry();
  const redact = (text: string): string => registry.redact(text);
  /** Every log line and annotation: secrets out first, then what a log must not carry raw. */
  const forLog = (text: string): string => redact(text).replace(UNPRINTABLE, ' ');
  const forAnnotation = (text: string): string => redact(text).replace(TERMINAL_CONTROL, ' ');
  return {
    getInput: (name) => core.getInput(name, { trimWhitespace: false }),
    getState: (name) => core.getState(name),
    // info() writes its text as it is, so this is where text from elsewhere must be neutralised.
    info: (message) => core.info(neutraliseLines(forLog(message))),
    // Annotations, debug lines and group titles are the data of the action's own `::name::data`
    // command, with CR and LF escaped by @actions/core: the runner reads the line as that command
    // (it tries `::` first and `##[` only when that fails), so nothing inside the data is obeyed.
    warning: (message) => core.warning(forAnnotation(message)),
    error: (message) => core.error(forAnnotation(message)),
    setFailed: (message) => {
      core.setFailed(forAnnotation(message));
      // @actions/core sets exit code 1 itself; @github/local-action's stand-in for it does not.
      process.exitCode = 1;
    },
    notice: (message) => core.notice(forAnnotation(message)),
    debug: (message) => core.debug(forAnnotation(message)),
    mask: (secret) => {
      for (const part of secretParts(secret)) if (registry.add(part)) core.setSecret(part);
    },
    setOutput: (name, value) => core.setOutput(name, value),
    exportVariable: (name, value) => core.exportVariable(name, value),
    saveState: (name, value) => core.saveState(name, value),
    appendSummary: async (markdown) => {
      // Outside a runner (no summary file) there is nowhere to write it; that is not an error.
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      await core.summary.addRaw(redact(markdown), true).write();
    },
    redact,
    holdsSecret: (text) => registry.holdsSecret(text),
  };
}
