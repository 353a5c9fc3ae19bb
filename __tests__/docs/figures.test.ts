/**
 * The figures and install claims of the documents, against what the code does today (issue 25 item
 * 12): what a step loads (the bundle sizes in docs/performance.md), how many dependencies
 * `allowScripts` denies (README), how many lifecycles the campaign inside `npm test` runs, the limits of
 * the commit statuses, the polling and the outputs (issue 41 item 3), and the relay's in its README. The
 * timed figures come from `npm run bench`, which fails on a missed budget.
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
