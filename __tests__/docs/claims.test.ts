/**
 * Claims of the Markdown files and of `.env.example` that a reader acts on, held to what the project
 * does (issue 32 item 5): CONTRIBUTING's lists of generated README blocks and of `scripts/` tools, and
 * what the README says `.env.example` sets.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../testkit/runner/step.js';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const contributing = read('CONTRIBUTING.md');

describe("CONTRIBUTING's lists", () => {
  it('name every generated block of each README', () => {
    // The paragraph that says where the generated blocks are.
    const paragraph = contributing.slice(contributing.indexOf('The generated blocks sit between'));
    const said = paragraph.slice(0, paragraph.indexOf('Everything outside them'));
    // Each README's generated blocks, by their markers (npm run check:generated holds them to the tables).
    const readmes = [
      'README.md',
      ...readdirSync(ROOT)
        .filter((name) => existsSync(join(ROOT, name, 'action.yml')))
        .map((name) => `${name}/README.md`),
    ];
    const missing: string[] = [];
    for (const readme of readmes)
      for (const [, name] of read(readme).matchAll(/<!-- generated:(\S+):start -->/g)) {
        const generic =
          readme === 'README.md' ? name : name.replace(`:${readme.split('/')[0]}`, ':<command>');
        if (!said.includes(`\`${generic}\``)) missing.push(`${readme}: ${name}`);
      }
    expect(missing).toEqual([]);
  });

  it('name every tool of scripts/', () => {
    const row = contributing.split('\n').find((line) => line.startsWith('| `scripts/<tool>/`'))!;
    const tools = readdirSync(join(ROOT, 'scripts')).filter((name) =>
      statSync(join(ROOT, 'scripts', name)).isDirectory(),
    );
    expect(tools.filter((tool) => !row.includes(`\`${tool}\``))).toEqual([]);
  });
});

describe('.env.example', () => {
  it('says what local-action does with the github-token default, as the README does', () => {
    const example = read('.env.example');
    const readme = read('README.md');
    // local-action does not evaluate `${{ github.token }}`: the example says so, and where to set a token.
    expect(example).toContain('# INPUT_GITHUB-TOKEN=');
    expect(example).toContain('${{ github.token }}');
    expect(readme).not.toContain('`.env.example` sets it');
    expect(readme).toContain('`.env.example` says where to set a token');
  });
});

describe("the CHANGELOG's Unreleased entry", () => {
  const changelog = read('CHANGELOG.md');
  const unreleased = changelog.slice(changelog.indexOf('## [Unreleased]'), changelog.indexOf('## [1.0.0]'));
  it.each([
    ['dry-run', '`dry-run: true`'],
    ['failed-jobs', '`failed-jobs`'],
    ['the base-URL advice', 'The base URL is blamed only for an answer that is not the service'],
    ['the git-ref warning', 'A `git-ref` that YAML reads as a number'],
    ['the 360-minute notice', '`timeout-minutes` above 360'],
    ['the bounded outputs', 'stay under 512 KiB together'],
  ])('names %s', (_what, words) => {
    // Words as a reader sees them: a line break is a space.
    expect(unreleased.replace(/\s+/g, ' ')).toContain(words);
  });
});

describe("the README's Troubleshooting table", () => {
  const readme = read('README.md');
  const start = readme.indexOf('## Troubleshooting');
  const table = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const sources = [
    'src/github/statuses.ts',
    'src/github/status-ledger.ts',
    'src/runs/commit-statuses.ts',
    'src/runs/dry-run.ts',
    'src/runs/report/dispatch-failures.ts',
    'src/commands/run-workflow.ts',
    'src/runs/follow.ts',
    'src/runs/follow-inputs.ts',
    'src/runs/run-outputs.ts',
    'src/runs/outcome.ts',
    'src/inputs/parsers.ts',
  ]
    .map(read)
    .join('\n');
  // Each opening as the source writes it (its code spans escaped) and as the table shows it.
  it.each([
    ['Commit statuses were not posted: ', 'Commit statuses were not posted: '],
    ['Commit statuses left unset on commit ', 'Commit statuses left unset on commit '],
    [
      'commit-statuses: the run does not name its commit as a whole SHA',
      'commit-statuses: the run does not name its commit as a whole SHA',
    ],
    ['commit-statuses: the run has ', 'commit-statuses: the run has '],
    [
      '`status-context` is set, but `commit-statuses` is not `true`',
      '`status-context` is set, but `commit-statuses` is not `true`',
    ],
    ['Dry run: nothing was dispatched', 'Dry run: nothing was dispatched'],
    [
      'Dry run: the workflow file is not in the commit git-ref names',
      'Dry run: the workflow file is not in the commit git-ref names',
    ],
    ['Dry run: the service at ', 'Dry run: the service at '],
    ['Dry run: \\`base-url\\` ', 'Dry run: `base-url` '],
    ['which YAML reads as a number', 'which YAML reads as a number'],
    ['hold the first ${jobs.length} in pipeline order', 'outputs hold the first'],
  ])('has a row for the message with %s', (inSource, inTable) => {
    expect(sources).toContain(inSource);
    expect(table).toContain(inTable);
  });
});

describe('"What `npm ci` and `npm test` print"', () => {
  it('shows the line npm test prints before it builds dist/', () => {
    const setUp = read('testkit/runner/fresh-bundles.mjs');
    const line = /process\.stdout\.write\('\\n(Building dist\/[^\\]*)\\n'\)/.exec(setUp)?.[1];
    expect(line).toBeDefined();
    const readme = read('README.md');
    const section = readme.slice(
      readme.indexOf('### What `npm ci` and `npm test` print'),
      readme.indexOf('## Contributing'),
    );
    expect(section.replace(/\s+/g, ' ')).toContain(`\`${line}\``);
  });

  it("shows Jest's deprecation line for the workflow parser's JSON import, while both still print and import it so", () => {
    const jest = read('node_modules/jest-runtime/build/index.js');
    const parser = read('node_modules/@actions/workflow-parser/dist/workflows/workflow-schema.js');
    const readme = read('README.md');
    const section = readme
      .slice(readme.indexOf('### What `npm ci` and `npm test` print'), readme.indexOf('## Contributing'))
      .replace(/\s+/g, ' ');
    const warned = jest.includes('importing JSON without an import attribute is deprecated');
    const imported = /import \w+ from "\.\.\/workflow-v1\.0\.min\.json";/.test(parser);
    // Said while npm test prints it; gone from the README once either side changes.
    expect(section.includes('Jest: importing JSON without an import attribute is deprecated')).toBe(
      warned && imported,
    );
  });
});

describe('comments', () => {
  it('of src/, scripts/ and the test kit name only files that exist', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const exists = (name: string): boolean =>
      files.some((file) => file === name || file.endsWith(`/${name.replace(/^\.\//, '')}`));
    const stale: string[] = [];
    for (const file of files.filter((path) => /^(src|scripts|testkit)\/.*\.(ts|mjs)$/.test(path))) {
      for (const comment of read(file).match(/\/\/.*|\/\*[\s\S]*?\*\//g) ?? [])
        for (const [name] of comment.matchAll(/[\w./-]+\.(?:ts|mjs)\b/g))
          // relay.mjs and e2e/appium.mjs are files a recipe writes, not files of the repository.
          if (!['relay.mjs', 'e2e/appium.mjs'].includes(name) && !exists(name))
            stale.push(`${file}: ${name}`);
    }
    expect(stale).toEqual([]);
  });
});
