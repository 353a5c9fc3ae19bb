/**
 * The figures and install claims of the documents, against what the code does today (issue 25 item
 * 12): what a step loads (the bundle sizes in docs/performance.md), how many dependencies
 * `allowScripts` denies (README), how many lifecycles the campaign inside `npm test` runs. The timed
 * figures come from `npm run bench`, which fails on a missed budget.
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
