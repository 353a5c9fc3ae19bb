/**
 * The output writer (src/runner/outputs.ts): the one module that sets a step output. Every other
 * module of src/ writes through an OutputWriter typed on the names it may write; the type checks
 * below hold at `npm run typecheck` (a `@ts-expect-error` that is not an error fails it), the scan
 * holds at test time.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { outputWriter, writeRefusedInputs, type OutputWriter } from '../../src/runner/outputs.js';
import { COMMANDS } from '../../src/commands/index.js';
import { RUN_OUTPUTS } from '../../src/runs/run-outputs.js';
import { createTestIO } from '../../testkit/world/io.js';

const SRC = join(import.meta.dirname, '../../src');
/** The writer, and the ActionIO seam whose setOutput it calls. */
const ALLOWED = new Set(['runner/outputs.ts', 'runner/io.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('setting outputs', () => {
  it('no module of src/ but the writer and the ActionIO seam calls setOutput', () => {
    const callers = sources(SRC)
      .map((path) => relative(SRC, path).split('\\').join('/'))
      .filter((path) => !ALLOWED.has(path))
      .filter((path) => /\bsetOutput\s*\(/.test(readFileSync(join(SRC, path), 'utf8')));
    expect(callers).toEqual([]);
    // The scan sees the writer itself, so it would see any other caller.
    expect(readFileSync(join(SRC, 'runner/outputs.ts'), 'utf8')).toMatch(/\bsetOutput\s*\(/);
  });

  it('the writer sets the output and keeps what it wrote when asked', () => {
    const io = createTestIO();
    const written: Record<string, string> = {};
    const outputs = outputWriter(io, RUN_OUTPUTS, written);
    outputs.set('run-id', 'r1');
    outputs.set('outcome', 'success');
    expect(io.outputs).toEqual({ 'run-id': 'r1', outcome: 'success' });
    expect(written).toEqual(io.outputs);
  });

  it('refused inputs set each output set on every path, to its value for refused inputs', () => {
    const refused = Object.fromEntries(
      Object.entries(COMMANDS).map(([name, command]) => {
        const io = createTestIO();
        writeRefusedInputs(io, command.outputs);
        return [name, io.outputs];
      }),
    );
    expect(refused).toEqual({
      'run-workflow': { outcome: 'failure' },
      'wait-for-run': { outcome: 'failure' },
      'start-device-session': {},
      'wait-for-device-session': {},
      'stop-device-session': {},
      'verify-webhook': {},
      'sync-statuses': {},
    });
  });
});

// Type checks: compiled by `npm run typecheck`, never run.
function typeChecks(io: ReturnType<typeof createTestIO>): void {
  const wide = outputWriter(io, RUN_OUTPUTS);
  // A command's writer of its whole table stands in for a domain function's narrower one.
  const narrow: OutputWriter<'status' | 'run-url'> = wide;
  narrow.set('status', 'new');
  // @ts-expect-error a writer of 'status' and 'run-url' cannot write 'outcome'
  narrow.set('outcome', 'failure');
  // @ts-expect-error a domain function that writes more than the command declares does not get its writer
  const tooWide: OutputWriter<'status' | 'session-id'> = wide;
  // @ts-expect-error nor does one that writes a name no table has
  wide.set('no-such-output', '');
  void tooWide;
}
void typeChecks;
