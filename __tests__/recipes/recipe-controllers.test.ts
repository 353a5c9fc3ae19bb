/**
 * What the device recipes of the READMEs ask of a controller, the simulator serves (issue 25 item 11):
 * every `npx agent-device <command>` is a command of the simulator's agent-device daemon, and every
 * webdriverio call on `driver` is one that __tests__/sessions/controllers.test.ts drives against the
 * simulator's Appium endpoint. A recipe that calls something else would fail as written there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../testkit/runner/step.js';
import { COMMANDS as AGENT_DEVICE_COMMANDS } from '../../simulator/controllers/agent-device.js';

/** The webdriverio calls the controllers test makes against the simulator (keep in step with it). */
const DRIVEN_BY_THE_CONTROLLERS_TEST = ['takeScreenshot', 'getPageSource', 'action', 'deleteSession'];

function markdownFiles(): string[] {
  const top = readdirSync(ROOT).filter((name) => name.endsWith('.md'));
  const subs = readdirSync(ROOT)
    .filter(
      (name) => !name.startsWith('.') && name !== 'node_modules' && statSync(join(ROOT, name)).isDirectory(),
    )
    .flatMap((dir) => (readdirSync(join(ROOT, dir)).includes('README.md') ? [join(dir, 'README.md')] : []));
  return [...top, ...subs];
}

const texts = markdownFiles().map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

test('every agent-device command a recipe runs is one the simulator implements', () => {
  const used = texts.flatMap(({ path, text }) =>
    [...text.matchAll(/npx agent-device ([a-z-]+)/g)].map((match) => `${path}: ${match[1]}`),
  );
  expect(used.length).toBeGreaterThan(0);
  const known = new Set<string>(AGENT_DEVICE_COMMANDS);
  expect(used.filter((entry) => !known.has(entry.split(': ')[1]))).toEqual([]);
});

test('every webdriverio call a recipe makes is one the controllers test drives against the simulator', () => {
  const controllersTest = readFileSync(join(ROOT, '__tests__/sessions/controllers.test.ts'), 'utf8');
  for (const method of DRIVEN_BY_THE_CONTROLLERS_TEST)
    expect(controllersTest).toMatch(new RegExp(`driver\\s*\\.${method}\\(`));
  const used = texts.flatMap(({ path, text }) =>
    [...text.matchAll(/\bdriver\.(\w+)\(/g)].map((match) => `${path}: ${match[1]}`),
  );
  expect(used.length).toBeGreaterThan(0);
  expect(used.filter((entry) => !DRIVEN_BY_THE_CONTROLLERS_TEST.includes(entry.split(': ')[1]))).toEqual([]);
});
