/**
 * `npm run bench:tests`: how long the test suite makes a contributor wait, measured, not guessed.
 * For a checkout of this repository, it runs each test tier of its package.json (every `test` and
 * `test:*` script but the browser tier), then one focused unit file after an edit of `src/`, each
 * `--runs` times (default 3), and prints the median wall time with the load average beside it: figures
 * from a busy machine say so.
 *
 *   npm run bench:tests                                  # this checkout, three runs of each
 *   npm run bench:tests -- --before 5e8a538              # first a worktree of that commit (npm ci in it), then this one
 *   npm run bench:tests -- --dir /tmp/old --runs 1       # another checkout, once
 *
 * The focused run edits `src/text/status.ts` (a comment appended, put back after) so that whatever the
 * checkout rebuilds after an edit (dist/, ts-jest's cache of that file) is rebuilt, as in an edit loop.
 * It runs `npm run test:unit -- <file>` where that script exists, `npm test -- <file>` before it did.
 *
 * The edit loop: after the same one-line edit, the steps a contributor runs before a commit, one after
 * the other, each timed with the load average at its start: the focused test, `npm run typecheck`,
 * `npm run lint`, the formatting (`npm run format:changed` where it exists, `npm run format` before),
 * `npm run generate`. One unmeasured pass first warms what the checkout caches, as a contributor's
 * earlier pass did. `--loop-only` measures the loop alone (the tiers take minutes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
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
const runs = Number(option('runs') ?? '3');
const loopOnly = args.includes('--loop-only');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of 1 or more');

/** A unit test file of the checkout, the first that exists (the files moved with the tiers). */
const FOCUSED_FILES = ['__tests__/unit/text/status.test.ts', '__tests__/text/status.test.ts'];
const EDITED = 'src/text/status.ts';

/** Jest's own count line ("Tests: 3 passed, 3 total"), or what went wrong. */
function testsLine(output: string, status: number | null): string {
  const line = /^Tests:\s+(.*)$/m.exec(output)?.[1];
  return line ?? `exit ${status}, no count`;
}

function measure(dir: string, name: string, npmArgs: string[], before?: () => () => void): Measured {
  const measured: Measured = {
    name,
    command: `npm ${npmArgs.join(' ')}`,
    seconds: [],
    loads: [],
    tests: '',
  };
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
function editSource(dir: string): () => void {
  const path = join(dir, EDITED);
  const original = readFileSync(path, 'utf8');
  writeFileSync(path, `${original}// edit ${Date.now()}\n`);
  return () => writeFileSync(path, original);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Measures every tier of the checkout in `dir` and prints its table. */
function measureCheckout(dir: string): void {
  const scripts = (
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const tiers = Object.keys(scripts)
    .filter((name) => (name === 'test' || name.startsWith('test:')) && name !== 'test:browser')
    .sort((a, b) => (a === 'test' ? 1 : b === 'test' ? -1 : a.localeCompare(b)));
  const focused = FOCUSED_FILES.find((file) => existsSync(join(dir, file)));
  if (!focused) throw new Error(`none of ${FOCUSED_FILES.join(', ')} in ${dir}`);
  const focusedCommand = scripts['test:unit'] ? ['run', 'test:unit', '--', focused] : ['test', '--', focused];

  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: dir,
    encoding: 'utf8',
  }).stdout.trim();
  console.log(
    `test tiers of ${dir} at ${head}: ${cpus().length} CPUs, ${runs} run(s) each, Node ${process.version}`,
  );
  const results: Measured[] = [];
  if (!loopOnly) {
    for (const tier of tiers)
      results.push(measure(dir, tier, tier === 'test' ? ['test'] : ['run', '-s', tier]));
    results.push(measure(dir, `one file after a src/ edit`, focusedCommand, () => editSource(dir)));
  }
  results.push(...measureLoop(dir, scripts, focusedCommand));

  console.log('');
  console.log('| tier | command | median | runs (s) | load average at each start | tests |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of results)
    console.log(
      `| ${r.name} | \`${r.command}\` | ${median(r.seconds).toFixed(1)} s | ${r.seconds.map((s) => s.toFixed(1)).join(', ')} | ${r.loads.map((l) => l.toFixed(2)).join(', ')} | ${r.tests} |`,
    );
  console.log('');
}

/**
 * The edit loop in `dir`: one warm-up pass, then `runs` passes, each after a fresh one-line edit (so
 * every cache sees a change, as in a real loop), each step timed; and each pass's sum.
 */
function measureLoop(dir: string, scripts: Record<string, string>, focused: string[]): Measured[] {
  const steps: Array<[string, string[]]> = [
    ['loop: focused test', focused],
    ['loop: typecheck', ['run', '-s', 'typecheck']],
    ['loop: lint', ['run', '-s', 'lint']],
    ['loop: format', ['run', '-s', scripts['format:changed'] ? 'format:changed' : 'format']],
    ['loop: generate', ['run', '-s', 'generate']],
  ];
  const measured: Measured[] = steps.map(([name, npmArgs]) => ({
    name,
    command: `npm ${npmArgs.join(' ')}`,
    seconds: [],
    loads: [],
    tests: '',
  }));
  const total: Measured = {
    name: 'the loop in all',
    command: 'the five above',
    seconds: [],
    loads: [],
    tests: '',
  };
  for (let pass = 0; pass <= runs; pass++) {
    const undo = editSource(dir);
    try {
      let sum = 0;
      for (const [index, [, npmArgs]] of steps.entries()) {
        const load = loadavg()[0];
        const started = process.hrtime.bigint();
        const result = spawnSync('npm', npmArgs, {
          cwd: dir,
          encoding: 'utf8',
          maxBuffer: 256 * 1024 * 1024,
        });
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        // Pass 0 warms the caches, as a contributor's earlier pass did: not measured.
        if (pass === 0) continue;
        sum += seconds;
        measured[index].seconds.push(seconds);
        measured[index].loads.push(load);
        measured[index].tests = result.status === 0 ? 'ok' : `exit ${result.status}`;
      }
      if (pass > 0) {
        total.seconds.push(sum);
        total.loads.push(measured[0].loads.at(-1)!);
        process.stderr.write(`  the loop, pass ${pass}: ${sum.toFixed(1)} s\n`);
      }
    } finally {
      undo();
    }
  }
  return [...measured, total];
}

/** A worktree of `rev` in a temporary folder, installed from its lock file; removed by the returned function. */
function worktreeOf(rev: string): { dir: string; remove: () => void } {
  const dir = join(mkdtempSync(join(tmpdir(), 'svc-bench-tests-')), 'checkout');
  const git = (...gitArgs: string[]) => spawnSync('git', gitArgs, { stdio: ['ignore', 2, 2] });
  if (git('worktree', 'add', '--detach', dir, rev).status !== 0) throw new Error(`no worktree of ${rev}`);
  const remove = () => {
    git('worktree', 'remove', '--force', dir);
    rmSync(resolve(dir, '..'), { recursive: true, force: true });
  };
  process.stderr.write(`npm ci in a worktree of ${rev}…\n`);
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  if (install.status !== 0) {
    remove();
    throw new Error(`npm ci failed in the worktree of ${rev}`);
  }
  return { dir, remove };
}

const before = option('before');
if (before) {
  const old = worktreeOf(before);
  try {
    console.log(`Before: ${before}`);
    measureCheckout(old.dir);
  } finally {
    old.remove();
  }
  console.log('After: this checkout');
}
measureCheckout(resolve(option('dir') ?? '.'));
