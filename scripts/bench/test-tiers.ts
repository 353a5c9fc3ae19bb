/**
 * `npm run bench:tests`: how long the test suite makes a contributor wait, measured, not guessed.
 * For a checkout of this repository (this one, or `--dir` another, e.g. a `git worktree` of an older
 * commit), it runs each test tier of its package.json (every `test` and `test:*` script but the browser
 * tier), then one focused unit file after an edit of `src/`, each `--runs` times (default 3), and prints
 * the median wall time with the load average beside it: figures from a busy machine say so.
 *
 *   npm run bench:tests                                  # this checkout, three runs of each
 *   npm run bench:tests -- --dir /tmp/old --runs 1       # a worktree of an older commit, once
 *
 * The focused run edits `src/text/status.ts` (a comment appended, put back after) so that whatever the
 * checkout rebuilds after an edit (dist/, ts-jest's cache of that file) is rebuilt, as in an edit loop.
 * It runs `npm run test:unit -- <file>` where that script exists, `npm test -- <file>` before it did.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';

interface Measured {
  name: string;
  command: string;
  seconds: number[];
  loads: number[];
  tests: string;
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? undefined : args[at + 1];
};
const dir = resolve(option('dir') ?? '.');
const runs = Number(option('runs') ?? '3');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of 1 or more');

/** A unit test file of the checkout, the first that exists (the files moved with the tiers). */
const FOCUSED_FILES = ['__tests__/unit/text/status.test.ts', '__tests__/text/status.test.ts'];
const EDITED = 'src/text/status.ts';

const scripts = (
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const tiers = Object.keys(scripts)
  .filter((name) => (name === 'test' || name.startsWith('test:')) && name !== 'test:browser')
  .sort((a, b) => (a === 'test' ? 1 : b === 'test' ? -1 : a.localeCompare(b)));
const focused = FOCUSED_FILES.find((file) => existsSync(join(dir, file)));
if (!focused) throw new Error(`none of ${FOCUSED_FILES.join(', ')} in ${dir}`);
const focusedCommand = scripts['test:unit'] ? ['run', 'test:unit', '--', focused] : ['test', '--', focused];

/** Jest's own count line ("Tests: 3 passed, 3 total"), or what went wrong. */
function testsLine(output: string, status: number | null): string {
  const line = /^Tests:\s+(.*)$/m.exec(output)?.[1];
  return line ?? `exit ${status}, no count`;
}

function measure(name: string, npmArgs: string[], before?: () => () => void): Measured {
  const measured: Measured = { name, command: `npm ${npmArgs.join(' ')}`, seconds: [], loads: [], tests: '' };
  for (let run = 0; run < runs; run++) {
    const undo = before?.();
    measured.loads.push(loadavg()[0]);
    const started = process.hrtime.bigint();
    const result = spawnSync('npm', npmArgs, { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    measured.seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    undo?.();
    measured.tests = testsLine(`${result.stdout}\n${result.stderr}`, result.status);
    process.stderr.write(
      `  ${name} run ${run + 1}: ${measured.seconds.at(-1)!.toFixed(1)} s (${measured.tests})\n`,
    );
  }
  return measured;
}

/** Appends a comment to the edited source file; the returned function puts the file back. */
function editSource(): () => void {
  const path = join(dir, EDITED);
  const original = readFileSync(path, 'utf8');
  writeFileSync(path, `${original}// edit ${Date.now()}\n`);
  return () => writeFileSync(path, original);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
console.log(
  `test tiers of ${dir} at ${head}: ${cpus().length} CPUs, ${runs} run(s) each, Node ${process.version}`,
);
const results: Measured[] = [];
for (const tier of tiers) results.push(measure(tier, tier === 'test' ? ['test'] : ['run', '-s', tier]));
results.push(measure(`one file after a src/ edit`, focusedCommand, editSource));

console.log('');
console.log('| tier | command | median | runs (s) | load average at each start | tests |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of results)
  console.log(
    `| ${r.name} | \`${r.command}\` | ${median(r.seconds).toFixed(1)} s | ${r.seconds.map((s) => s.toFixed(1)).join(', ')} | ${r.loads.map((l) => l.toFixed(2)).join(', ')} | ${r.tests} |`,
  );
