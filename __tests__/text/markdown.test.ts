/**
 * Text from elsewhere in the job summary and the pull-request comment stays text: no links, images,
 * mentions, emphasis or HTML, link labels and tables intact. Checked on the Markdown as written.
 */
import {
  httpUrl,
  markdownCode,
  markdownLink,
  markdownText,
  markdownVerbatim,
} from '../../src/text/markdown.js';
import { renderRunSummary } from '../../src/runs/report/run-summary.js';
import { renderSessionSummary } from '../../src/sessions/report/session-summary.js';
import { renderComment } from '../../src/github/comment-body.js';
import type { DeviceSession, WorkflowRun } from '../../src/service/contract.js';

const HOSTILE_MESSAGE =
  'fix](https://evil.example) ![x](https://evil.example/pixel.png) @octocat @org/team #12 *bold* _em_ ~~s~~ ' +
  '<img src=x onerror=alert(1)> <!-- c --> `code` $x$ https://evil.example www.evil.example | pipe trailing\\';

/** Table cells of a row: split on pipes GFM would split on (not those escaped by a backslash). */
function cells(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1);
}

/**
 * The Markdown with its code spans left out: inside one, GitHub renders nothing (no emphasis,
 * links, autolinks, HTML, entities, mentions or references), so only the rest must be inert. A
 * span opens with a run of backticks and closes at the next run of the same length.
 */
function outsideCodeSpans(markdown: string): string {
  return markdown.replace(/(?<!`)(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '`code`');
}

function expectInert(rendered: string): void {
  const markdown = outsideCodeSpans(rendered);
  expect(markdown).not.toMatch(/(^|[^\\])!\[/); // images
  expect(markdown).not.toMatch(/(^|[^\\])\]\(https:\/\/evil/); // a label closed early, a link to elsewhere
  expect(markdown).not.toMatch(/(^|\s)@[A-Za-z0-9]/); // a mention GitHub would find after rendering
  expect(markdown).not.toMatch(/(^|\s)#\d/); // an issue reference
  expect(markdown).not.toMatch(/<(img|!--|a |script)/i); // HTML
  expect(markdown).not.toMatch(/(^|[^\\])\*bold(?!\\)\*/); // emphasis
  expect(markdown).not.toMatch(/(^|[^\\/])https?:\/\//); // a bare URL GitHub would autolink
  expect(markdown).not.toMatch(/(^|[^\\])www\./);
}

describe('markdownText', () => {
  it('escapes every construct and keeps the words', () => {
    const text = markdownText(HOSTILE_MESSAGE, 1000);
    expectInert(text);
    expect(text).toContain('@&#8203;octocat');
    expect(text).toContain('&lt;img src=x onerror=alert\\(1\\)&gt;');
    expect(text).toMatch(/trailing\\\\$/);
  });

  it('flattens lines, so nothing starts a heading, a list or a quote', () => {
    expect(markdownText('a\n# Heading\n- item\n> quote')).toBe('a \\# Heading - item &gt; quote');
    expect(markdownText('- item')).toBe('\\- item');
    expect(markdownText('1. item')).toBe('1\\. item');
  });
});

describe('references and bidirectional controls', () => {
  it('keeps GH- references as text and shows bidirectional controls as code points, in text and code', () => {
    expect(markdownText('GH-12, gh-3 and XGH-4')).toBe('GH-&#8203;12, gh-&#8203;3 and XGH-4');
    const trojan = 'ok \u202Etxt.exe\u202C \u2066a\u2069 \u200E\u200F\u061C';
    const shown = '<U+202E>txt.exe<U+202C> <U+2066>a<U+2069> <U+200E><U+200F><U+61C>';
    expect(markdownVerbatim(trojan)).toBe(`\`ok ${shown}\``);
    expect(markdownCode(trojan)).toBe(`\`ok ${shown}\``);
    expect(markdownText(trojan)).toBe(
      `ok ${shown.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\./g, '\\.')}`,
    );
  });
});

describe('markdownCode', () => {
  it('fences past any backtick run and escapes pipes for tables', () => {
    expect(markdownCode('refs/heads/main')).toBe('`refs/heads/main`');
    expect(markdownCode('a``b|c')).toBe('```a``b\\|c```');
    expect(markdownCode('`x`')).toBe('`` `x` ``');
    expect(markdownCode('')).toBe('');
  });
});

describe('markdownVerbatim', () => {
  it('writes text from elsewhere as it came, in a code span GitHub renders as text', () => {
    const secret = 'github_pat_11AB_cd*ef|gh<i>&amp;';
    expect(markdownVerbatim(`token ${secret} refused`)).toBe(`\`token ${secret} refused\``);
    expect(markdownVerbatim('a ``b`` c')).toBe('```a ``b`` c```');
    expect(markdownVerbatim('`x')).toBe('`` `x ``');
    expect(markdownVerbatim(HOSTILE_MESSAGE, 1000)).toBe(`\`\`${HOSTILE_MESSAGE}\`\``);
    // Line breaks are flattened: a code span cannot hold a block (a heading, a list) after one.
    expect(markdownVerbatim('a\n# b\n- c')).toBe('`a # b - c`');
  });

  it('cuts between words, never inside one: a word that does not fit is left out whole', () => {
    const secret = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    expect(markdownVerbatim(`refused: ${secret} (401)`, 30)).toBe('`refused: …`');
    expect(markdownVerbatim(secret, 30)).toBe('`…`');
  });
});

describe('markdownLink', () => {
  it('links only http(s) URLs, with a label that cannot close early', () => {
    expect(markdownLink('run ] [x](https://evil.example)', 'https://svc.example/runs/1')).toBe(
      '[run \\] \\[x\\]\\(https\\://evil\\.example\\)](<https://svc.example/runs/1>)',
    );
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'not a url', '', null])
      expect(markdownLink('label', url)).toBe('label');
  });

  it('encodes what could end the link or split a table', () => {
    expect(httpUrl('https://svc.example/a|b\\c)d>e<f g')).toBe('https://svc.example/a%7Cb/c%29d%3Ee%3Cf%20g');
    expect(httpUrl('https://svc.example/?q=a|b)')).toBe('https://svc.example/?q=a%7Cb%29');
  });
});

describe('job summary and comment', () => {
  const run: WorkflowRun = {
    id: '0b7e1f52-1c2a-4b7e-9d3f-2a1b3c4d5e6f',
    status: 'failure',
    url: 'https://svc.example/runs/1',
    gitCommitHash: 'abcdef1234567890',
    gitCommitMessage: HOSTILE_MESSAGE,
    requestedGitRef: 'refs/heads/a|b`c',
    jobs: [
      { key: 'build|x', name: HOSTILE_MESSAGE, type: 'build', status: 'failure' },
      { key: 'test', name: 'Tests\\', type: 'test|x', status: 'success' },
    ],
  } as unknown as WorkflowRun;

  it('keeps every table row at its column count, and renders nothing from elsewhere as Markdown', () => {
    const summary = renderRunSummary(
      {
        title: 'gate.yml',
        runId: run.id,
        runUrl: run.url ?? '',
        run,
        outcome: 'failure',
        reason: HOSTILE_MESSAGE,
      },
      (text) => text,
    );
    const rows = summary.split('\n').filter((line) => line.startsWith('|'));
    const jobsHeader = rows.findIndex((row) => row.startsWith('| Job '));
    rows.forEach((row, index) => expect(cells(row)).toHaveLength(index >= jobsHeader ? 4 : 5));
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expectInert(summary.replace(/\(<https:\/\/svc\.example\/runs\/1>\)/g, ''));
  });

  it('links a session only to the URLs the service gave, whatever the name says', () => {
    const session = {
      id: 'f3c1a2b4-5d6e-4f70-8a9b-0c1d2e3f4a5b',
      name: '@octocat ![x](https://evil.example/p.png)',
      status: 'in-progress',
      platform: 'ios',
      type: 'agent-device',
      url: 'javascript:alert(1)',
      remoteConfig: { webPreviewUrl: 'https://svc.example/preview/1' },
    } as unknown as DeviceSession;
    const summary = renderSessionSummary({ session, outcome: 'ready', note: 'note' }, (text) => text);
    expect(summary).toContain('[open](<https://svc.example/preview/1>)');
    expect(summary).not.toContain('javascript:');
    expectInert(summary.replace('(<https://svc.example/preview/1>)', ''));
  });

  it('the pull-request comment escapes the subject and names, and carries no free-form text from the service', () => {
    const body = renderComment(
      {
        kind: 'run-workflow',
        subject: 'gate`.yml @octocat',
        outputs: {
          'run-id': run.id,
          'run-url': 'https://svc.example/runs/1',
          status: 'failure',
          jobs: JSON.stringify(run.jobs.map((job) => ({ ...job, errors: [`error: ${HOSTILE_MESSAGE}`] }))),
        },
        failed: true,
      },
      { redact: (text) => text },
      { GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'acme/app', GITHUB_RUN_ID: '777' },
    );
    expect(body).toContain('Workflow run ``gate`.yml @octocat``');
    expect(body).toContain('[job summary](<https://github.example/acme/app/actions/runs/777>)');
    expect(body).toContain('[GitHub workflow run 777](<https://github.example/acme/app/actions/runs/777>)');
    expect(body).toContain('| Tests\\\\ (`test`) | ✅ success |');
    expect(body).not.toContain('error:');
    const [marker, ...rest] = body.split('\n');
    expect(marker).toBe('<!-- svc-action:comment:run-workflow:gate%60.yml%20%40octocat -->');
    // The links to the run and to the GitHub run are ours; the rest (job names included) must be inert.
    expectInert(
      rest
        .join('\n')
        .replace('(<https://svc.example/runs/1>)', '')
        .replaceAll('(<https://github.example/acme/app/actions/runs/777>)', ''),
    );
  });
});
