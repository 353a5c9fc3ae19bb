/**
 * Text from elsewhere in the job summary and the pull-request comment stays text: no links, images,
 * mentions, emphasis or HTML, link labels and tables intact. Checked on the Markdown as written.
 */
import { httpUrl, markdownCode, markdownLink, markdownText } from '../../src/markdown.js';
import { renderRunSummary, renderSessionSummary } from '../../src/summary.js';
import { renderComment } from '../../src/pr-comment.js';
import type { DeviceSession, WorkflowRun } from '../../src/service/contract.js';

const HOSTILE_MESSAGE =
  'fix](https://evil.example) ![x](https://evil.example/pixel.png) @octocat @org/team #12 *bold* _em_ ~~s~~ ' +
  '<img src=x onerror=alert(1)> <!-- c --> `code` $x$ https://evil.example www.evil.example | pipe trailing\\';

/** Table cells of a row: split on pipes GFM would split on (not those escaped by a backslash). */
function cells(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1);
}

function expectInert(markdown: string): void {
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

describe('markdownCode', () => {
  it('fences past any backtick run and escapes pipes for tables', () => {
    expect(markdownCode('refs/heads/main')).toBe('`refs/heads/main`');
    expect(markdownCode('a``b|c')).toBe('```a``b\\|c```');
    expect(markdownCode('`x`')).toBe('`` `x` ``');
    expect(markdownCode('')).toBe('');
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
        outcome: 'failed',
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

  it('the pull-request comment escapes the subject and the failure', () => {
    const body = renderComment(
      { command: 'run-workflow', subject: 'gate`.yml @octocat', summaries: [], failure: HOSTILE_MESSAGE },
      { redact: (text) => text },
      { GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'acme/app', GITHUB_RUN_ID: '777' },
    );
    expect(body).toContain('Workflow run ``gate`.yml @octocat``');
    expect(body).toContain('[GitHub workflow run 777](<https://github.example/acme/app/actions/runs/777>)');
    const [marker, ...rest] = body.split('\n');
    expect(marker).toBe('<!-- svc-action:comment:run-workflow:gate%60.yml%20%40octocat -->');
    // Code spans and the one link to the GitHub run are ours; the rest must be inert.
    expectInert(
      rest
        .join('\n')
        .replace('``gate`.yml @octocat``', '')
        .replace('(<https://github.example/acme/app/actions/runs/777>)', ''),
    );
  });
});
