/**
 * An ActionIO for unit tests, the actions/typescript-action way: inputs and state are given, and
 * everything the code writes is recorded, so main, post and the commands can be tested without a
 * process or a runner. It keeps the real seam's rules that tests assert on: masked secrets are
 * redacted from every recorded line, and log lines pass through the same neutraliser.
 */
import { SecretRegistry, secretParts, type ActionIO } from '../../src/runner/io.js';
import { neutraliseLines } from '../../src/text/neutralise.js';

export type LogKind = 'info' | 'warning' | 'error' | 'notice' | 'debug' | 'group' | 'endgroup';

export interface RecordingIO extends ActionIO {
  /** Every line written, in order, as `{ kind, text }` (text already redacted). */
  log: Array<{ kind: LogKind; text: string }>;
  /** Values registered with mask(), in order. */
  masks: string[];
  outputs: Record<string, string>;
  exported: Record<string, string>;
  /** State saved with saveState() (readable with getState() too, as local-action does). */
  saved: Record<string, string>;
  summaries: string[];
  /** The log as text, one `kind: text` line each (info lines without a prefix). */
  text(): string;
}

export function createTestIO(
  options: { inputs?: Record<string, string>; state?: Record<string, string> } = {},
): RecordingIO {
  const registry = new SecretRegistry();
  const inputs = options.inputs ?? {};
  const state = { ...options.state };
  const redact = (text: string): string => registry.redact(text);
  const io: RecordingIO = {
    log: [],
    masks: [],
    outputs: {},
    exported: {},
    saved: {},
    summaries: [],
    text: () => io.log.map(({ kind, text }) => (kind === 'info' ? text : `${kind}: ${text}`)).join('\n'),
    getInput: (name) => inputs[name] ?? '',
    getState: (name) => state[name] ?? '',
    info: (message) => void io.log.push({ kind: 'info', text: neutraliseLines(redact(message)) }),
    warning: (message) => void io.log.push({ kind: 'warning', text: redact(message) }),
    error: (message) => void io.log.push({ kind: 'error', text: redact(message) }),
    // As @actions/core's setFailed: an error annotation and exit code 1.
    setFailed: (message) => {
      io.log.push({ kind: 'error', text: redact(message) });
      process.exitCode = 1;
    },
    notice: (message) => void io.log.push({ kind: 'notice', text: redact(message) }),
    debug: (message) => void io.log.push({ kind: 'debug', text: redact(message) }),
    mask: (secret) => {
      for (const part of secretParts(secret)) if (registry.add(part)) io.masks.push(part);
    },
    setOutput: (name, value) => void (io.outputs[name] = value),
    exportVariable: (name, value) => void (io.exported[name] = value),
    saveState: (name, value) => void ((io.saved[name] = value), (state[name] = value)),
    appendSummary: async (markdown) => void io.summaries.push(redact(markdown)),
    redact,
    holdsSecret: (text) => registry.holdsSecret(text),
  };
  return io;
}
