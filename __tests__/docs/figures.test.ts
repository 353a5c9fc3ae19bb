/**
 * The figures and install claims of the documents, against what the code does today (issue 25 item
 * 12): what a step loads (the bundle sizes in docs/performance.md), how many dependencies
 * `allowScripts` denies (README), how many lifecycles the campaign inside `npm test` runs, the limits of
 * the commit statuses, the polling and the outputs (issue 41 item 3), the relay's in its README, and
 * docs/performance.md's budgets and counts against the bench's constants. The timed figures come from
 * `npm run bench`, which fails on a missed budget; they are one run's measurements and stay unheld.
 * The figures the documents give for inputs are in input-figures.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../testkit/runner/step.js';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

test('what a step loads, in docs/performance.md and the README, is what dist/ weighs (MB, two decimals)', () => {
  const dist = join(ROOT, 'dist');
  const bundle = statSync(join(dist, 'action', 'index.js')).size;
  const entries = readdirSync(dist, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && entry.name !== 'action',
  );
  const largest = Math.max(
    ...entries.map((entry) => bundle + statSync(join(dist, entry.name, 'index.js')).size),
  );
  const shown = `${(largest / (1024 * 1024)).toFixed(2)} MB`;
  expect(read('docs/performance.md')).toMatch(new RegExp(`\\| what a step loads [^\\n]*\\| ${shown} `));
  expect(read('README.md')).toContain(`what a step loads is ${shown}`);
});

test("the README's count of the install scripts allowScripts denies is package.json's", () => {
  const { allowScripts } = JSON.parse(read('package.json')) as { allowScripts: Record<string, boolean> };
  const denied = Object.entries(allowScripts).filter(([, allowed]) => !allowed);
  const claim = /`allowScripts` in `package.json` denies the (\w+) dependencies/.exec(read('README.md'));
  expect(claim?.[1]).toBe(WORDS[denied.length]);
  for (const [name] of denied) expect(read('README.md')).toContain(`\`${name}\``);
});

test('the campaign inside npm test runs as many lifecycles as the documents say', () => {
  const count = /runCampaign\(\{[^}]*lifecycles: (\d+)/.exec(read('__tests__/e2e/campaign.test.ts'))?.[1];
  expect(count).toBeDefined();
  for (const document of ['README.md', 'docs/reliability.md'])
    expect(read(document)).toContain(`runs ${count} lifecycles in all`);
});

test("docs/performance.md's words on the 1,000-job run agree with its row, and name no version the project does not have", () => {
  const performance = read('docs/performance.md');
  const row = performance.split('\n').find((line) => line.startsWith('| run with 1,000 jobs'))!;
  const [, , measured, budget] = row.split('|').map((cell) => cell.trim());
  const slowest = Math.max(...(/^([\d–]+) ms/.exec(measured)?.[1].split('–').map(Number) ?? [NaN]));
  // The budget is a multiple of the bench's baseline, with what it came to in the run shown.
  const limit = Number(/\((\d+) ms at \d+ ms\)/.exec(budget)?.[1]);
  expect(limit).toBeGreaterThan(0);
  expect(slowest).toBeLessThan(Infinity);
  // A figure within its budget is not said to miss it, in the table or the prose.
  if (slowest < limit) expect(performance).not.toMatch(/miss(es|ed)? its budget|budget missed/);
  // The one version number is package.json's (CONTRIBUTING): no other "version N".
  const { version } = JSON.parse(read('package.json')) as { version: string };
  for (const [, named] of performance.matchAll(/\bversion (\d+)\b/g))
    expect(named).toBe(version.split('.')[0]);
});

test("the limits the documents quote are the code's", () => {
  const docs = (...paths: string[]) => paths.map((path) => read(path).replace(/\s+/g, ' ')).join('\n');
  const statuses = docs('README.md', 'run-workflow/README.md', 'CHANGELOG.md');
  // Each figure as its source states it, and where the documents say it.
  expect(read('src/github/status-budget.ts')).toMatch(/export const REQUEST_BUDGET = 300;/);
  expect(statuses).toContain('budget of 300 requests');
  expect(docs('SECURITY.md')).toContain('at most 300 requests in all');
  expect(read('src/runs/status-words.ts')).toMatch(/export const MAX_JOB_STATUSES = 60;/);
  expect(statuses).toContain('a status is posted for the first 60');
  expect(statuses).toContain('at most 60 job statuses per run');
  expect(read('src/inputs/parsers.ts')).toMatch(/export const MIN_POLL_INTERVAL_SECONDS = 0\.05;/);
  expect(docs('README.md')).toContain('At most one request per 0.05 s');
  expect(read('src/runs/run-outputs.ts')).toMatch(/export const JOB_OUTPUTS_BOUND = 512 \* 1024;/);
  expect(docs('README.md', 'CHANGELOG.md')).toMatch(
    /stay under 512 KiB together[\s\S]*stay under 512 KiB together/,
  );
});

test("the relay's figures in verify-webhook/README.md's prose are its block's", () => {
  const readme = read('verify-webhook/README.md');
  const block = /```js\n(\/\/ relay\.mjs[\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const prose = readme
    .slice(readme.indexOf('**1. The relay**'), readme.indexOf('```js'))
    .replace(/\s+/g, ' ');
  const constant = (pattern: RegExp) => pattern.exec(block)?.[1];
  expect(constant(/const MAX_BODY = (\d+) \* 1024;/)).toBe('45');
  expect(prose).toContain('once a body passes 45 KiB');
  expect(constant(/const MAX_CONNECTIONS = (\d+);/)).toBe('32');
  expect(prose).toContain('At most 32 connections are open at once');
  expect(constant(/RELAY_MAX_PER_ADDRESS = '(\d+)'/)).toBe('4');
  expect(prose).toContain('`RELAY_MAX_PER_ADDRESS` (4 by default)');
  expect(constant(/RELAY_REMEMBER_DAYS = '(\d+)'/)).toBe('30');
  expect(readme.replace(/\s+/g, ' ')).toContain('for `RELAY_REMEMBER_DAYS` (30 by default');
  expect(constant(/headersTimeout: (\d+)_000/)).toBe('5');
  expect(constant(/requestTimeout: (\d+)_000/)).toBe('10');
  expect(prose).toContain('send its headers within 5 seconds and its body within 10');
  // Every variable the prose names is one the block reads.
  for (const [name] of prose.matchAll(/\b(?:RELAY_[A-Z_]+|SVC_WEBHOOK_SECRET|GITHUB_[A-Z_]+)\b/g))
    expect(block).toContain(name);
});

test("docs/performance.md's budgets and counts are the bench's (scripts/bench/), its timings one run's", () => {
  const performance = read('docs/performance.md');
  const bench = (file: string) => read(`scripts/bench/${file}`);
  /** The cells of the table's row whose figure starts with `start`: [figure, measured, budget]. */
  const cells = (start: string): string[] => {
    const row = performance.split('\n').find((line) => line.startsWith(`| ${start}`));
    expect(row).toBeDefined();
    return row!
      .split('|')
      .slice(1, 4)
      .map((cell) => cell.trim());
  };
  /** The figure `pattern` captures in `text`, as a number. */
  const figure = (text: string, pattern: RegExp): number => {
    const match = pattern.exec(text);
    expect(`${pattern}: ${match !== null}`).toBe(`${pattern}: true`);
    return Number(match![1].replace(/,/g, ''));
  };
  const constant = (file: string, name: string): number =>
    figure(
      bench(file),
      new RegExp(`const ${name} = (?:Number\\(process\\.env\\.\\w+\\) \\|\\| )?([\\d_.]+);`),
    );

  // The run's baseline, which the time budgets' "(… ms at 19 ms)" are multiples of: one run's timing.
  const prose = performance.replace(/\s+/g, ' ');
  const baseline = figure(
    prose,
    /the median start-up of a bare `node -e 0` on Node 24 \((\d+) ms in the run above/,
  );

  const [, , size] = cells('what a step loads');
  expect(figure(size, /^< ([\d.]+) MB/)).toBe(constant('size.ts', 'BUNDLE_BUDGET_MB'));
  expect(figure(size, /comparable actions: ([\d.]+)–/)).toBe(constant('size.ts', 'SMALLEST_COMPARABLE_MB'));
  expect(bench('size.ts')).toContain(`${figure(size, /–([\d.]+) MB/)} MB`);

  const [, , startup] = cells('start-up');
  expect(figure(startup, /^at most (\d+)× bare Node 24/)).toBe(constant('startup.ts', 'STARTUP_GUARD'));

  const [, , exit] = cells('exit after the read');
  const exitUnits = figure(exit, /^≤ (\d+)× `node -e 0`/);
  expect(exitUnits).toBe(constant('readiness.ts', 'EXIT_AFTER_READ'));
  expect(exit).toContain(`(${exitUnits * baseline} ms at ${baseline} ms)`);
  // "the median of three runs (six samples for the exits after a read)"
  expect(prose).toMatch(/judged on the median of three runs \(six samples for the exits after a read\)/);
  expect(constant('big-run.ts', 'REPS')).toBe(3);
  expect(constant('readiness.ts', 'SAMPLES')).toBe(6);

  const [, requests, requestBudget] = cells('requests: session ready after N reads');
  const n = constant('requests.ts', 'N');
  expect(requests).toBe(`N + 3; N + 1 (N = ${n}: ${n + 3} and ${n + 1})`);
  expect(requestBudget).toMatch(/^N \+ 3 \(.*\); N \+ 1$/);
  expect(bench('requests.ts')).toContain('`N + 3 = ${N + 3}`,\n    sessionCount === N + 3');
  expect(bench('requests.ts')).toContain('`N + 1 = ${N + 1}`,\n    runRequests.length === N + 1');

  const [, , connections] = cells('TCP connections per step');
  expect(connections).toMatch(/^1 \(/);
  expect(bench('requests.ts')).toContain("'1',\n    perStep.every(([, count]) => count === 1)");

  const [bigRun, , bigBudget] = cells('run with 1,000 jobs');
  expect(figure(bigRun, /run with ([\d,]+) jobs/)).toBe(constant('big-run.ts', 'JOBS'));
  const bigUnits = figure(bigBudget, /^≤ (\d+)× `node -e 0`/);
  expect(bigUnits).toBe(constant('big-run.ts', 'AFTER_LAST_READ_BUDGET'));
  expect(bigBudget).toContain(`(${bigUnits * baseline} ms at ${baseline} ms)`);
  const memory = figure(bigBudget, /; < (\d+) MB$/);
  expect(bench('big-run.ts')).toContain(`'< ${memory} MB',\n    rss / MB < ${memory},`);

  const [early] = cells('the early-start recipe');
  expect(figure(early, /P = (\d+) s/) * 1000).toBe(constant('early-start.ts', 'PROVISIONING_MS'));
  expect(figure(early, /B = (\d+) s/) * 1000).toBe(constant('early-start.ts', 'BUILD_MS'));
  expect(bench('early-start.ts')).toContain(
    `pollIntervalSeconds: '${figure(early, /`poll-interval-seconds: ([\d.]+)`/)}'`,
  );

  const [statuses, , statusBudget] = cells('commit statuses for a run of');
  expect(figure(statuses, /a run of (\d+) jobs/)).toBe(constant('status-posts.ts', 'JOBS'));
  expect(figure(statuses, /on each of (\d+) reads/)).toBe(constant('status-posts.ts', 'READS'));
  expect(figure(statusBudget, /^≤ (\d+) requests a step/)).toBe(
    figure(read('src/github/status-budget.ts'), /export const REQUEST_BUDGET = (\d+);/),
  );
  const [perMinute, github] = [
    figure(statusBudget, /≤ (\d+) a minute/),
    figure(statusBudget, /GitHub: about (\d+)/),
  ];
  expect(bench('status-posts.ts')).toContain(
    `≤ \${REQUEST_BUDGET}; ≤ ${perMinute} (GitHub: about ${github} a minute)`,
  );
  expect(bench('status-posts.ts')).toContain(`ordinary.first <= ${perMinute}`);
});

describe("the code's other bounds the documents quote", () => {
  const text = (path: string) => read(path).replace(/\s+/g, ' ');
  // [what, the figure, where the documents say it, where the code declares it]: each written once, with the figure.
  const bounds: [string, string, [string, string][], [string, string]][] = [
    [
      'an exported variable',
      '32',
      [
        ['README.md', 'nor one over 32 KiB'],
        ['CHANGELOG.md', 'A variable over 32 KiB'],
      ],
      ['src/sessions/export-env.ts', 'const MAX_EXPORTED_BYTES = 32 * 1024;'],
    ],
    [
      'a capability too short to mask',
      '8',
      [
        ['README.md', 'except values under 8 characters'],
        ['CHANGELOG.md', 'except values under 8 characters'],
      ],
      ['src/sessions/masking.ts', 'const MIN_CAPABILITY = 8;'],
    ],
    [
      'a named capability too short to mask',
      '4',
      [
        ['README.md', '(under 4 for a credential-like name'],
        ['CHANGELOG.md', 'under 4 for a credential-like name'],
      ],
      ['src/sessions/masking.ts', 'const MIN_NAMED_CAPABILITY = 4;'],
    ],
    [
      'the values registered for masking',
      '1,024',
      [['CHANGELOG.md', 'at most 1,024 values of a session']],
      ['src/sessions/masking.ts', 'export const MAX_MASKED = 1024;'],
    ],
    [
      'the sessions the state keeps',
      'five',
      [['SECURITY.md', 'at most five sessions']],
      ['src/sessions/state.ts', 'export const MAX_SESSIONS = 5;'],
    ],
    [
      'a saved URL',
      '2,048',
      [['SECURITY.md', 'http(s) URL of at most 2,048 characters']],
      ['src/sessions/state.ts', 'const MAX_SAVED_URL = 2048;'],
    ],
    [
      'an attempt',
      '30',
      [['README.md', 'Each attempt has its own time limit (30 s']],
      ['src/service/http.ts', 'export const REQUEST_TIMEOUT_MS = 30_000;'],
    ],
    [
      'an answer',
      '16',
      [['README.md', 'an answer larger than 16 MiB is refused']],
      ['src/service/http.ts', 'maxResponseBytes ?? 16 * 1024 * 1024'],
    ],
    [
      'the workflow file',
      '100,000',
      [
        ['run-workflow/README.md', 'of over 100,000 YAML nodes is not checked'],
        ['SECURITY.md', '(1 MiB, 100,000 YAML nodes, 100 aliases'],
      ],
      ['src/runs/workflow-file.ts', 'const MAX_NODES = 100_000;'],
    ],
    [
      "the workflow file's bytes",
      '1',
      [['SECURITY.md', 'within bounds (1 MiB, 100,000']],
      ['src/runs/workflow-file.ts', 'const MAX_FILE_BYTES = 1024 * 1024;'],
    ],
    [
      "the workflow file's aliases",
      '100',
      [['SECURITY.md', 'YAML nodes, 100 aliases']],
      ['src/runs/workflow-file.ts', 'const MAX_ALIASES = 100;'],
    ],
    [
      'a webhook payload file',
      '1',
      [['verify-webhook/README.md', 'the raw request body (at most 1 MiB)']],
      ['src/commands/verify-webhook.ts', 'const MAX_PAYLOAD_BYTES = 1024 * 1024;'],
    ],
    [
      'a webhook secret',
      '16',
      [['verify-webhook/README.md', 'signing secret, at least 16 characters']],
      ['src/webhook/signature.ts', 'export const MIN_SECRET_LENGTH = 16;'],
    ],
    [
      'status writes a minute',
      '60',
      [['run-workflow/README.md', 'final states included (at most 60 in any minute)']],
      ['src/github/status-budget.ts', 'export const PACE_PER_MINUTE = 60;'],
    ],
    [
      'the spacing of status writes',
      'a second',
      [['run-workflow/README.md', "a step's writes go at least a second apart"]],
      ['src/github/status-budget.ts', 'export const WRITE_SPACING_MS = 1_000;'],
    ],
    [
      'posting after the verdict, at least',
      '60',
      [['run-workflow/README.md', 'never under 60 s, at most 3 minutes']],
      ['src/github/status-budget.ts', 'export const SETTLE_MIN_MS = 60_000;'],
    ],
    [
      'posting after the verdict, at most',
      '3',
      [['run-workflow/README.md', 'never under 60 s, at most 3 minutes']],
      ['src/github/status-budget.ts', 'export const SETTLE_CAP_MS = 180_000;'],
    ],
    [
      'posting after the verdict, beyond what it owes',
      '30',
      [['run-workflow/README.md', 'owes plus 30 s, never under']],
      ['src/github/status-budget.ts', 'const SETTLE_SLACK_MS = 30_000;'],
    ],
    [
      "the sync's posts a call",
      '30',
      [['sync-statuses/README.md', 'of which at most 30 posts']],
      ['src/runs/sync-github.ts', 'export const MAX_WRITES = 30;'],
    ],
    [
      "the sync's margin before its deadline",
      '30',
      [['sync-statuses/README.md', "none after the call's deadline less 30 s"]],
      ['src/runs/sync.ts', 'const END_MARGIN_MS = 30_000;'],
    ],
    [
      "the sync's slot",
      'five',
      [['sync-statuses/README.md', 'it moves on by `max-runs` every five minutes']],
      ['src/runs/sync.ts', 'export const SLOT_MS = 5 * 60_000;'],
    ],
    [
      "the sync's run reads",
      '10',
      [['sync-statuses/README.md', 'make two attempts of at most 10 s each']],
      [
        'src/runs/sync-runs.ts',
        'retry: { maxAttempts: 2, baseDelayMs: 1_000, maxDelayMs: 1_000 },\n  requestTimeoutMs: 10_000,',
      ],
    ],
  ];

  it.each(bounds)(
    '%s (%s): the documents say what the code declares',
    (_what, shown, said, [file, declared]) => {
      for (const [document, words] of said) {
        expect(words).toContain(shown);
        expect(`${document}: ${text(document).includes(words)}`).toBe(`${document}: true`);
      }
      expect(read(file)).toContain(declared);
    },
  );
});

test("sync-statuses' worst-case costs are its bounds' arithmetic, and reliability.md's campaign size the script's default", () => {
  const readme = read('sync-statuses/README.md').replace(/\s+/g, ' ');
  const numbers = (pattern: RegExp): number[] =>
    (pattern.exec(readme)?.slice(1) ?? []).map((figure) => Number(figure.replace(/,/g, '')));
  const [queries, rest, posts] = numbers(
    /(\d+) GraphQL queries and (\d+) REST requests, of which at most (\d+) posts/,
  );
  const [calls, points, requests, writes] = numbers(
    /\((\d+) calls an hour\) that is at most (\d+) GraphQL points, (\d+) REST requests and (\d+) posts an hour/,
  );
  expect(calls).toBe(60 / 5); // "On a five-minute schedule"
  expect([points, requests, writes]).toEqual([calls * queries, calls * rest, calls * posts]);
  // Two attempts of at most 10 s, a second apart (SYNC_READ_POLICY); a following step's six of 30 s.
  const [each, total, attempt] = numbers(
    /two attempts of at most (\d+) s each \(about (\d+) s in all, where a following step makes six of (\d+) s\)/,
  );
  expect(total).toBe(2 * each + 1);
  expect(read('src/service/retry.ts')).toContain('{ maxAttempts: 6,');
  expect(read('src/service/http.ts')).toContain(`export const REQUEST_TIMEOUT_MS = ${attempt}_000;`);
  const script = read('scripts/reliability/main.ts');
  const lifecycles = /^ {4}lifecycles: (\d+),$/m.exec(script)?.[1];
  expect(read('docs/reliability.md').replace(/\s+/g, ' ')).toContain(
    `\`npm run reliability -- --seed 1\` and \`npm run reliability -- --seed 2\` each run ${lifecycles} lifecycles`,
  );
});
