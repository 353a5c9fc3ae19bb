/**
 * One status reads the same everywhere (issue 32 item 7): the run's, the job's, the session's and the
 * webhook delivery's statuses take their icon from text/status.ts, and no other module keeps a table
 * of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '../../src/text/status.js';
import { ROOT } from '../../testkit/runner/step.js';

describe('status icons, in one place', () => {
  it.each([
    ['finished', '✅ finished'],
    ['errored', '❌ errored'],
    ['canceled', '⏹️ canceled'],
    ['success', '✅ success'],
    ['in-progress', '⏳ in-progress'],
    ['queued', '❔ queued'],
  ])('%s reads %s', (value, shown) => {
    expect(status(value)).toBe(shown);
  });

  it('no module of src/ but text/status.ts maps statuses to icons', () => {
    const src = join(ROOT, 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const tables = files.filter(
      (file) =>
        file !== join('text', 'status.ts') &&
        /\b(?:finished|success|errored)\s*:\s*'(?:✅|❌)'/.test(readFileSync(join(src, file), 'utf8')),
    );
    expect(tables).toEqual([]);
  });
});
