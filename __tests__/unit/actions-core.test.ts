/**
 * src/actions-core.ts re-implements the part of @actions/core the action uses (to keep undici and
 * @actions/exec off the start-up path). This differential test runs the same calls through the real
 * library and through ours, in separate processes, and requires identical stdout and command files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CALLS = `
core.setSecret('s3cr3t-value');
core.info('plain line with % and :: inside');
core.debug('debug %0A line\\nwith newline');
core.warning('warn: 50% done,\\r\\nnext');
core.error(new Error('boom: a, b'));
core.notice('notice');
core.setOutput('simple', 'value');
core.setOutput('multi', 'line one\\nline two\\n');
core.setOutput('object', { a: 1 });
core.exportVariable('SVC_X', 'exported value');
core.saveState('session-id', 'abc');
core.setFailed('failed: %');
console.log(JSON.stringify([core.getInput('with space'), core.getInput('padded'), core.getInput('padded', { trimWhitespace: false }), core.getState('keep'), process.env.SVC_X]));
await core.summary.addRaw('| a | b |', true).addRaw('tail').write();
await core.summary.addRaw('second').write();
`;

function runWith(moduleUrl: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'core-diff-'));
  const files = ['output', 'env', 'state', 'summary'];
  for (const file of files) writeFileSync(join(dir, file), '');
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import * as core from '${moduleUrl}';\n${CALLS}`],
    {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        GITHUB_OUTPUT: join(dir, 'output'),
        GITHUB_ENV: join(dir, 'env'),
        GITHUB_STATE: join(dir, 'state'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        'INPUT_WITH SPACE': 'a',
        INPUT_WITH_SPACE: 'spaced',
        INPUT_PADDED: '  padded  ',
        STATE_keep: 'kept',
      },
    },
  );
  const stdout = `${child.stdout}exit ${child.status}\n${child.stderr}`;
  const normalise = (text: string): string => text.replace(/ghadelimiter_[0-9a-f-]{36}/g, 'ghadelimiter_X');
  return Object.fromEntries([
    ['stdout', normalise(stdout)],
    ...files.map((file) => [file, normalise(readFileSync(join(dir, file), 'utf8'))]),
  ]);
}

it('writes exactly what @actions/core writes', () => {
  const real = runWith(`file://${join(ROOT, 'node_modules', '@actions', 'core', 'lib', 'core.js')}`);
  const ours = runWith(`file://${join(ROOT, 'build', 'src', 'actions-core.js')}`);
  expect(real.stdout).toContain('::add-mask::s3cr3t-value');
  expect(real.output).toContain('multi<<ghadelimiter_X');
  expect(ours).toEqual(real);
});
