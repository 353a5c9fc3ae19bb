/**
 * Everything the action writes goes through one ActionIO: log lines, annotations, outputs,
 * exported variables, state and the job summary. That gives one place for the two rules that must
 * hold everywhere: registered secrets never appear (they are masked first, then redacted from any
 * text as a second line of defence) and no line from outside can act as a workflow command.
 * Commands receive an ActionIO; only createCoreIO() touches @actions/core.
 */
import * as core from './actions-core.js';
import { neutraliseLines } from './text.js';

export interface ActionIO {
  info(message: string): void;
  warning(message: string): void;
  /** An error annotation; does not by itself fail the step. */
  error(message: string): void;
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
}

/** Secrets registered in this process, longest first so a secret containing another is fully hidden. */
export class SecretRegistry {
  private readonly secrets: string[] = [];

  add(secret: string): boolean {
    if (!secret || this.secrets.includes(secret)) return false;
    this.secrets.push(secret);
    this.secrets.sort((a, b) => b.length - a.length);
    return true;
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join('***');
    return result;
  }
}

export function createCoreIO(): ActionIO {
  const registry = new SecretRegistry();
  const safe = (message: string): string => neutraliseLines(registry.redact(message));
  return {
    info: (message) => core.info(safe(message)),
    // Annotations are escaped by @actions/core (%, CR, LF), so they cannot start a command either.
    warning: (message) => core.warning(registry.redact(message)),
    error: (message) => core.error(registry.redact(message)),
    notice: (message) => core.notice(registry.redact(message)),
    debug: (message) => core.debug(registry.redact(message)),
    mask: (secret) => {
      // Each line of a multi-line secret is masked on its own by the runner; register the whole too.
      for (const part of [secret, ...secret.split(/\r?\n/)]) {
        if (part.trim() && registry.add(part)) core.setSecret(part);
      }
    },
    setOutput: (name, value) => core.setOutput(name, value),
    exportVariable: (name, value) => core.exportVariable(name, value),
    saveState: (name, value) => core.saveState(name, value),
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      await core.summary.addRaw(registry.redact(markdown), true).write();
    },
    redact: (text) => registry.redact(text),
  };
}
