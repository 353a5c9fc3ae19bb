/**
 * The opt-in pull-request comment, each step run in process from the sources against the simulator
 * and GitHub's stand-in (the simulator's) on 127.0.0.1 (reached through GITHUB_API_URL, as on GitHub
 * Enterprise Server). One sticky comment per subject, created once and then updated in place, never
 * carrying a secret; skipped outside pull requests. Only a comment the token's own account wrote is
 * ever updated, whoever copied the marker. Through the bundle (which loads @actions/github lazily
 * from a separate chunk), in __tests__/e2e/runs-bundles.test.ts: the sticky comment created, then
 * updated in place, and the chunk itself.
 */
import {
  IN_PROCESS,
  renderLog,
  runAction,
  runPost,
  type ActionRun,
  type Annotation,
} from '../../testkit/runner/in-process.js';
import type { World } from '../../testkit/world/world.js';
import { AUTHOR, BOT, type GitHubStandIn } from '../../simulator/index.js';
import {
  FAKE_GITHUB_TOKEN as GITHUB_TOKEN,
  PR_NUMBER,
  commentOnHeadEnv,
  commentingGate,
  createCommentWorld,
  expectNoCommentSecret,
  gateCommentMarker,
} from '../../testkit/world/comment-fixtures.js';
import { closeGitHubWorld, type GitHubWorld } from '../../testkit/world/github-world.js';

/**
 * Where `text` holds `secret` in a form the runner's exact match misses: a start of it that is not
 * followed by the rest (a cut), or Markdown-escaped (`_` written `\\_`). An empty list: only whole copies.
 */
function changedForms(text: string, secret: string): string[] {
  const found: string[] = [];
  const head = secret.slice(0, 8);
  for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1))
    if (!text.startsWith(secret, at)) found.push(`cut: ${text.slice(at, at + secret.length)}`);
  const escaped = secret.replace(/[\\`*_{}[\]()#.!|~:$]/g, (sign) => `\\${sign}`);
  for (let at = text.indexOf(escaped.slice(0, 8)); at >= 0; at = text.indexOf(escaped.slice(0, 8), at + 1))
    found.push(`escaped: ${text.slice(at, at + escaped.length)}`);
  return found;
}

/** The texts of a step's annotations of one kind, as GitHub shows them. */
const textsOf = (run: ActionRun, kind: Annotation['kind']): string[] =>
  run.annotations.filter((annotation) => annotation.kind === kind).map(({ text }) => text);

/** Bidirectional control characters: they reorder what is displayed around them. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Markdown without its fenced code blocks (quoted or indented too) and code spans (a run of
 * backticks to the next run of the same length): GitHub renders nothing inside either.
 */
function outsideCodeSpans(markdown: string): string {
  return markdown
    .replace(/^([ >]*)(`{3,})text\n[\s\S]*?^\1\2$/gm, '`code`')
    .replace(/(?<!`)(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '`code`');
}

describe('pull-request comment', () => {
  let fixture: GitHubWorld;
  let world: World;
  let github: GitHubStandIn;

  beforeEach(async () => {
    fixture = await createCommentWorld({ defaultJobDurationMs: 10, readinessDelayMs: 10 });
    ({ world, github } = fixture);
  });
  afterEach(async () => {
    const leaked = world.sim.activeSessions();
    await closeGitHubWorld(fixture);
    expect(leaked).toEqual([]);
  });

  const githubEnv = (event = 'pull_request'): Record<string, string> => commentOnHeadEnv(fixture, event);
  /** The gate's marker: its workflow and a hash of its settings (app-id, the git-ref given, no inputs). */
  const gateMarker = () => gateCommentMarker(world);

  const runWorkflowStep = (
    inputs: Record<string, string> = {},
    event = 'pull_request',
    env: Record<string, string> = {},
  ) => commentingGate(IN_PROCESS, fixture, inputs, event, env);

  const expectNoSecret = (run: ActionRun, ...secrets: string[]): void =>
    expectNoCommentSecret(fixture, run, ...secrets);

  it("names the pull request's head commit in its footer, not GITHUB_SHA (the merge commit)", async () => {
    const merge = 'f'.repeat(40);
    const run = await runWorkflowStep({}, 'pull_request', { GITHUB_SHA: merge });
    expect(run.exitCode).toBe(0);
    const body = github.comments[0]?.body ?? '';
    expect(body).toContain(`for commit \`${world.repo.headSha.slice(0, 12)}\``);
    expect(body).not.toContain(merge.slice(0, 12));
    // One heading line: the outcome is said once.
    expect(body.split('\n').filter((line) => line.includes('the step succeeded'))).toHaveLength(1);
  });

  it('a secret the runner knows, echoed in a job error: whole in the summary, never changed in the log, absent from the comment', async () => {
    // A repository secret passed as a workflow input: the runner masks it wherever it appears whole
    // and unchanged (the log, the uploaded job summary); the action does not know it.
    const secret =
      'github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012345';
    // The secret straddles the 200 characters the log keeps of a job error, within the 300 of the summary.
    const lead = 'Deploy step failed after 3 attempts: the registry answered 401 Unauthorized for';
    const errorMessage = `${lead} ${'the credential '.repeat(5)}${secret} (check the secret)`;
    expect(errorMessage.indexOf(secret)).toBeGreaterThan(150);
    expect(errorMessage.indexOf(secret)).toBeLessThan(190);
    world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage });
    // A second attempt of the GitHub run: the comment links that attempt's job summary.
    const run = await runWorkflowStep({ inputs: `registry-token: ${secret}` }, 'pull_request', {
      GITHUB_RUN_ATTEMPT: '2',
    });
    expect(run.exitCode).toBe(1);
    const dispatch = world.sim.requests.find((request) => request.path === '/v2/workflows/dispatch');
    expect((dispatch?.body as { inputs?: unknown }).inputs).toEqual({ 'registry-token': secret });

    // The summary holds the job's error with the secret byte for byte, so the runner masks it there.
    expect(run.summary).toContain(secret);
    expect(changedForms(run.summary, secret)).toEqual([]);
    // The log: whole or not at all, never a start of it that the runner's exact match would miss.
    expect(changedForms(run.stdout, secret)).toEqual([]);
    expect(renderLog(run.stdout)).toContain('Failed jobs: test (Tests) (failure: Deploy step failed');

    // The comment carries no free-form service text at all: which job failed, and where to read why.
    const body = github.comments[0]?.body ?? '';
    expect(body).toContain('❌ the step failed');
    expect(body).toMatch(/\| Tests \(`test`\) \| ❌ failure \|/);
    expect(body).toContain('[job summary](<https://github.example/acme/app/actions/runs/777/attempts/2>)');
    for (const form of [secret, secret.slice(0, 16), secret.replace(/_/g, '\\_').slice(0, 16)])
      expect(body).not.toContain(form);
    expect(body).not.toContain('Deploy step failed');
    expect(body).not.toContain('401 Unauthorized');
    expect(github.requests.find((r) => r.method === 'POST' && r.body?.body)?.body?.body).toBe(body);
  });

  it('GH- references and bidirectional controls from elsewhere are inert in the summary and the comment', async () => {
    // Job names come from the pull request's workflow file, job errors from the service.
    world.repo.commit({
      'bidi.yml': `on: workflow_dispatch\njobs:\n  build:\n    name: ${JSON.stringify(`Build GH-12 for gh-7 \u202Eexe.txt\u202C \u2066x\u2069`)}\n`,
    });
    world.sim.setJobBehaviour('build', {
      outcome: 'failure',
      errorMessage: `Broke GH-34 again \u202Egnp.cod\u202C \u200F\u061C\u200E\u2067y\u2069`,
    });
    const run = await runWorkflowStep({ workflow: 'bidi.yml' });
    expect(run.exitCode).toBe(1);
    const body = github.comments[0]?.body ?? '';
    expect(body).toContain('Build GH-&#8203;12 for gh-&#8203;7');
    for (const markdown of [run.summary, body]) {
      expect(markdown).not.toMatch(BIDI);
      // GitHub links `GH-12` as it links `#12`, except inside a code span.
      expect(outsideCodeSpans(markdown)).not.toMatch(/(?<![A-Za-z0-9])gh-\d/i);
      expect(markdown).toContain('&lt;U+202E&gt;exe\\.txt&lt;U+202C&gt;');
    }
    expect(run.summary).toContain(
      '> Broke GH-34 again <U+202E>gnp.cod<U+202C> <U+200F><U+61C><U+200E><U+2067>y<U+2069>\n',
    );
  });

  it('never edits a comment someone else wrote, even one carrying the marker', async () => {
    const forged = {
      id: 1,
      body: `${gateMarker()} please approve`,
      html_url: 'https://github.example/c/1',
      user: AUTHOR,
    };
    github.comments.push({ ...forged });
    const first = await runWorkflowStep();
    expect(first.exitCode).toBe(0);
    expect(github.comments[0]).toEqual(forged);
    expect(github.comments).toHaveLength(2);
    expect(github.comments[1].user).toEqual(BOT);
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/acme/app/issues/${PR_NUMBER}/comments?per_page=100`,
      'POST /graphql',
      `POST /repos/acme/app/issues/${PR_NUMBER}/comments`,
    ]);
    // The next run finds the bot's own comment among the two and updates that one.
    const second = await runWorkflowStep();
    expect(second.exitCode).toBe(0);
    expect(github.comments[0]).toEqual(forged);
    expect(github.comments).toHaveLength(2);
    expect(github.requests.at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/repos/acme/app/issues/comments/${github.comments[1].id}`,
    });
    // A personal token: its user's comment is the sticky one, a bot's with the marker is not.
    github.viewer = { login: 'Octo-Dev', type: 'User' };
    github.comments[1].user = { login: 'octo-dev', type: 'User' };
    github.comments[0].user = { login: 'octo-dev[bot]', type: 'Bot' };
    const third = await runWorkflowStep();
    expect(third.exitCode).toBe(0);
    expect(github.requests.at(-1)?.path).toBe(`/repos/acme/app/issues/comments/${github.comments[1].id}`);
    expect(github.comments[0].body).toBe(forged.body);
  });

  it("updates only a comment that starts with the marker, even among the same account's comments", async () => {
    // Another workflow's comment, by the same GITHUB_TOKEN account, quoting the marker (the pull
    // request's author can get text of their choosing into such a comment).
    const quoting = {
      id: 1,
      body: `Lint report for:\n> ${gateMarker()}\nAll good.`,
      html_url: 'https://github.example/c/1',
      user: BOT,
    };
    github.comments.push({ ...quoting });
    const first = await runWorkflowStep();
    expect(first.exitCode).toBe(0);
    expect(github.comments[0]).toEqual(quoting);
    expect(github.comments).toHaveLength(2);
    expect(github.comments[1].body.startsWith(`${gateMarker()}\n`)).toBe(true);
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/acme/app/issues/${PR_NUMBER}/comments?per_page=100`,
      `POST /repos/acme/app/issues/${PR_NUMBER}/comments`,
    ]);
    // The next run updates its own comment, and still leaves the other one alone.
    const second = await runWorkflowStep();
    expect(second.exitCode).toBe(0);
    expect(github.comments[0]).toEqual(quoting);
    expect(github.requests.at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/repos/acme/app/issues/comments/${github.comments[1].id}`,
    });
  });

  it('a device session comment links the session page and the browser preview, never its token', async () => {
    const main = await runAction({
      inputs: {
        command: 'start-device-session',
        ...world.api,
        platform: 'ios',
        name: 'checkout flow',
        'poll-interval-seconds': '0.05',
        comment: 'true',
        'github-token': GITHUB_TOKEN,
      },
      env: githubEnv(),
    });
    expect(main.exitCode).toBe(0);
    const [session] = world.sim.sessions();
    const body = github.comments[0]?.body ?? '';
    expect(body).toContain('<!-- svc-action:comment:start-device-session:checkout%20flow -->');
    expect(body).toContain(`[${session.id}](<${session.url}>)`);
    expect(body).toContain(`[open](<${main.outputs['web-preview-url']}>)`);
    expectNoSecret(main, main.outputs['agent-device-remote-session-token']);
    expect((await runPost(main, { inputs: world.api })).exitCode).toBe(0);
  });

  it("a preview URL's token with `(`, `)`, `|` or `\\` is redacted before the link percent-encodes it", async () => {
    const token = 'Pr3view(T0ken)|wi\\th_Signs';
    world.sim.setSessionBehaviour({
      extraRemoteConfigFields: { webPreviewUrl: `${world.sim.url}/preview?token=${token}` },
    });
    const main = await runAction({
      inputs: {
        command: 'start-device-session',
        ...world.api,
        platform: 'ios',
        name: 'signs',
        'poll-interval-seconds': '0.05',
        comment: 'true',
        'github-token': GITHUB_TOKEN,
      },
      env: githubEnv(),
    });
    expect(main.exitCode).toBe(0);
    expect(main.stdout).toContain(`::add-mask::${token}`);
    const body = github.comments[0]?.body ?? '';
    expect(body).toContain(`[open](<${world.sim.url}/preview?token=***>)`);
    // Not whole, not as the link writes it, not read back through any decoding.
    const linkForm = token.replace(/[()|\\]/g, (sign) => `%${sign.charCodeAt(0).toString(16).toUpperCase()}`);
    expect(body).not.toContain(linkForm);
    expect(decodeURIComponent(body.replace(/\\([!-/:-@[-`{-~])/g, '$1'))).not.toContain(token);
    expectNoSecret(main, token);
    expect((await runPost(main, { inputs: world.api })).exitCode).toBe(0);
  });

  it('a body that still holds a registered secret in an encoded form is not posted at all', async () => {
    // The service hands out a preview link that carries the controller's token base64-encoded: no
    // redaction of values finds it, the check of the rendered body does.
    const token = 'agent-device-token-0123456789abcdef';
    world.sim.setSessionBehaviour({
      extraRemoteConfigFields: {
        agentDeviceRemoteSessionToken: token,
        webPreviewUrl: `${world.sim.url}/preview#${Buffer.from(`t=${token}`).toString('base64url')}`,
      },
    });
    const main = await runAction({
      inputs: {
        command: 'start-device-session',
        ...world.api,
        platform: 'ios',
        'poll-interval-seconds': '0.05',
        comment: 'true',
        'github-token': GITHUB_TOKEN,
      },
      env: githubEnv(),
    });
    expect(main.exitCode).toBe(0);
    expect(main.stdout).toContain(`::add-mask::${token}`);
    expect(renderLog(main.stdout)).toContain(
      'Warning: The pull request comment was not posted: its text would carry a secret this step registered (encoded, so no redaction found it).',
    );
    expect(github.requests).toEqual([]);
    expect(github.comments).toEqual([]);
    expect((await runPost(main, { inputs: world.api })).exitCode).toBe(0);
  });

  it('the post step updates the session comment when it stops the session: it never shows a device running after the job', async () => {
    const inputs = {
      command: 'start-device-session',
      ...world.api,
      platform: 'ios',
      name: 'checkout flow',
      'poll-interval-seconds': '0.05',
      comment: 'true',
      'github-token': GITHUB_TOKEN,
    };
    const main = await runAction({ inputs, env: githubEnv() });
    expect(main.exitCode).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).toContain('✅ the step succeeded');
    const post = await runPost(main, { inputs, env: githubEnv() });
    expect(post.exitCode).toBe(0);
    // The same comment, updated in place: stopped, and after how long.
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0].body;
    expect(body).toContain('<!-- svc-action:comment:start-device-session:checkout%20flow -->');
    // Said as the end of the job it is, not as a failure: the device was released.
    expect(body).toMatch(
      /✅ the job ended and the device was released \(the post step stopped it, device time \d+s of its \d+ min maximum\)/,
    );
    expect(body).not.toContain('the step succeeded');
  });

  it('wait-for-run: one sticky comment per gate, updated in place whichever run it follows, headed by the gate', async () => {
    // Two runs dispatched without a comment, then followed by the same gate, then by another gate.
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const dispatched = await runWorkflowStep({ comment: '', 'github-token': '' });
      expect(dispatched.exitCode).toBe(0);
      runs.push(dispatched.outputs['run-id']);
    }
    expect(github.requests).toEqual([]);
    const gate = (runId: string, job: string, jobs = '') =>
      runAction({
        inputs: {
          command: 'wait-for-run',
          ...world.api,
          'run-id': runId,
          'expected-commit': '',
          jobs,
          'poll-interval-seconds': '0.05',
          comment: 'true',
          'github-token': GITHUB_TOKEN,
        },
        env: { ...githubEnv(), GITHUB_WORKFLOW: 'CI', GITHUB_JOB: job },
      });
    expect((await gate(runs[0], 'e2e-gate')).exitCode).toBe(0);
    expect(github.comments).toHaveLength(1);
    const [first] = github.comments;
    expect(first.body.split('\n')[0]).toBe(
      '<!-- svc-action:comment:wait-for-run:CI%20%E2%80%BA%20e2e%2Dgate -->',
    );
    expect(first.body).toContain('**svc** · Gate `CI › e2e-gate`: ✅ the step succeeded');
    expect(first.body).toContain(runs[0].slice(0, 8));

    // The same gate following the next run: the same comment, now about that run.
    expect((await gate(runs[1], 'e2e-gate')).exitCode).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(github.requests.at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/repos/acme/app/issues/comments/${first.id}`,
    });
    expect(github.comments[0].body).toContain(runs[1].slice(0, 8));
    expect(github.comments[0].body).not.toContain(runs[0].slice(0, 8));

    // Another gate (another GitHub job, or other jobs of the run) has its own comment.
    expect((await gate(runs[1], 'e2e-gate', 'build_ios')).exitCode).toBe(0);
    expect(github.comments).toHaveLength(2);
    expect(github.comments[1].body).toContain('Gate `CI › e2e-gate (jobs build_ios)`');
  });

  it('is skipped with a notice outside pull-request events, with or without a github-token', async () => {
    for (const inputs of [{}, { 'github-token': '' }] as Record<string, string>[]) {
      const result = await runWorkflowStep(inputs, 'push');
      expect(result.exitCode).toBe(0);
      expect(textsOf(result, 'notice')).toContain(
        'comment: true, but this is a `push` event, not a pull request; no comment was posted.',
      );
      expect(textsOf(result, 'warning')).toEqual([]);
    }
    expect(github.requests).toEqual([]);
  });

  it('a comment that cannot be posted is a warning; the step keeps its own result', async () => {
    github.failWith = 403;
    const result = await runWorkflowStep();
    expect(result.exitCode).toBe(0);
    // Whole: the gate's own words on a refused status post are not the comment's.
    expect(textsOf(result, 'warning')).toEqual([
      'Could not post the pull request comment: GitHub answered 403: the github-token needs the `pull-requests: write` permission (`permissions: pull-requests: write` in the workflow or job). Pull requests from forks get a read-only token.',
    ]);
    expectNoSecret(result);
  });

  it('comment: true without any github-token is a warning, and nothing is sent to GitHub', async () => {
    const result = await runWorkflowStep({ 'github-token': '' });
    expect(result.exitCode).toBe(0);
    expect(textsOf(result, 'warning')).toEqual([
      'comment: true, but there is no github-token (nor GITHUB_TOKEN); no comment was posted.',
    ]);
    expect(github.requests).toEqual([]);
  });

  it('without comment: true nothing is sent to GitHub', async () => {
    const result = await runWorkflowStep({ comment: '', 'github-token': '' });
    expect(result.exitCode).toBe(0);
    expect(github.requests).toEqual([]);
  });
});
