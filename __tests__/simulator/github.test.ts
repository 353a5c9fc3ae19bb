/**
 * GitHub's side in the simulator (issue 33, item 3): the action's commit statuses and comment reach
 * `sim.github` at `${sim.url}/_github`, and the pull request's page shows the latest status per
 * context on its head commit and the comments, rendered as GitHub would (raw HTML limited to what it
 * allows, comments hidden, the rest escaped). GitHub's requests are logged without their token and
 * are not the service's requests.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { call, visible } from './helpers.js';
import { runStep } from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';
import { renderComment } from '../../simulator/github/index.js';

const GITHUB_TOKEN = 'ghs_standInToken0123456789abcdef';
const PIPELINE = workflow('Pipeline', { build: { type: 'build' }, e2e: { needs: ['build'] } });

let w: World;
let dir: string;
beforeEach(async () => {
  w = await createWorld({ 'pipeline.yml': PIPELINE }, { defaultJobDurationMs: 40 });
  dir = mkdtempSync(join(tmpdir(), 'github-stand-in-'));
});
afterEach(async () => {
  await w.sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the simulator's GitHub", () => {
  it('receives the gate’s statuses and comment; the pull request’s page shows each context with its state', async () => {
    const head = w.repo.headSha;
    w.sim.github.addPullRequest({ number: 7, head, title: 'Add the gate' });
    writeFileSync(
      join(dir, 'event.json'),
      JSON.stringify({ pull_request: { number: 7, head: { sha: head } } }),
    );
    const result = await runStep('run-workflow', {
      inputs: {
        ...w.api,
        workflow: 'pipeline.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '0.05',
        'commit-statuses': 'true',
        comment: 'true',
        'github-token': GITHUB_TOKEN,
      },
      env: {
        GITHUB_API_URL: w.sim.github.url,
        GITHUB_REPOSITORY: 'acme/app',
        GITHUB_SHA: 'feedface'.repeat(5),
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: join(dir, 'event.json'),
      },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toMatch(/were not posted|GitHub answered/);
    expect(w.sim.github.url).toBe(`${w.sim.url}/_github`);
    const states = w.sim.github.states(head);
    expect(states).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });

    const page = await call(w.sim, 'GET', '/_github/acme/app/pull/7', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    const text = visible(page.text);
    expect(text).toContain(`Add the gate #7`);
    expect(text).toContain(`head commit ${head}`);
    for (const context of Object.keys(states)) expect(page.text).toContain(`data-context="${context}"`);
    expect(page.text.match(/data-state="success"/g)).toHaveLength(3);
    expect(text).toContain('Checks: success');
    // The comment, rendered: the action's table is a table, its hidden marker is not shown.
    expect(w.sim.github.commentsOn(7)).toHaveLength(1);
    expect(page.text).toContain('<table>');
    expect(page.text).not.toContain('&lt;!--');
    // The link the step printed for its comment opens this page at the comment (GitHub's anchor form).
    const [comment] = w.sim.github.commentsOn(7);
    const printed = `${w.sim.github.url}/acme/app/pull/7#issuecomment-${comment.id}`;
    expect(result.stdout).toContain(`Commented on pull request #7: ${printed}`);
    const linked = await call(w.sim, 'GET', new URL(printed).pathname, { headers: { accept: 'text/html' } });
    expect(linked.status).toBe(200);
    expect(linked.text).toContain(`<div class="comment" id="issuecomment-${comment.id}">`);
    // What the gate cost GitHub, counted for the repository and shown on the page.
    const [counted] = w.sim.github.counts('acme/app');
    expect(counted).toMatchObject({
      token: 'installation:github-actions[bot]',
      restWrites: expect.any(Number),
    });
    const requests = w.sim.github.requests;
    expect(counted.restWrites).toBe(
      requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').length,
    );
    expect(counted.restWrites).toBe(w.sim.github.statuses.length + 1);
    expect(text).toContain(
      `installation:github-actions[bot] ${counted.restReads} ${counted.restWrites} ${counted.graphqlRequests} ${counted.graphqlPoints} ${counted.refused}`,
    );

    // GitHub's requests: logged without the token, kept by the stand-in, not the service's.
    const log = w.sim.log.lines.join('\n');
    expect(log).toMatch(/POST \/_github\/repos\/acme\/app\/statuses\/[0-9a-f]{7} 201/);
    expect(log).not.toContain(GITHUB_TOKEN);
    expect(apiRequests(w.sim).some((request) => request.includes('/_github'))).toBe(false);
    expect(w.sim.github.requests.every((request) => request.authorization?.endsWith(GITHUB_TOKEN))).toBe(
      true,
    );
  });

  it('a pull request it does not hold is a 404 page; its API answers 404 JSON for an unknown route', async () => {
    const page = await call(w.sim, 'GET', '/_github/acme/app/pull/99', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(visible(page.text)).toContain('No pull request #99 in acme/app');
    const api = await call(w.sim, 'GET', '/_github/repos/acme/app/nothing');
    expect(api.status).toBe(404);
    expect(api.json).toEqual({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  });

  it('the stand-in is forgotten by a reset', async () => {
    w.sim.github.addPullRequest({ number: 1, head: 'a'.repeat(40) });
    await call(w.sim, 'POST', '/_github/repos/acme/app/statuses/' + 'a'.repeat(40), {
      body: { context: 'svc/x', state: 'pending' },
    });
    expect(w.sim.github.statuses).toHaveLength(1);
    await call(w.sim, 'POST', '/_sim/reset');
    expect(w.sim.github.statuses).toEqual([]);
    expect(w.sim.github.pullRequests).toEqual([]);
  });

  it('lists statuses newest first, each with its id and creator, in pages linked by rel="next"', async () => {
    const sha = 'b'.repeat(40);
    const post = (context: string, state: string) =>
      call(w.sim, 'POST', `/_github/repos/acme/app/statuses/${sha}`, { body: { context, state } });
    expect((await post('svc/a', 'pending')).json).toMatchObject({ id: 1 });
    // Another commit's status takes id 2: ids are places among all statuses posted.
    await call(w.sim, 'POST', `/_github/repos/acme/app/statuses/${'c'.repeat(40)}`, {
      body: { context: 'svc/a', state: 'pending' },
    });
    w.sim.github.viewer = { login: 'someone', type: 'User' };
    await post('svc/a', 'success');
    w.sim.github.statuses.push({ sha, context: 'svc/b', state: 'pending', creator: { login: 'mallory' } });
    const first = await call(w.sim, 'GET', `/_github/repos/acme/app/commits/${sha}/statuses?per_page=2`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject([
      { id: 4, context: 'svc/b', creator: { login: 'mallory' } },
      { id: 3, context: 'svc/a', state: 'success', creator: { login: 'someone' } },
    ]);
    const secondPage = `<${w.sim.github.url}/repos/acme/app/commits/${sha}/statuses?per_page=2&page=2>`;
    expect(first.headers.link).toBe(`${secondPage}; rel="next", ${secondPage}; rel="last"`);
    const second = await call(
      w.sim,
      'GET',
      `/_github/repos/acme/app/commits/${sha}/statuses?per_page=2&page=2`,
    );
    expect(second.json).toMatchObject([
      { id: 1, state: 'pending', creator: { login: 'github-actions[bot]' } },
    ]);
    expect(second.headers.link).not.toContain('rel="next"');
  });

  it('answers the next status posts from its queue, then accepts them', async () => {
    w.sim.github.nextStatusAnswers = [
      { status: 502 },
      { status: 403, headers: { 'retry-after': '1' }, message: 'rate' },
    ];
    const post = () =>
      call(w.sim, 'POST', `/_github/repos/acme/app/statuses/${'d'.repeat(40)}`, {
        body: { context: 'svc/a', state: 'pending' },
      });
    expect((await post()).status).toBe(502);
    const limited = await post();
    expect([limited.status, limited.headers['retry-after'], limited.json]).toEqual([
      403,
      '1',
      { message: 'rate' },
    ]);
    expect((await post()).status).toBe(201);
    expect(w.sim.github.statuses).toHaveLength(1);
  });

  it('takes a world’s GitHub settings; each GitHub request’s log line carries its repository’s counts', async () => {
    const limited = await createWorld({}, { github: { limits: { rest: 15_000, writesPerMinute: 1 } } });
    try {
      const post = () =>
        call(limited.sim, 'POST', `/_github/repos/acme/app/statuses/${'e'.repeat(40)}`, {
          body: { context: 'svc/a', state: 'pending' },
        });
      const first = await post();
      expect([first.status, first.headers['x-ratelimit-limit']]).toEqual([201, '15000']);
      const second = await post();
      expect([second.status, second.headers['retry-after']]).toEqual([403, '60']);
      const lines = limited.sim.log.lines.filter((line) => line.includes('/_github/'));
      expect(lines.at(-1)).toMatch(
        /^.*POST \/_github\/repos\/acme\/app\/statuses\/\S+ 403 \d+ ms · acme\/app so far: 0 REST reads, 2 REST writes, 0 GraphQL points$/,
      );
      expect(limited.sim.log.lines.join('\n')).toContain(
        'GitHub: a rate limit refused a request of installation:github-actions[bot] (403)',
      );
    } finally {
      await limited.sim.close();
    }
  });

  it('lists the open pull requests of a repository and creates a ref once (422 after)', async () => {
    w.sim.github.addPullRequest({ number: 7, head: 'e'.repeat(40) });
    w.sim.github.addPullRequest({ owner: 'acme', repo: 'other', number: 8, head: 'f'.repeat(40) });
    const pulls = await call(w.sim, 'GET', '/_github/repos/acme/app/pulls?state=open&per_page=100');
    expect(pulls.json).toMatchObject([{ number: 7, head: { sha: 'e'.repeat(40) } }]);
    const create = () =>
      call(w.sim, 'POST', '/_github/repos/acme/app/git/refs', {
        body: { ref: 'refs/tags/svc-delivery/x', sha: 'e'.repeat(40) },
      });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(422);
    expect(w.sim.github.refs).toEqual(['refs/tags/svc-delivery/x']);
    await call(w.sim, 'POST', '/_sim/reset');
    expect(w.sim.github.refs).toEqual([]);
  });
});

describe('comments as GitHub renders them', () => {
  it('keeps the tags GitHub allows, hides HTML comments and escapes everything else', () => {
    const out = renderComment(
      [
        '<!-- svc-action:sticky -->',
        '**Gate** <sub>small</sub> <kbd>x</kbd>',
        '',
        '<details open><summary>More</summary>',
        '',
        'inside',
        '',
        '</details>',
        '',
        '<script>alert(1)</script>',
        '',
        'a <img src="http://evil.example/x.png" onerror="alert(1)"> b <a href="javascript:alert(1)" onclick="x()">link</a>',
        '',
        '![logo](http://evil.example/logo.png) [ok](https://example.com/run)',
      ].join('\n'),
    ).markup;
    expect(out).not.toContain('svc-action:sticky');
    expect(out).toContain('<strong>Gate</strong> <sub>small</sub> <kbd>x</kbd>');
    expect(out).toContain('<details open><summary>More</summary>');
    expect(out).toContain('</details>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain(
      '&lt;img src=&quot;http://evil.example/x.png&quot; onerror=&quot;alert(1)&quot;&gt;',
    );
    expect(out).toContain('<a>link</a>');
    expect(out).toContain('<a href="http://evil.example/logo.png">logo</a>');
    expect(out).toContain('<a href="https://example.com/run">ok</a>');
    expect(out).not.toMatch(/<script|<img|<[^>]*\son\w+=|href="javascript:/);
  });
});
