/**
 * The figures and install claims of the documents, against what the code does today (issue 25 item
 * 12): what a step loads (the bundle sizes in docs/performance.md), how many dependencies
 * `allowScripts` denies (README), how many lifecycles the campaign inside `npm test` runs. The timed
 * figures come from `npm run bench`, which fails on a missed budget.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness/runner/step.js';

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
