/**
 * What a step exports to `$GITHUB_ENV` for the later steps of its job, bounded. Linux refuses an
 * environment string over 128 KiB (`E2BIG`), and the runner gives every later step of the job, the
 * post step included, every variable exported: one value that large keeps all of them from starting,
 * and the session the post step should stop keeps running. A value over MAX_EXPORTED_BYTES is left
 * to its step output, with a warning that names both.
 */
import type { ActionIO } from '../runner/io.js';
import { outputOfVariable } from './connection.js';
import { notExportedWarning } from './report/warnings.js';

/** The most one exported variable may hold (name, `=` and value, in UTF-8 bytes). */
const MAX_EXPORTED_BYTES = 32 * 1024;

/** Exports each variable that fits, warns for each that does not, and says which were exported. */
export function exportForLaterSteps(io: ActionIO, variables: Array<[string, string]>): void {
  const exported: string[] = [];
  for (const [name, value] of variables) {
    const bytes = Buffer.byteLength(`${name}=${value}`);
    if (bytes > MAX_EXPORTED_BYTES) {
      const output = outputOfVariable(name);
      io.warning(notExportedWarning(name, bytes, MAX_EXPORTED_BYTES, output));
      continue;
    }
    io.exportVariable(name, value);
    exported.push(name);
  }
  io.info(`Exported for later steps: ${exported.join(', ')}`);
}
