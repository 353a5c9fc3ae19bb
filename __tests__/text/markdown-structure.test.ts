/**
 * Every summary and comment the action writes, read as GitHub reads it (CommonMark with GFM tables,
 * testkit/docs/markdown-structure.ts): what matters is the structure a reader sees, not only the
 * text. Each document is produced by a step run in process from the sources against the simulator
 * (and GitHub's stand-in for the comments; the run summary and the run comment by the bundle, in
 * __tests__/e2e/runs-bundles.test.ts), and checked for the faults that break structure anywhere (a
 * heading or paragraph swallowed by the quote above it, a row with the wrong number of cells, an
 * empty cell, a table row or heading that renders as text), then for the headings, tables and
 * blocks it should have.
 */
import { runAction, runPost } from '../../testkit/runner/in-process.js';
import { until, stopLeftSessions, type World } from '../../testkit/world/world.js';
import { GATE, RELEASE } from '../../testkit/docs/workflows.js';
import type { GitHubStandIn } from '../../simulator/index.js';
import { startReceiver, type Receiver } from '../../testkit/world/webhook-receiver.js';
import { structure } from '../../testkit/docs/markdown-structure.js';
import {
  FAKE_GITHUB_TOKEN as GITHUB_TOKEN,
  commentEnv,
  tableColumn,
} from '../../testkit/world/comment-fixtures.js';
import { closeGitHubWorld, createGitHubWorld, type GitHubWorld } from '../../testkit/world/github-world.js';

const SECRET = 'webhook-signing-secret-0123456789';
const FAST = { 'poll-interval-seconds': '0.05' };

let fixture: GitHubWorld;
let world: World;
let github: GitHubStandIn;
let receiver: Receiver;

beforeAll(async () => {
  fixture = await createGitHubWorld(
    { 'gate.yml': GATE, 'release.yml': RELEASE },
    { defaultJobDurationMs: 30 },
    'markdown-structure-',
    () => ({ pull_request: { number: 7 } }),
  );
  ({ world, github } = fixture);
  receiver = await startReceiver(() => 200);
});
afterAll(async () => {
  await closeGitHubWorld(fixture);
  await receiver.close();
});
afterEach(async () => {
  await stopLeftSessions(world);
  world.sim.reset();
  github.comments.length = 0;
});

const pullRequest = () => commentEnv(fixture);

/** The rows of `table` under `column`, by its header. */
const column = tableColumn;

test('the session summary and comment, then the post step summary and the comment it updates', async () => {
  const inputs = {
    ...world.api,
    platform: 'ios',
    name: 'checkout',
    ...FAST,
    comment: 'true',
    'github-token': GITHUB_TOKEN,
  };
  const main = await runAction({ entry: 'start-device-session', inputs, env: pullRequest() });
  expect(main.exitCode).toBe(0);
  const id = main.outputs['session-id'];
  const session = structure(main.summary);
  expect(session.problems).toEqual([]);
  expect(session.emptyCells).toEqual([]);
  expect(session.headings).toEqual([
    { level: 3, text: 'Device session checkout (ios agent-device): ✅ ready' },
  ]);
  expect(session.tables).toEqual([
    {
      header: ['Session', 'Status', 'Waited', 'Device time'],
      rows: [
        [id, '✅ ready', expect.stringMatching(/^\d+s$/), expect.stringMatching(/of its 60 min maximum$/)],
      ],
    },
  ]);
  expect(session.links.map((link) => link.text)).toEqual([id, 'open']);

  const comment = structure(github.comments[0]?.body ?? '');
  expect(comment.problems).toEqual([]);
  expect(comment.emptyCells).toEqual([]);
  expect(comment.paragraphs[0]).toBe('svc · Device session checkout: ✅ the step succeeded');
  expect(comment.tables.map((table) => table.header)).toEqual([['Session', 'Status']]);

  const post = await runPost(main, { inputs, env: pullRequest() });
  expect(post.exitCode).toBe(0);
  const summary = structure(post.summary);
  expect(summary.problems).toEqual([]);
  expect(summary.emptyCells).toEqual([]);
  expect(summary.headings).toEqual([{ level: 3, text: 'Device sessions at the end of the job' }]);
  expect(summary.tables.map((table) => table.header)).toEqual([
    ['Session', 'Status', 'Device time', 'What the post step did'],
  ]);
  expect(column(summary.tables[0], 'What the post step did')).toEqual(['stopped it']);

  const ended = structure(github.comments[0]?.body ?? '');
  expect(github.comments).toHaveLength(1);
  expect(ended.problems).toEqual([]);
  expect(ended.emptyCells).toEqual([]);
  expect(ended.paragraphs[0]).toMatch(
    /^svc · Device session checkout: ✅ the job ended and the device was released \(the post step stopped it, device time \d+s of its 60 min maximum\)$/,
  );
});

test('the post step summary of a session left running (auto-stop: false): every cell filled', async () => {
  const inputs = { ...world.api, platform: 'ios', ...FAST, 'auto-stop': 'false' };
  const main = await runAction({ entry: 'start-device-session', inputs });
  expect(main.exitCode).toBe(0);
  const post = await runPost(main, { inputs });
  const summary = structure(post.summary);
  expect(summary.problems).toEqual([]);
  expect(summary.tables.map((table) => table.header)).toEqual([
    ['Session', 'Status', 'Device time', 'What the post step did'],
  ]);
  expect(summary.emptyCells).toEqual([]);
});

test('the start-attempts summary: the Attempts part stands on its own, not in the quote above it', async () => {
  // The service's side: every session errors before it is ready.
  world.sim.setSessionBehaviour({ readinessDelayMs: 60_000 });
  const seen = new Set<string>();
  const play = setInterval(() => {
    for (const session of world.sim.sessions())
      if (!seen.has(session.id)) {
        seen.add(session.id);
        world.sim.failSession(session.id);
      }
  }, 10);
  let main;
  try {
    main = await runAction({
      entry: 'start-device-session',
      inputs: { ...world.api, platform: 'ios', ...FAST, 'start-attempts': '2' },
    });
  } finally {
    clearInterval(play);
  }
  expect(main.exitCode).toBe(1);
  const summary = structure(main.summary);
  expect(summary.problems).toEqual([]);
  expect(summary.paragraphs).toContain('Attempts (2 of at most 2)');
  expect(summary.tables.map((table) => table.header)).toContainEqual(['Attempt', 'Session', 'Status']);
});

test('the stop summary: a session stopped, and one not found with the reason as a quoted block', async () => {
  const started = await runAction({
    entry: 'start-device-session',
    inputs: { ...world.api, platform: 'android', ...FAST, 'auto-stop': 'false' },
  });
  const id = started.outputs['session-id'];
  const stop = await runAction({
    entry: 'stop-device-session',
    inputs: { ...world.api, 'session-id': id, ...FAST },
  });
  expect(stop.exitCode).toBe(0);
  const stopped = structure(stop.summary);
  expect(stopped.problems).toEqual([]);
  expect(stopped.emptyCells).toEqual([]);
  expect(stopped.headings).toEqual([{ level: 3, text: 'Device session (android agent-device): ⏹️ stopped' }]);
  expect(stopped.tables.map((table) => table.header)).toEqual([['Session', 'Status', 'Finished', 'Ran for']]);
  expect(column(stopped.tables[0], 'Session')).toEqual([id]);

  const unknown = '00000000-0000-4000-8000-000000000000';
  const missing = await runAction({
    entry: 'stop-device-session',
    inputs: { ...world.api, 'session-id': unknown, ...FAST },
  });
  expect(missing.exitCode).toBe(1);
  const notFound = structure(missing.summary);
  expect(notFound.problems).toEqual([]);
  expect(notFound.headings).toEqual([{ level: 3, text: `Device session ${unknown}: ❓ not found` }]);
  expect(notFound.code).toEqual([
    {
      info: 'text',
      content: expect.stringMatching(new RegExp(`^Device session ${unknown} was not found: .*\\n$`)),
      quoted: true,
    },
  ]);
});

test('the webhook summary: one heading, one two-column table of the delivery', async () => {
  world.sim.webhooks.add({
    projectId: world.project.id,
    event: 'BUILD',
    url: `${receiver.url}/BUILD`,
    secret: SECRET,
  });
  const dispatched = await runAction({
    entry: 'run-workflow',
    inputs: { ...world.api, workflow: 'release.yml', 'git-ref': 'main', ...FAST },
  });
  expect(dispatched.exitCode).toBe(0);
  await world.sim.webhooks.idle();
  const delivery = await until(() => receiver.on('/BUILD')[0]);
  const verified = await runAction({
    entry: 'verify-webhook',
    inputs: {
      'webhook-secret': SECRET,
      signature: String(delivery.headers['svc-signature']),
      payload: delivery.body.toString('utf8'),
    },
  });
  expect(verified.exitCode).toBe(0);
  const summary = structure(verified.summary);
  expect(summary.problems).toEqual([]);
  expect(summary.emptyCells).toEqual([]);
  expect(summary.headings).toEqual([{ level: 3, text: 'Webhook delivery verified: build ✅ finished' }]);
  expect(summary.tables).toHaveLength(1);
  expect(summary.tables[0].header).toEqual(['Build', verified.outputs.id]);
  expect(summary.tables[0].rows.map((row) => row[0])).toEqual(
    expect.arrayContaining(['Event', 'Status', 'Platform', 'Project']),
  );
  expect(summary.tables[0].rows.find((row) => row[0] === 'Status')?.[1]).toBe('✅ finished');
});
