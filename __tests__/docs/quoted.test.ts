/**
 * Every file name and every command the documents quote is one the repository has (issue 41: "every
 * file name, command and message they quote, is held by a test"). The documents: the READMEs,
 * CONTRIBUTING, SECURITY, the CHANGELOG and docs/*.md. A name is a code span that looks like a path of
 * the repository; a command is a line of a fenced block that is not YAML (the recipes' `run:` steps
 * are the user's project), or a code span, that runs npm, npx, node, bash or `.ci/run`. The messages
 * are held by claims.test.ts, the links by readme.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseRecipe } from '../../testkit/docs/recipes.js';
import { ROOT } from '../../testkit/runner/step.js';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const DOCUMENTS = [
  'README.md',
  ...readdirSync(ROOT)
    .filter((name) => existsSync(join(ROOT, name, 'action.yml')))
    .map((name) => `${name}/README.md`),
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const TRACKED = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** A document split into its prose (fenced blocks blanked) and its fenced blocks with their language. */
function split(markdown: string): { prose: string; blocks: { language: string; text: string }[] } {
  const blocks: { language: string; text: string }[] = [];
  const prose = markdown.replace(
    /^( *)(`{3,}|~{3,})(\w*)[^\n]*\n([\s\S]*?)^\1\2 *$/gm,
    (_all, _indent, _fence, language: string, text: string) => {
      blocks.push({ language, text });
      return '';
    },
  );
  return { prose, blocks };
}

/** The single-backtick code spans of a text. */
const spans = (text: string): string[] =>
  [...text.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)].map((match) => match[1].trim());

/**
 * Names the documents quote that are not files of this repository, each with why: the user's own
 * repository and files, GitHub's names (contexts, tags, branches, third-party actions), and what
 * `npm ci` makes.
 */
const NOT_OURS: { name: RegExp; why: string }[] = [
  { name: /^\.eas\/workflows\//, why: "the user's project's EAS workflows, which the service runs" },
  { name: /^e2e\.yml$/, why: "a workflow file of the user's project, as the recipes name it" },
  { name: /^e2e\/appium\.mjs$/, why: "the user's test script a start-device-session recipe runs" },
  { name: /^owner\/repo$/, why: 'a repository as `GITHUB_REPOSITORY` holds it' },
  { name: /^svc\//, why: 'a commit-status context (`svc/<workflow>`)' },
  { name: /^svc-delivery\//, why: 'the tag the relay workflow claims for a delivery' },
  { name: /^gh-readonly-queue\//, why: "a merge queue's branch, GitHub's name" },
  { name: /^actions\/[\w-]+$/, why: "a third-party action (GitHub's actions/…)" },
  { name: /^svc-actions\/svc-action\//, why: 'the action as `uses:` names it' },
  { name: /^node_modules\//, why: 'made by `npm ci` (and its caches), not tracked' },
];

/**
 * Whether a code span looks like a path of the repository: no space, a `/` or a file extension; not a
 * URL or a URL's path (`/_sim/state`, `/v2`), an expression (`${{ … }}`, `${…}`), an elision (`…/api`),
 * an assignment (`OPENSSL_CONF=/dev/null`), a package or an action at a version (`@actions/core`,
 * `…@v1`), a home file (`~/.npmrc`), a bare extension (`.yml`) or a commit status's marker
 * (`[svc:~…/…]`).
 */
function looksLikePath(span: string): boolean {
  if (/\s/.test(span) || !(span.includes('/') || /\.(?:[cm]?[jt]s|json|ya?ml|md|sh|txt|example)$/.test(span)))
    return false;
  return !/^[a-z][\w+.-]*:|^\/|^~|^\[|\$\{|…|=|@|^\.\w+$/i.test(span);
}

/**
 * Whether a quoted name is a tracked file or folder: `<…>` any one name (`<a|b>` one of those), `*` any
 * name and `**` any folders; a `.js` name is also its `.ts` source (an import as TypeScript writes it);
 * a name with a leading `./` or `../` is relative to a sub-action's folder (its action.yml's
 * `../dist/<command>/index.js`). A bare name or a short path is relative to the folder its text is about
 * (CONTRIBUTING's house table names `report/failures.ts` under `src/<room>/`): it ends a tracked path.
 */
function resolves(name: string, tracked: string[]): boolean {
  const path = name.replace(/^(?:\.\.?\/)+/, '');
  const pattern = path
    .split(/(<[^>]+>|\*\*\/|\*)/)
    .map((part, index) => {
      if (index % 2 === 0) return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
      if (part === '**/') return '(?:[^/]+/)*';
      if (part === '*') return '[^/]*';
      return part.includes('|') ? `(?:${part.slice(1, -1)})` : '[^/]+';
    })
    .join('')
    .replace(/\\\.js$/, '\\.[jt]s');
  // A name without a closing `/` may be a folder too (`docs/examples`).
  const regex = new RegExp(`(?:^|/)${pattern}${path.endsWith('/') ? '' : '(?:/|$)'}`);
  return tracked.some((file) => regex.test(file));
}

describe('the file names the documents quote', () => {
  const names = DOCUMENTS.flatMap((document) => {
    const { prose, blocks } = split(read(document));
    // And the words with a `/` of the comments of the shell blocks (`# the browser tier (__tests__/browser/*.browser.ts)`).
    const commented = blocks
      .filter(({ language }) => language === 'sh')
      .flatMap(({ text }) => text.split('\n').map((line) => /\s#\s(.*)$/.exec(line)?.[1] ?? ''))
      .flatMap((comment) => comment.split(/[\s(),;]+/))
      .map((word) => word.replace(/[.:]$/, ''))
      .filter((word) => word.includes('/'));
    return [...spans(prose), ...commented].filter(looksLikePath).map((name) => ({ document, name }));
  });

  it('are found, in every document', () => {
    expect(names.length).toBeGreaterThan(100);
    expect(new Set(names.map(({ document }) => document)).size).toBeGreaterThan(8);
  });

  it('are files or folders of the repository, or named as not ours', () => {
    const missing = names.filter(
      ({ name }) => !NOT_OURS.some(({ name: pattern }) => pattern.test(name)) && !resolves(name, TRACKED),
    );
    expect(missing).toEqual([]);
  });

  it('each not-ours name is still quoted, and none is a file of ours', () => {
    for (const { name, why } of NOT_OURS) {
      const quoted = names.filter((entry) => name.test(entry.name));
      expect(`${why}: ${quoted.length > 0}`).toBe(`${why}: true`);
      for (const entry of quoted) expect(TRACKED.filter((file) => file === entry.name)).toEqual([]);
    }
  });

  it('tell a name that is not a file from one that is', () => {
    const tracked = [
      'src/runs/report/failures.ts',
      'testkit/runner/in-process.ts',
      '__tests__/recipes/run-workflow.test.ts',
      '__tests__/webhook/report.test.ts',
      'dist/main/index.js',
    ];
    for (const name of [
      'report/failures.ts',
      'src/runs/',
      'testkit/runner/in-process.js',
      '__tests__/recipes/<command>.test.ts',
      '__tests__/**/*.test.ts',
      '../dist/<command>/index.js',
      '__tests__/<runs|webhook>/',
    ])
      expect(`${name}: ${resolves(name, tracked)}`).toBe(`${name}: true`);
    for (const name of [
      'report/failure.ts',
      'src/run/',
      'testkit/runner/in-process.mjs',
      '__tests__/e2e/<command>.test.ts',
      'dist/<entry>/main.js',
      '__tests__/<sessions|commands>/',
    ])
      expect(`${name}: ${resolves(name, tracked)}`).toBe(`${name}: false`);
    for (const span of [
      'https://tsx.is',
      '/_sim/state',
      '${{ github.sha }}',
      '…/api',
      'OPENSSL_CONF=/dev/null',
      '@actions/core',
      'actions/checkout@v4',
      '~/.npmrc',
      '.yml',
      'npm run demo',
    ])
      expect(`${span}: ${looksLikePath(span)}`).toBe(`${span}: false`);
  });
});

/** A command as the documents write it: its words, quotes kept together and removed. */
const wordsOf = (command: string): string[] =>
  [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]);

/** The commands of the documents: lines of non-YAML fenced blocks and code spans that run one. */
const RUNS = /^(?:[A-Z_]+=\S+ )*(?:npm|npx|node|bash|\.ci\/run)(?: |$)/;
const COMMANDS = DOCUMENTS.flatMap((document) => {
  const { prose, blocks } = split(read(document));
  const lines = [
    ...blocks.filter(({ language }) => !/^ya?ml$/.test(language)).flatMap(({ text }) => text.split('\n')),
    ...spans(prose),
  ];
  return lines
    .map((line) =>
      line
        .replace(/^\$ /, '')
        .replace(/\s+#.*$/, '')
        .trim(),
    )
    .filter((line) => RUNS.test(line))
    .flatMap((line) => line.split(/ && | \|\| | ; /))
    .map((command) => ({ document, command: command.replace(/^(?:[A-Z_]+=\S+ )+/, '') }));
});

const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

/** What is wrong with a command, or undefined: the script, the file, the binary and the flags it names. */
function problemOf(command: string): string | undefined {
  const [tool, ...args] = wordsOf(command);
  const file = (path: string) =>
    TRACKED.includes(path) ? undefined : `${path} is not a file of the repository`;
  if (tool === '.ci/run') return file(tool);
  if (tool === 'bash') return file(args[0]);
  if (tool === 'node')
    // `node -e …` runs no file; relay.mjs is the file verify-webhook's README has the user write.
    return args[0] === '-e' || args[0] === 'relay.mjs' ? undefined : file(args[0]);
  if (tool === 'npx')
    return existsSync(join(ROOT, 'node_modules', '.bin', args[0]))
      ? undefined
      : `npx ${args[0]} is no binary`;
  // npm: its own commands, and `npm warn …`, the start of a line npm prints, which the README quotes.
  const [verb, ...rest] = args;
  if (['ci', 'install', 'exec', 'warn'].includes(verb)) return undefined;
  if (verb === 'test') return 'test' in scripts ? undefined : 'no test script';
  if (verb !== 'run') return `npm ${verb} is no npm command the project uses`;
  const script = rest.find((word) => !word.startsWith('-'))!;
  if (!(script in scripts)) return `${script} is no script of package.json`;
  const passed = rest.includes('--') ? rest.slice(rest.indexOf('--') + 1) : [];
  // The script's own file (tsx scripts/bench/main.ts), where its flags are read.
  const entry = /(?:^|\s)((?:scripts|simulator)\/\S+\.(?:ts|mjs|sh))/.exec(scripts[script])?.[1];
  if (entry && !TRACKED.includes(entry)) return `${script} runs ${entry}, not a file of the repository`;
  for (const word of passed) {
    if (word.startsWith('<')) continue; // a placeholder: `<file>`, `<command>`
    if (word.startsWith('--')) {
      // Read as `'--seed'`, or as the key `port:` of a table of flags (simulator/cli.ts).
      const flag = word.replace(/=.*/, '');
      const source = entry && read(entry);
      if (source && !source.includes(flag) && !new RegExp(`\\n +'?${flag.slice(2)}'?: \\{`).test(source))
        return `${entry} reads no ${word}`;
    } else if (/\//.test(word)) {
      const missing = file(word);
      if (missing) return missing;
    }
  }
  // The recipe's place, title and n; its flags (`--keep`) were checked above.
  const recipe = passed.filter((word) => !word.startsWith('--'));
  if (script === 'recipe' && recipe.length > 0 && !recipe.some((word) => word.startsWith('<')))
    return 'recipe' in chooseRecipe(recipe) ? undefined : `no recipe ${recipe.join(' ')}`;
  return undefined;
}

describe('the commands the documents quote', () => {
  it('are found, in blocks and in code spans', () => {
    expect(COMMANDS.length).toBeGreaterThan(60);
    for (const kind of ['npm run recipe -- run-workflow', 'node scripts/', 'npx ', '.ci/run'])
      expect(`${kind}: ${COMMANDS.some(({ command }) => command.startsWith(kind))}`).toBe(`${kind}: true`);
  });

  it('run scripts, files, binaries, flags and recipes that exist', () => {
    expect(
      COMMANDS.map(({ document, command }) => ({ document, command, problem: problemOf(command) })).filter(
        ({ problem }) => problem,
      ),
    ).toEqual([]);
  });

  it('are each told apart from one that names what does not exist', () => {
    for (const command of [
      'npm run demos',
      'npm run reliability -- --seeds 1',
      'npm run test:unit -- __tests__/runs/summary.test.ts',
      'node scripts/build/complete-lockfiles.mjs',
      'npx jests',
      'bash scripts/check-dist/main.bash',
      'npm run recipe -- run-workflow "no such recipe"',
      'npm run recipe -- run-workflow "PR gate" --kept',
      'npm tests',
    ])
      expect(`${command}: ${problemOf(command) !== undefined}`).toBe(`${command}: true`);
  });
});
