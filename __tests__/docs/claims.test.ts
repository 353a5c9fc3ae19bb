/**
 * Claims of the Markdown files and of `.env.example` that a reader acts on, held to what the project
 * does (issue 32 item 5, issue 41 item 3): CONTRIBUTING's lists of generated README blocks and of
 * `scripts/` tools, what the README says `.env.example` sets, every row of the README's
 * Troubleshooting table to the message it explains, and what the CHANGELOG, SECURITY and the READMEs
 * say of what has shipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { asPrinted, holds } from '../../testkit/docs/printed-text.js';
import { API, problemsOf } from '../../testkit/world/sources.js';
import { ROOT } from '../../testkit/runner/step.js';
import { markerOf, parseMarker, posterOf } from '../../src/github/status-marker.js';

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
  const unreleased = changelog
    .slice(changelog.indexOf('## [Unreleased]'), changelog.indexOf('## [1.0.0]'))
    .replace(/\s+/g, ' '); // words as a reader sees them: a line break is a space
  it.each([
    ['the interface versions it covers', '## [Unreleased]: interface v2 to v6'],
    ['dry-run', '`dry-run: true`'],
    ['what a dry run reads', 'It reads the service twice: a run that does not exist'],
    ['the 404 a dry run blames', 'a 404 to the second read fails naming `base-url`'],
    ['failed-jobs', '`failed-jobs`'],
    ['the base-URL advice', "beside `git-ref` and `workflow` in a dispatch's 404 when it has a path"],
    ['the git-ref warning', 'A `git-ref` that YAML reads as a number'],
    ['the 360-minute notice', '`timeout-minutes` above 360'],
    ['the bounded outputs', 'stay under 512 KiB together'],
    ['the delivery key', "`delivery-key` (interface v5): a hash of the event's identity"],
    ['the tag the relay workflow claims', 'claims a tag, `svc-delivery/<delivery-key>`'],
    ['the required session-id', 'Its `session-id` is required (interface v5)'],
    ["the simulator's log", 'logs a line per request and per state change'],
    ["the simulator's pages", 'serves a read-only page at every URL the action prints'],
    ["the simulator's GitHub stand-in", 'holds a GitHub stand-in'],
    ['--quiet', '`--quiet` for none'],
    ['--allowed-hosts and the 421', 'gets a 421 that says how to allow the name (`--allowed-hosts`'],
    [
      "npm run recipe's matching",
      "matched by its workflow's `name:` or the README heading above it, in any case",
    ],
    [
      'the shorter marker',
      "`sync-statuses` and the gate's shared-context check read both the old and the new form until the next major version: upgrade the gate and `sync-statuses` together",
    ],
  ])('names %s', (_what, words) => {
    expect(unreleased).toContain(words);
  });

  it.each([
    ['the delivery key as a hash of the body', 'SHA-256 of the raw body'],
    ['no status left pending', 'none is left pending when the step ends'],
    ['six commands', 'all six commands'],
    ["the relay's log as a line per request", 'one line per refused request'],
    ['the old post budget', '250 posts per step'],
    ['one read of a dry run', 'reads the service once'],
    ['the base URL blamed only for another shape', 'The base URL is blamed only for'],
    ['an optional session-id', 'default `SVC_DEVICE_SESSION_ID`'],
  ])('no longer says %s', (_what, words) => {
    expect(unreleased).not.toContain(words);
  });

  it("quotes the marker's two forms as the code writes and reads them, and their lengths", () => {
    const [, compact, old] = /`(\[svc:~[^`]+\])` for `(\[svc:[^`]+\])`/.exec(unreleased) ?? [];
    const poster = posterOf('123e4567-e89b-12d3-a456-426614174000', {
      GITHUB_RUN_ID: '19283746501',
      GITHUB_RUN_ATTEMPT: '1',
    });
    expect(compact).toBe(markerOf(poster));
    expect(parseMarker(`words ${old}`)).toEqual(poster);
    expect(unreleased).toContain(
      `that is ${compact.length} of a description's 140 characters instead of ${old.length}`,
    );
  });

  it('counts the commands there are, and names each in its sub-action entry', () => {
    const commands = readdirSync(ROOT).filter((name) => existsSync(join(ROOT, name, 'action.yml')));
    const entry = /\*\*A sub-action per command\*\*, (\w+) in all: [^.]*\./.exec(unreleased);
    expect(entry?.[1]).toBe(['five', 'six', 'seven', 'eight'][commands.length - 5]);
    // `svc-actions/svc-action/run-workflow@v1`, then the others by name.
    for (const command of commands) expect(entry?.[0]).toMatch(new RegExp(`[\`/]${command}[\`@]`));
  });
});

describe('what the documents say a dry run sends', () => {
  it('is its two reads of the service and nothing to GitHub, never "no request"', () => {
    const dryRun = read('run-workflow/action.yml').replace(/\s+/g, ' ');
    for (const document of ['README.md', 'run-workflow/README.md', 'CHANGELOG.md', 'SECURITY.md']) {
      const text = read(document).replace(/\s+/g, ' ');
      expect(text).not.toContain('no request reaches the service');
      expect(text).not.toContain('reads the service once');
    }
    expect(read('run-workflow/README.md').replace(/\s+/g, ' ')).toContain(
      'Its only requests are two reads that create nothing',
    );
    expect(dryRun).toContain('two reads that create nothing');
  });
});

describe("the README's Troubleshooting table", () => {
  const readme = read('README.md');
  const start = readme.indexOf('## Troubleshooting');
  const table = readme.slice(start, readme.indexOf('\n## ', start + 1));
  // The first cell of each row below the header: the message, as code spans (alternatives beside each other).
  const rows = table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(2, line.indexOf(' | ')).trim());
  // Where the messages come from: the action, the simulator, the relay of verify-webhook/README.md, and
  // the runner (its one message here, as the kit's emulation of the runner prints it).
  const files = execFileSync('git', ['ls-files', 'src', 'simulator'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file.endsWith('.ts'));
  const webhookReadme = read('verify-webhook/README.md');
  const relay = /```js\n(\/\/ relay\.mjs[\s\S]*?)```/.exec(webhookReadme)?.[1] ?? '';
  const corpus = [...files.map(read), relay, read('testkit/runner/workflow.ts')].map(asPrinted).join('\n');

  it('has its rows, and the relay block is found', () => {
    expect(rows.length).toBeGreaterThan(50);
    expect(relay).toContain('createServer(');
  });

  // And the messages its prose quotes (in double backticks, as they hold a code span).
  const quoted = [...table.slice(0, table.indexOf('| Message')).matchAll(/``[^`][\s\S]*?``/g)].map(
    ([span]) => span,
  );

  it('quotes messages in its prose too', () => {
    expect(quoted.length).toBeGreaterThan(1);
  });

  it.each([...rows, ...quoted].map((row) => [row]))('holds %s to the message it explains', (row) => {
    const messages = [...row.matchAll(/(`+) ?([^`][\s\S]*?) ?\1(?!`)/g)].map((match) => match[2]);
    expect(messages.length).toBeGreaterThan(0);
    const unfound = messages
      .flatMap((message) => message.split('…'))
      .map((fragment) => fragment.trim())
      .filter((fragment) => /\w/.test(fragment) && !holds(corpus, fragment));
    expect(unfound).toEqual([]);
  });
});

describe("sync-statuses' `commit` input", () => {
  it("suggests, when refused, what the settling recipe's relay step passes", () => {
    const recipe = read('sync-statuses/README.md');
    const passed = /\n\s+commit: (\$\{\{ [^}]+ \}\})\n/.exec(recipe)?.[1];
    expect(passed).toBe('${{ steps.delivery.outputs.commit }}');
    // The step that sets it reads the commit of a build's delivery.
    expect(recipe).toContain("jq -r '.metadata.gitCommitHash? // empty'");
    const [problem] = problemsOf('sync-statuses', { ...API, commit: 'main' });
    expect(problem).toContain(`\`${passed}\``);
    expect(problem).toContain("a build delivery's `metadata.gitCommitHash`");
  });
});

describe('the uses of `github-token`', () => {
  it('are all named by the README and SECURITY, for every command that takes it', () => {
    // The commands whose action.yml declares it, and what each uses it for.
    const uses: Record<string, string[]> = {
      'run-workflow': ['`comment: true`', '`commit-statuses: true`'],
      'wait-for-run': ['`comment: true`', '`commit-statuses: true`'],
      'start-device-session': ['`comment: true`'],
      'sync-statuses': ['`sync-statuses`'],
    };
    const taking = readdirSync(ROOT).filter((name) =>
      /\n {2}github-token:/.test(
        existsSync(join(ROOT, name, 'action.yml')) ? read(`${name}/action.yml`) : '',
      ),
    );
    expect(taking.sort()).toEqual(Object.keys(uses).sort());
    for (const document of ['README.md', 'SECURITY.md']) {
      const text = read(document).replace(/\s+/g, ' ');
      expect(text).not.toContain('checked only when a comment is posted');
      const said = /`github-token` is read only where it is used: .*?; an unused one never fails a step/.exec(
        text,
      )?.[0];
      expect(said).toBeDefined();
      for (const use of new Set(Object.values(uses).flat())) expect(said).toContain(use);
    }
  });
});

describe("verify-webhook/README.md's relay", () => {
  const readme = read('verify-webhook/README.md');
  const relay = /```js\n(\/\/ relay\.mjs[\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const prose = readme
    .slice(readme.indexOf('**1. The relay**'), readme.indexOf('```js'))
    .replace(/\s+/g, ' ');

  it('says each status its block answers', () => {
    const answered = [
      ...[...relay.matchAll(/refuse\(req, res, (\d{3}),/g)].map((match) => match[1]),
      ...[...relay.matchAll(/'(\d{3}) [A-Z][a-z]+ [A-Z][a-z]+'/g)].map((match) => match[1]),
    ];
    expect(new Set(answered)).toEqual(
      new Set(['405', '413', '401', '422', '200', '409', '502', '408', '400']),
    );
    for (const status of answered) expect(prose).toMatch(new RegExp(`\\b${status}\\b`));
  });

  it('logs what the prose says it logs', () => {
    // Every refusal goes through one throttled logger, with the peer, never the body or the signature.
    expect(relay.match(/logRefusal\(/g)?.length).toBe(5); // its definition, refuse, clientError, drop, per address
    expect(relay).toContain('console.log(`${new Date().toISOString()} ${text} (from ${peer})`)');
    expect(relay).toContain('more in the last second');
    expect(prose).toContain(
      'one line a second for each kind of refusal at most, then a line with how many more',
    );
    expect(prose).toContain("logged with the peer's address, without its body or signature");
    // The one refusal that is not logged, said.
    expect(relay).toContain('if (!socket.writable) return socket.destroy();');
    expect(prose).toContain(
      'A client that has already gone when its request times out is not answered, and not logged.',
    );
  });
});

describe('the simulator as the documents start and drive it', () => {
  const documents = [
    'README.md',
    'CONTRIBUTING.md',
    'SECURITY.md',
    'docs/performance.md',
    'docs/reliability.md',
  ];
  const cli = read('simulator/cli.ts');
  const flags = new Set(
    [
      ...cli
        .slice(cli.indexOf('const FLAGS'), cli.indexOf('\n};', cli.indexOf('const FLAGS')))
        .matchAll(/^ {2}'?([a-z-]+)'?: \{/gm),
    ].map((match) => match[1]),
  );

  it('with flags it has, on every line that starts it', () => {
    expect(flags.has('allowed-hosts')).toBe(true);
    const named = documents.flatMap((document) =>
      read(document)
        .split('\n')
        .filter((line) => line.includes('npm run simulator'))
        .flatMap((line) => [...line.matchAll(/--([a-z][a-z-]+)/g)].map((match) => match[1])),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((flag) => !flags.has(flag))).toEqual([]);
  });

  it('with control routes it has', () => {
    const control = read('simulator/control.ts');
    const routes = [...control.matchAll(/'(\/_sim\/[^']*)'/g)].map(
      ([, route]) => new RegExp(`^${route.replace(/:\w+/g, '[^/]+')}$`),
    );
    const named = documents.flatMap((document) =>
      [...read(document).matchAll(/(\/_sim\/[\w/:.-]*\w)/g)].map((match) => match[1]),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((path) => !routes.some((route) => route.test(path)))).toEqual([]);
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
