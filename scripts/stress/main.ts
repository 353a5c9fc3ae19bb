/**
 * `npm run test:stress`: the test suite under the load that makes a busy machine's tests fail, N
 * times, listing what failed in each run with the load average. The failures seen on busy CI
 * machines came from stalled process start-ups more than from CPU, so beside busy loops (one per
 * core by default) every `git` and `node` a test starts sleeps a random 0–500 ms first: shims on
 * `PATH`, and for the bundles and post steps the test kit starts, the Node runtime it takes from
 * `SVC_TEST_NODE24` (testkit/runner/step.ts).
 *
 *   npm run test:stress                          # npm test, 3 runs, one busy loop per core
 *   npm run test:stress -- --runs 5 --busy 2
 *   npm run test:stress -- --command "npm run -s test:unit" --max-stall-ms 500
 *
 * It exits 1 when any run failed. Run it before a change that touches timing, processes or the
 * tests' waits lands (CONTRIBUTING says so).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIMES, DEFAULT_RUNTIME } from '../../testkit/runner/step.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
};
const runs = Number(option('runs', '3'));
const busy = Number(option('busy', String(cpus().length)));
const maxStallMs = Number(option('max-stall-ms', '500'));
const command = option('command', 'npm test');
for (const [name, value] of [
  ['runs', runs],
  ['busy', busy],
  ['max-stall-ms', maxStallMs],
] as const)
  if (!Number.isInteger(value) || value < 0 || (name === 'runs' && value < 1))
    throw new Error(`--${name} takes a whole number${name === 'runs' ? ' of 1 or more' : ''}`);

/**
 * A shim that sleeps a random 0–maxStallMs, then runs `real` with the same arguments and environment.
 * bash, not sh: dash (Debian's sh) drops the variables whose names are not shell names from what it
 * passes on, and the runner's inputs are such names (`INPUT_BASE-URL`).
 */
function shim(dir: string, name: string, real: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/usr/bin/env bash\n# npm run test:stress: a stalled start-up, then the real ${name}.\n` +
      `sleep "$(awk -v seed="$$" 'BEGIN { srand(seed + systime()); printf "%.3f", rand() * ${maxStallMs / 1000} }')"\n` +
      `exec ${JSON.stringify(real)} "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

const which = (name: string): string =>
  spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();

/** Jest's JSON report: the failed tests' full names, or why there is none. */
function failedTests(report: string): { failed: string[]; passed: number } {
  try {
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number;
      testResults: Array<{
        name: string;
        message?: string;
        assertionResults: Array<{ status: string; fullName: string; failureMessages?: string[] }>;
      }>;
    };
    const failed = parsed.testResults.flatMap((file) => {
      // Each failed test with the first lines of why: the report is deleted with the run's folder,
      // and a failure that comes only under load is seldom seen twice.
      const names = file.assertionResults
        .filter((test) => test.status === 'failed')
        .map(
          (test) =>
            `${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}` +
            firstLines(test.failureMessages?.join('\n') ?? '', 8)
              .map((line) => `\n    ${line}`)
              .join(''),
        );
      // A file that failed to run has no test results but a message: its first line after Jest's
      // heading says why (a worker that crashed, a file that did not compile).
      const why = firstLines(file.message ?? '', 1)[0] ?? '';
      return names.length === 0 && file.message
        ? [`${file.name.replace(`${process.cwd()}/`, '')} (did not run: ${why.slice(0, 200)})`]
        : names;
    });
    return { failed, passed: parsed.numPassedTests };
  } catch {
    return { failed: ['(no Jest report: the command failed before Jest wrote one)'], passed: 0 };
  }
}

/** The first `count` lines of a Jest message that say something: no colours, no blank lines, no heading. */
function firstLines(message: string, count: number): string[] {
  return message
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('●'))
    .slice(0, count);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-stress-'));
  const bin = join(dir, 'bin');
  spawnSync('mkdir', ['-p', bin]);
  const realNode = RUNTIMES[DEFAULT_RUNTIME];
  shim(bin, 'git', which('git'));
  shim(bin, 'node', which('node'));
  const node24 = shim(dir, 'node24', realNode);
  const loops: ChildProcess[] = Array.from({ length: busy }, () =>
    spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }),
  );
  console.log(
    `test:stress: \`${command}\` ${runs} time(s); ${busy} busy loop(s) on ${cpus().length} CPUs; git and node stall 0–${maxStallMs} ms at each start`,
  );
  const results: Array<{
    run: number;
    seconds: number;
    loads: [number, number];
    failed: string[];
    passed: number;
    exit: number | null;
  }> = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const report = join(dir, `report-${run}.json`);
      const loadAtStart = loadavg()[0];
      const started = Date.now();
      const child = spawnSync(
        'sh',
        [
          '-c',
          `${command}${command.includes(' -- ') ? '' : ' --'} --json --outputFile=${JSON.stringify(report)}`,
        ],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          encoding: 'utf8',
          maxBuffer: 512 * 1024 * 1024,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, SVC_TEST_NODE24: node24 },
        },
      );
      const { failed, passed } = failedTests(report);
      results.push({
        run,
        seconds: (Date.now() - started) / 1000,
        loads: [loadAtStart, loadavg()[0]],
        failed,
        passed,
        exit: child.status,
      });
      const last = results.at(-1)!;
      process.stderr.write(
        `  run ${run}: ${passed} passed, ${failed.length} failed, exit ${child.status}, ${last.seconds.toFixed(0)} s, load ${last.loads.map((l) => l.toFixed(2)).join(' → ')}\n`,
      );
    }
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  console.log('| run | passed | failed | exit | time | load average (start → end) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of results)
    console.log(
      `| ${r.run} | ${r.passed} | ${r.failed.length} | ${r.exit} | ${r.seconds.toFixed(0)} s | ${r.loads.map((l) => l.toFixed(2)).join(' → ')} |`,
    );
  const failing = results.filter((r) => r.failed.length > 0 || r.exit !== 0);
  for (const r of failing) {
    console.log('');
    console.log(`Run ${r.run} failed:`);
    for (const name of r.failed) console.log(`- ${name}`);
  }
  console.log('');
  console.log(
    failing.length === 0 ? `All ${runs} run(s) passed.` : `${failing.length} of ${runs} run(s) failed.`,
  );
  if (failing.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
