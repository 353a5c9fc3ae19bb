/**
 * The run commands through the committed bundles (dist/), each step a Node 24 process as the runner
 * starts it. Their behaviour is tested in the unit tier, in process from the sources (the files of
 * __tests__/runs/, __tests__/github/pr-comment.test.ts, __tests__/sessions/edges.test.ts,
 * __tests__/text/markdown-structure.test.ts); this file keeps what only the bundles show:
 *
 * - for each of those files, one case that earlier issues required "through the bundles": the case
 *   that file's header names as its point (or its first). Each `describe` below names the file it
 *   stands for; the case is no longer in that file. simulator-refusals.test.ts had one case, that
 *   one: it is here whole, and the file is gone.
 * - the cases that need a process of the step's own, kept whole: a signal while the step waits
 *   (SIGINT), two steps at the same time (in process they run one after the other), and what reads
 *   the bundle itself.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import {
  BUNDLES,
  ROOT,
  renderLog,
  runAction,
  runStep,
  type ActionRun,
  type StepOptions,
} from '../../testkit/runner/step.js';
import { apiRequests, createWorld, followRunStep, until, type World } from '../../testkit/world/world.js';
import { GATE, ONE_BUILD, STORE, workflow } from '../../testkit/docs/workflows.js';
import { structure } from '../../testkit/docs/markdown-structure.js';
import type { GitWorkspace } from '../../testkit/world/git-workspace.js';
import { AUTHOR, GitHubStandIn, type WorkflowRun } from '../../simulator/index.js';
import {
  FAKE_GITHUB_TOKEN as GITHUB_TOKEN,
  PR_NUMBER,
  commentEnv,
  commentingGate,
  createCommentWorld,
  expectNoCommentSecret,
  gateCommentMarker,
  tableColumn,
} from '../../testkit/world/comment-fixtures.js';
import {
  closeGitHubWorld,
  createGitHubWorld,
  lastStatus,
  pullRequestOnHead,
  statusSequences,
  statusWords,
  statusPostsTo,
  untilRunEnded,
  type GitHubWorld,
  resetStatusesWorld,
  warningTexts,
} from '../../testkit/world/github-world.js';
import {
  RUN_DOORS,
  RUN_GATE,
  createNextCommitWorld,
  gateDispatch,
  jobsOutput,
  runTableHeader,
  runThroughDoor,
  simRunOfStep,
  someoneElsesStoreRun,
  storeRunOn,
  throughBothDoors,
  type RunDoor,
} from '../../testkit/world/run-fixtures.js';
import {
  STATUSES_PIPELINE,
  createSyncWorld,
  createTrustWorld,
  dispatchAndLeaveStep,
  resetSyncWorld,
  statusesGate,
  syncStatusesStep,
  type SyncWorld,
  trustGate,
  type TrustWorld,
} from '../../testkit/world/status-fixtures.js';
import {
  CHECKED_GATE,
  checkedDispatch,
  closeWorkspaceWorld,
  createWorkspaceWorld,
  oneErrorOf,
  workspaceDispatch,
  workspaceDryRun,
  type WorkspaceWorld,
} from '../../testkit/world/workspace-world.js';
import { expectOneError } from '../../testkit/runner/expect-step.js';
import { markerOf, parseMarker } from '../../src/github/status-marker.js';

describe('messages (__tests__/runs/messages.test.ts)', () => {
  const ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());

  it('wait-for-run: `run-id` one character off is shown, with what is wrong', async () => {
    const value = ID.slice(0, -1);
    const result = await runAction({
      entry: 'wait-for-run',
      inputs: { ...world.api, 'run-id': value },
    });
    expect(result.exitCode).toBe(1);
    const log = renderLog(result.stdout);
    expect(log).toContain(
      `\`run-id\` must be a UUID (8-4-4-4-12 hexadecimal digits); got \`${value}\` (35 characters instead of 36 (groups of 8-4-4-4-11 digits)).`,
    );
    expect(log).not.toContain('looks like a credential');
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

describe('summaries (__tests__/runs/summaries.test.ts)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'gate.yml': GATE }, { defaultJobDurationMs: 30 });
  });
  afterAll(() => world.sim.close());
  beforeEach(() => world.sim.reset());

  const dispatch = (inputs: Record<string, string> = {}) => gateDispatch(BUNDLES, world, inputs);
  /** The header of the summary's first table. */
  const header = runTableHeader;

  it('the Ref column only when it differs from the commit: shown for a branch, not for the SHA itself', async () => {
    const byBranch = await dispatch();
    expect(byBranch.exitCode).toBe(0);
    expect(header(byBranch.summary)).toBe('| Run | Status | Ref | Commit | Waited |');
    expect(byBranch.summary).toContain('`refs/heads/main`');

    world.sim.reset();
    const bySha = await dispatch({ 'git-ref': world.repo.headSha });
    expect(bySha.exitCode).toBe(0);
    expect(header(bySha.summary)).toBe('| Run | Status | Commit | Waited |');
  });
});

describe('run-endings (__tests__/runs/run-endings.test.ts)', () => {
  const PIPELINE = workflow('Pipeline', {
    build: { type: 'build' },
    e2e: { name: 'End to end', needs: ['build'] },
    lint: {},
    report: { needs: ['e2e'] },
  });
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'pipeline.yml': PIPELINE }, { defaultJobDurationMs: 40 });
  });
  afterAll(() => world.sim.close());

  function dispatch(inputs: Record<string, string>): Promise<ActionRun> {
    return runStep('run-workflow', {
      inputs: { ...world.api, 'git-ref': 'main', 'poll-interval-seconds': '0.05', ...inputs },
    });
  }

  it('a canceled run: headed canceled, its error lists canceled jobs, not failed ones', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    const pending = dispatch({ workflow: 'pipeline.yml' });
    // Cancel once `e2e` runs and `lint` (beside it, 40 ms) has succeeded: the ending asserted below.
    // Waiting for `e2e` alone let a loaded machine cancel `lint` too (CI saw "e2e,lint,report").
    const statusOf = (
      run: { jobs: Array<{ key: string; status: string }> },
      key: string,
    ): string | undefined => run.jobs.find((job) => job.key === key)?.status;
    const running = await until(() =>
      world.sim
        .runs()
        .find((run) => statusOf(run, 'e2e') === 'in-progress' && statusOf(run, 'lint') === 'success'),
    );
    world.sim.cancelRun(running.id);
    const result = await pending;
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'canceled', outcome: 'canceled' });
    expect(result.summary).toMatch(/^### Workflow run pipeline\\?\.yml: ⏹️ canceled$/m);
    expect(result.summary).not.toContain('❌');
    expect(result.summary).toMatch(/\*\*Canceled jobs\*\*\n\n- End to end \(`e2e`\)\n/);
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors;
    expect(error).toContain(
      `Workflow run ${running.id} ended with status canceled. Canceled jobs: e2e (End to end`,
    );
    expect(error).not.toContain('Failed jobs');
    // `report` never ran: canceled before it started; `e2e` was canceled while it ran.
    expect(result.outputs['failed-jobs']).toBe('e2e,report');
  });
});

describe('wait-for-run (__tests__/runs/wait-for-run.test.ts)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'store.yml': STORE }, { defaultJobDurationMs: 40 });
  });
  afterAll(() => world.sim.close());
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  /** A run nobody in this job dispatched, its first jobs started (see the unit file). */
  const someoneElsesRun = (): Promise<WorkflowRun> => someoneElsesStoreRun(world);
  const follow = (runId: string) => followRunStep(BUNDLES, world, runId);
  const jobsOf = jobsOutput;

  it('follows a run it did not dispatch to success: the outputs run-workflow sets, a summary, reads only', async () => {
    const started = await someoneElsesRun();
    const result = await follow(started.id);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const simRun = world.sim.getRun(started.id)!;
    expect(simRun.status).toBe('success');
    const jobs = jobsOf(result);
    expect(result.outputs).toEqual({
      'run-id': simRun.id,
      'run-url': simRun.url,
      status: 'success',
      'git-commit-hash': world.repo.headSha,
      jobs: expect.any(String),
      // Issue 25 item 10: the new output, empty when every job succeeded.
      'failed-jobs': '',
      'build-ids': JSON.stringify([jobs[0].buildId, jobs[1].buildId]),
      'submission-ids': expect.stringMatching(/^\["[0-9a-f-]{36}"\]$/),
      'job-outputs': JSON.stringify({ build_ios: {}, build_android: {}, submit: { track: 'beta' } }),
      outcome: 'success',
    });
    expect(jobs.map((job) => [job.key, job.status])).toEqual([
      ['build_ios', 'success'],
      ['build_android', 'success'],
      ['submit', 'success'],
    ]);
    expect(result.stdout).toContain(`Following workflow run ${simRun.id} at 127.0.0.1`);
    expect(result.stdout).toMatch(/\[\d+s\] job submit: success/);
    expect(result.summary).toContain('succeeded');
    expect(result.summary).toMatch(/\| Build iOS \(`build_ios`\) \| ✅ success \|/);
    expect(result.summary).toContain(simRun.url);
    // No app-id is needed, and nothing is dispatched: reads of that run only.
    const requests = apiRequests(world.sim);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((line) => line === `GET /v2/workflows/runs/${simRun.id}`)).toBe(true);
  });
});

describe('run-workflow (__tests__/runs/run-workflow.test.ts)', () => {
  const ACTIONS = RUN_DOORS;
  type Action = RunDoor;

  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'gate.yml': RUN_GATE }, { defaultJobDurationMs: 40 });
  });
  afterAll(() => world.sim.close());
  beforeEach(() => world.sim.reset());
  afterEach(() => {
    expect(world.sim.activeSessions()).toEqual([]);
  });

  const run = (action: Action, inputs: Record<string, string> = {}, options: StepOptions = {}) =>
    runThroughDoor(BUNDLES, world, action, inputs, options);
  /** Both doors at once; each result is matched to its run by the `run-id` it output. */
  const both = (inputs: Record<string, string> = {}) => throughBothDoors(BUNDLES, world, inputs);
  const simRunOf = (result: ActionRun): WorkflowRun => simRunOfStep(world, result);
  const jobsOf = jobsOutput;

  it('gates on a successful run: outputs, summary, one dispatch then reads on one connection', async () => {
    for (const [action, result] of await both({ inputs: 'profile: production' })) {
      expect({ action, stderr: result.stderr, exitCode: result.exitCode }).toEqual({
        action,
        stderr: '',
        exitCode: 0,
      });
      // The defaults the runner fills in are not "inputs this command does not use".
      expect(result.annotations.filter(({ kind }) => kind === 'warning')).toEqual([]);
      const simRun = simRunOf(result);
      expect(simRun.status).toBe('success');
      expect(result.outputs).toMatchObject({
        'run-url': simRun.url,
        status: 'success',
        'git-commit-hash': world.repo.headSha,
        outcome: 'success',
      });
      const jobs = jobsOf(result);
      expect(jobs.map((job) => [job.key, job.status])).toEqual([
        ['build_ios', 'success'],
        ['build_android', 'success'],
        ['test', 'success'],
        ['submit', 'success'],
      ]);
      expect(JSON.parse(result.outputs['build-ids'])).toEqual([jobs[0].buildId, jobs[1].buildId]);
      expect(JSON.parse(result.outputs['submission-ids'])).toHaveLength(1);
      expect(JSON.parse(result.outputs['job-outputs'])).toMatchObject({ test: { result: 'passed' } });
      expect(result.stdout).toMatch(/\[\d+s\] job build_ios \(Build iOS\): success/);
      expect(result.summary).toContain('succeeded');
      expect(result.summary).toMatch(/\| Build iOS \(`build_ios`\) \| ✅ success \|.*build `[0-9a-f-]{36}`/);

      // One dispatch, then reads of that run only, all on the dispatch's keep-alive connection.
      const reads = world.sim.requests.filter(
        (request) => request.path === `/v2/workflows/runs/${simRun.id}`,
      );
      expect(reads.length).toBeGreaterThan(0);
      expect(new Set(reads.map((request) => request.connectionId)).size).toBe(1);
      const dispatch = world.sim.requests.find(
        (request) => request.method === 'POST' && request.connectionId === reads[0].connectionId,
      );
      expect(dispatch?.path).toBe('/v2/workflows/dispatch');
      expect(dispatch?.body).toEqual({
        appId: world.project.id,
        gitRef: 'main',
        fileName: 'gate.yml',
        inputs: { profile: 'production' },
      });
      expect(dispatch?.headers.authorization).toBe(`Bearer ${world.token}`);
    }
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toHaveLength(2);
  });

  // A signal needs a process of the step's own: kept whole here.
  it('SIGINT while waiting: exits 1, saying that the run goes on', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const signalled = new Set<string>();
    const results = await Promise.all(
      ACTIONS.map((action) =>
        run(
          action,
          {},
          {
            onSpawn: (child) => {
              // Once it follows the run (its first progress line), as a cancelled job would be.
              child.stdout?.on('data', (chunk: Buffer) => {
                if (!signalled.has(action) && chunk.toString().includes('run: in-progress')) {
                  signalled.add(action);
                  child.kill('SIGINT');
                }
              });
            },
          },
        ),
      ),
    );
    for (const result of results) {
      const simRun = simRunOf(result);
      expect(result.exitCode).toBe(1);
      expect(result.outputs.outcome).toBe('interrupted');
      expect(result.stdout).toContain('Received SIGINT: cancelling.');
      expect(result.errors).toEqual([
        expect.stringContaining(
          `Stopped waiting for workflow run ${simRun.id}: the step was cancelled. The run goes on. ${simRun.url}`,
        ),
      ]);
      // The step only stopped following: the run itself was not cancelled.
      expect(simRun.status).toBe('in-progress');
    }
    expect([...signalled].sort()).toEqual([...ACTIONS].sort());
  });
});

describe('commit-statuses (__tests__/runs/commit-statuses.test.ts)', () => {
  let fixture: GitHubWorld;
  let world: World;
  let github: GitHubStandIn;
  beforeAll(async () => {
    fixture = await createGitHubWorld(
      { 'pipeline.yml': STATUSES_PIPELINE },
      { defaultJobDurationMs: 40 },
      'statuses-',
      pullRequestOnHead(7),
    );
    ({ world, github } = fixture);
  });
  afterAll(() => closeGitHubWorld(fixture));
  beforeEach(() => resetStatusesWorld(fixture));

  function gate(inputs: Record<string, string>, onSpawn?: (child: ChildProcess) => void, timeoutMs?: number) {
    return statusesGate(BUNDLES, fixture, inputs, onSpawn, undefined, timeoutMs);
  }
  /** Each context's states in the order posted. */
  const sequences = (): Record<string, string[]> => statusSequences(github);
  const last = (context: string) => lastStatus(github, context);
  /** The last status of `context`, its description as words (without the `[svc:…]` marker). */
  const lastSaid = (context: string) => {
    const status = last(context);
    return status && { state: status.state, description: statusWords(status.description) };
  };

  it('a run that succeeds: pending, then success, for the run and each job, on the commit the run is of', async () => {
    // The last job runs until the step has posted a status: its first read sees the run going, however
    // late a busy machine let it read (the three 40 ms jobs once ended before it).
    world.sim.setJobBehaviour('report', { durationMs: 600_000 });
    const pending = gate({});
    const going = await until(
      () =>
        github.statuses.length > 0 &&
        world.sim
          .runs()
          .find((each) => each.jobs.some((job) => job.key === 'report' && job.status === 'in-progress')),
    );
    world.sim.finishJob(going.id, 'report');
    const run = await pending;
    expect(run.exitCode).toBe(0);
    const seen = sequences();
    expect(Object.keys(seen).sort()).toEqual([
      'svc/pipeline',
      'svc/pipeline/build',
      'svc/pipeline/e2e',
      'svc/pipeline/report',
    ]);
    for (const states of Object.values(seen)) {
      expect(states.at(-1)).toBe('success');
      expect(states.slice(0, -1).every((state) => state === 'pending')).toBe(true);
    }
    // Nothing before the first read, which shows the run's commit: the run's context comes first.
    expect(github.statuses[0]).toMatchObject({ context: 'svc/pipeline', state: 'pending' });
    // Every description ends with the marker of the service run it is about.
    const marker = markerOf({ serviceRunId: run.outputs['run-id'] });
    for (const status of github.statuses)
      expect(status.description?.slice(-marker.length - 1)).toBe(` ${marker}`);
    // Only changes are posted: never the same state and description twice in a row for a context.
    for (const context of Object.keys(seen)) {
      const posts = github.statuses.filter((status) => status.context === context);
      posts
        .slice(1)
        .forEach((post, i) =>
          expect([post.state, post.description]).not.toEqual([posts[i].state, posts[i].description]),
        );
    }
    expect(new Set(github.statuses.map((status) => status.sha))).toEqual(new Set([world.repo.headSha]));
    expect(last('svc/pipeline')?.target_url).toBe(run.outputs['run-url']);
    expect(run.summary).toContain(`**Commit statuses** on commit \`${world.repo.headSha}\``);
    expect(run.summary).toContain('- `svc/pipeline/e2e`: ✅ success');
    // One log line per batch posted, with the commit.
    expect(run.stdout).toMatch(new RegExp(`Commit statuses: posted \\d+ on commit ${world.repo.headSha}\\.`));
    // Every status request carried the github-token, and went to the statuses route only.
    expect(
      github.requests.every((request) => request.authorization === 'token ghs_statusesToken0123456789'),
    ).toBe(true);
  });

  // A signal needs a process of the step's own: kept whole here.
  it("a cancelled step (SIGINT): the run's own context becomes error first; the job contexts it left pending stay pending, named for sync-statuses", async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    let step: ChildProcess | undefined;
    const pending = gate({}, (child) => (step = child));
    await until(() => github.statuses.find((status) => status.context === 'svc/pipeline/e2e'));
    step!.kill('SIGINT');
    const run: ActionRun = await pending;
    expect(run.outputs.outcome).toBe('interrupted');
    expect(lastSaid('svc/pipeline')).toEqual({
      state: 'error',
      description: 'Not followed to its end: the step was cancelled',
    });
    expect(last('svc/pipeline/e2e')?.state).toBe('pending');
    const [warning] = warningTexts(run).filter((text) => text.startsWith('Commit statuses left unset'));
    expect(warning).toContain('`svc/pipeline/e2e` (left pending)');
    expect(warning).toContain(`with \`commit: ${world.repo.headSha}\``);
    world.sim.cancelRun(run.outputs['run-id']);
  });

  // One write a second is real time through the bundle: ten jobs, about twenty writes (13 s at a
  // load average of 16 on two cores), under limits of ten times that.
  it('a 10-job gate: writes at least a second apart, as GitHub received them, and each context ends as its job ended', async () => {
    const jobs = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`job_${i}`, {}]));
    world.repo.commit({ 'ten.yml': workflow('Ten', jobs) }, 'Ten jobs', 'ten');
    world.sim.setJobBehaviour('job_3', { outcome: 'failure' });
    const run = await gate({ workflow: 'ten.yml', 'git-ref': 'ten' }, undefined, 140_000);
    // The stand-in's receivedAt, on its clock (real time here, as the bundle's step clock is).
    const received = github.statuses.map((status) => status.receivedAt!);
    expect(run.exitCode).toBe(1);
    expect(received.length).toBeGreaterThanOrEqual(11);
    // Each write is sent a second after the answer to the one before, so it arrives a second later at
    // least, less what Node's timers may round (libuv's cached loop time): 10 ms, whatever the load.
    expect(Math.min(...received.slice(1).map((at, i) => at - received[i]))).toBeGreaterThanOrEqual(990);
    for (let i = 0; i < 10; i++)
      expect(last(`svc/ten/job_${i}`)?.state).toBe(i === 3 ? 'failure' : 'success');
    expect(last('svc/ten')?.state).toBe('failure');
  }, 150_000);

  it('job keys build and Build: one context, error ("Ambiguous"), never what the last job listed says', async () => {
    world.repo.commit(
      { 'cased.yml': workflow('Cased', { build: {}, Build: {} }) },
      'Keys in two cases',
      'cased',
    );
    world.sim.setJobBehaviour('Build', { outcome: 'failure' });
    const run = await gate({ workflow: 'cased.yml', 'git-ref': 'cased' });
    expect(run.exitCode).toBe(1);
    const contexts = new Set(github.statuses.map((status) => status.context.toLowerCase()));
    expect([...contexts].sort()).toEqual(['svc/cased', 'svc/cased/build']);
    expect(lastSaid('svc/cased/build')).toEqual({
      state: 'error',
      description: 'Ambiguous: jobs build and Build share it',
    });
  }, 60_000);
});

describe('status-trust (__tests__/runs/status-trust.test.ts)', () => {
  let fixture: TrustWorld;
  let world: World;
  let github: GitHubStandIn;
  /** The pull request's head commit (main), and another commit on branch `release`. */
  let head: string;
  let release: string;
  beforeAll(async () => {
    fixture = await createTrustWorld(40);
    ({ world, github, head, release } = fixture);
  });
  afterAll(() => closeGitHubWorld(fixture));
  beforeEach(() => resetStatusesWorld(fixture));

  function gate(
    inputs: Record<string, string>,
    options: {
      env?: Record<string, string>;
      onSpawn?: (child: ChildProcess) => void;
      timeoutMs?: number;
    } = {},
  ): Promise<ActionRun> {
    return trustGate(BUNDLES, fixture, inputs, options);
  }
  /** The texts of the step's warning annotations, as GitHub shows them. */
  const warnings = warningTexts;

  it('run-workflow with an explicit git-ref: the statuses go on that ref’s commit, not on the pull request’s head', async () => {
    const run = await gate({ 'git-ref': 'release' });
    expect(run.exitCode).toBe(0);
    expect(new Set(github.statuses.map((status) => status.sha))).toEqual(new Set([release]));
    expect(github.states(release)['svc/pipeline']).toBe('success');
    expect(github.states(head)).toEqual({});
    expect(run.stdout).toContain(`Commit statuses: posted`);
    expect(run.stdout).toContain(`on commit ${release}.`);
    expect(run.summary).toContain(`**Commit statuses** on commit \`${release}\``);
  });

  // Two steps at the same time need two processes: kept whole here. The legs overlap whatever the
  // load (a leg's process may start half a second late): each run's e2e job goes on until both legs
  // have posted its context, then the test ends both.
  it('two legs of one GitHub run at once: every shared context ends in error, whichever posts last', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 600_000 });
    // About a dozen writes a second apart each (13 s at a load average of 16): limits of ten times that.
    const legs = Promise.all([gate({}, { timeoutMs: 140_000 }), gate({}, { timeoutMs: 140_000 })]);
    const e2eGoing = (run: WorkflowRun) =>
      run.jobs.some((job) => job.key === 'e2e' && job.status === 'in-progress');
    const e2ePostedFor = () =>
      new Set(
        github.statuses
          .filter((status) => status.context === 'svc/pipeline/e2e')
          .map((status) => parseMarker(status.description)?.serviceRunId),
      );
    const going = await until(() => {
      const runs = world.sim.runs().filter(e2eGoing);
      return runs.length === 2 && e2ePostedFor().size === 2 && runs;
    }, 140_000);
    for (const run of going) world.sim.finishJob(run.id, 'e2e');
    const [a, b] = await legs;
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    for (const context of ['svc/pipeline', 'svc/pipeline/build', 'svc/pipeline/e2e', 'svc/pipeline/report'])
      expect(github.latest(head, context)?.state).toBe('error');
  }, 150_000);

  // A signal needs a process of the step's own: kept whole here.
  it('GitHub unreachable: told as unreachable (not "GitHub answered 500"), one warning naming the contexts left', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    let step: ChildProcess | undefined;
    const pending = gate(
      {},
      { env: { GITHUB_API_URL: `http://127.0.0.1:${port}` }, onSpawn: (child) => (step = child) },
    );
    // The step has read the run (its commit) at least twice.
    await until(
      () =>
        apiRequests(world.sim).filter((request) => request.startsWith('GET /v2/workflows/runs/')).length >= 2,
    );
    step!.kill('SIGINT');
    const run = await pending;
    expect(run.stdout).not.toContain('GitHub answered 500');
    const said = warnings(run);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(
      `Commit statuses left unset on commit ${head}: \`svc/pipeline\` (never posted: a re-run posts it)`,
    );
    expect(said[0]).toContain(`GitHub's API at 127.0.0.1:${port} could not be reached (ECONNREFUSED)`);
    expect(said[0]).toContain('A re-run of this job posts them again.');
    world.sim.cancelRun(run.outputs['run-id']);
  });

  // A signal needs a process of the step's own: kept whole here.
  it('GitHub failing after the first posts: the warning names the contexts still pending and sync-statuses for that commit', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    let step: ChildProcess | undefined;
    const pending = gate({}, { onSpawn: (child) => (step = child) });
    await until(() => github.latest(head, 'svc/pipeline/e2e'));
    github.failStatusesWith = 502;
    step!.kill('SIGINT');
    const run = await pending;
    const said = warnings(run);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('`svc/pipeline` (left pending)');
    expect(said[0]).toContain('GitHub answered 502');
    expect(said[0]).toContain(
      `sync-statuses settles those left pending (on its schedule, or with \`commit: ${head}\`)`,
    );
    world.sim.cancelRun(run.outputs['run-id']);
  });
});

describe('sync-statuses (__tests__/runs/sync-statuses.test.ts)', () => {
  let fixture: SyncWorld;
  let world: World;
  let github: GitHubStandIn;
  let head: string;
  beforeAll(async () => {
    fixture = await createSyncWorld(40);
    ({ world, github, head } = fixture);
  });
  afterAll(() => closeGitHubWorld(fixture));
  beforeEach(() => resetSyncWorld(fixture));

  /** The gate that leaves: dispatch, one read, pending statuses, exit. */
  const dispatchAndLeave = (): Promise<ActionRun> => dispatchAndLeaveStep(BUNDLES, fixture);
  const sync = (): Promise<ActionRun> => syncStatusesStep(BUNDLES, fixture);
  const posts = () => statusPostsTo(github);
  const runEnded = (runId: string) => untilRunEnded(world, runId);

  it('a run still going stays pending; once it has ended, each context gets its final state (jobs seen since included)', async () => {
    // The build runs until the test ends it: the first sync sees the run going, whatever the load.
    world.sim.setJobBehaviour('build', { durationMs: 600_000 });
    const left = await dispatchAndLeave();
    const runId = left.outputs['run-id'];
    const early = await sync();
    expect(early.exitCode).toBe(0);
    expect(early.outputs).toMatchObject({ settled: '0', refused: '0' });
    expect(Number(early.outputs.pending)).toBeGreaterThan(0);
    expect(early.summary).toContain('the run is still');
    world.sim.finishJob(runId, 'build');
    await runEnded(runId);
    const later = await sync();
    expect(later.exitCode).toBe(0);
    expect(later.outputs).toMatchObject({ pending: '0', refused: '0' });
    expect(github.states(head)).toEqual({
      'svc/pipeline': 'success',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'success',
    });
    // The marker stays the one the dispatch wrote, so the statuses stay this run's.
    expect(github.latest(head, 'svc/pipeline')?.description).toBe(
      `Succeeded ${markerOf({ serviceRunId: runId, githubRunId: '901', githubAttempt: '1' })}`,
    );
    expect(later.summary).toContain('**Settled**');
    // Idempotent: nothing left to settle, nothing posted.
    const before = posts().length;
    const again = await sync();
    expect(again.outputs).toMatchObject({ settled: '0', pending: '0', refused: '0' });
    expect(posts().length).toBe(before);
  });

  // Two syncs at the same time need two processes: kept whole here.
  it('a failed run: failure, never success; two syncs at once end in the same states', async () => {
    world.sim.setJobBehaviour('e2e', { outcome: 'failure', errorMessage: 'tests failed' });
    const left = await dispatchAndLeave();
    await runEnded(left.outputs['run-id']);
    const [a, b] = await Promise.all([sync(), sync()]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(github.states(head)).toEqual({
      'svc/pipeline': 'failure',
      'svc/pipeline/build': 'success',
      'svc/pipeline/e2e': 'failure',
    });
  });
});

describe('pr-comment (__tests__/github/pr-comment.test.ts)', () => {
  let fixture: GitHubWorld;
  let world: World;
  let github: GitHubStandIn;
  beforeEach(async () => {
    fixture = await createCommentWorld({ defaultJobDurationMs: 40 });
    ({ world, github } = fixture);
  });
  afterEach(async () => {
    const leaked = world.sim.activeSessions();
    await closeGitHubWorld(fixture);
    expect(leaked).toEqual([]);
  });

  const gateMarker = () => gateCommentMarker(world);
  const runWorkflowStep = () => commentingGate(BUNDLES, fixture);
  const expectNoSecret = (run: ActionRun): void => expectNoCommentSecret(fixture, run);

  it('creates one sticky comment with the result table, then updates it in place', async () => {
    github.comments.push({
      id: 1,
      body: 'Looks good to me',
      html_url: 'https://github.example/c/1',
      user: AUTHOR,
    });
    const first = await runWorkflowStep();
    expect(first.exitCode).toBe(0);
    expect(github.comments).toHaveLength(2);
    const [simRun] = world.sim.runs();
    const sticky = github.comments[1];
    expect(sticky.body).toContain(gateMarker());
    expect(sticky.body).toContain('✅ the step succeeded');
    expect(sticky.body).toContain(`[${simRun.id.slice(0, 8)}](<${simRun.url}>)`);
    expect(sticky.body).toMatch(/\| Build iOS \(`build_ios`\) \| ✅ success \|/);
    expect(sticky.body).toContain('(<https://github.example/acme/app/actions/runs/777>)');
    expect(first.stdout).toContain(`Commented on pull request #${PR_NUMBER}`);
    expect(github.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
    expect(github.requests[0].path).toBe(`/repos/acme/app/issues/${PR_NUMBER}/comments?per_page=100`);
    expect(github.requests[1].authorization).toBe(`token ${GITHUB_TOKEN}`);
    expectNoSecret(first);

    world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'Detox: 2 tests failed' });
    const second = await runWorkflowStep();
    expect(second.exitCode).toBe(1);
    expect(github.comments).toHaveLength(2);
    expect(github.comments[0].body).toBe('Looks good to me');
    expect(github.requests.slice(2).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/acme/app/issues/${PR_NUMBER}/comments?per_page=100`,
      'POST /graphql',
      `PATCH /repos/acme/app/issues/comments/${sticky.id}`,
    ]);
    const updated = github.comments[1].body;
    expect(updated).toContain('❌ the step failed');
    // Which job failed, not the service's words for why (those are in the linked job summary).
    expect(updated).toMatch(/\| Tests \(`test`\) \| ❌ failure \|/);
    expect(updated).not.toContain('Detox');
    expect(updated).toContain(world.sim.runs()[1].id);
    expect(second.stdout).toContain('Updated the pull request comment');
    expectNoSecret(second);
  });

  // What reads the bundle itself: kept whole here.
  it('keeps @actions/github out of the main bundle: a separate chunk, loaded only for a comment', () => {
    const bundle = join(ROOT, 'dist', 'action');
    const chunks = readdirSync(bundle).filter((file) => file.endsWith('.js') && file !== 'index.js');
    // @octokit/core's own user-agent string: its code, not a name of ours that mentions it.
    expect(readFileSync(join(bundle, 'index.js'), 'utf8')).not.toContain('octokit-core.js');
    expect(
      chunks.some((chunk) => readFileSync(join(bundle, chunk), 'utf8').includes('octokit-core.js')),
    ).toBe(true);
  });
});

describe('dry-run (__tests__/runs/dry-run.test.ts)', () => {
  const V4_RUN_READ =
    /^GET \/v2\/workflows\/runs\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  let fixture: WorkspaceWorld;
  let world: World;
  beforeAll(async () => {
    fixture = await createWorkspaceWorld({ 'e2e.yml': ONE_BUILD });
    ({ world } = fixture);
  });
  afterAll(() => closeWorkspaceWorld(fixture));

  const dryRun = (inputs: Record<string, string>) => workspaceDryRun(BUNDLES, fixture, inputs);

  it('a good address and token: passes after a read of a random version-4 run id and one by an id that is not a UUID, and creates nothing', async () => {
    const result = await dryRun({});
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({ outcome: 'dry-run' });
    const requests = apiRequests(world.sim);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatch(V4_RUN_READ);
    expect(requests[1]).toBe('GET /v2/workflows/runs/not-a-uuid');
    expect(world.sim.runs()).toEqual([]);
    expect(renderLog(result.stdout)).toContain(
      `answered a read of a run that does not exist (404) and a read by an id that is not a UUID (400) as the service does, so it accepted the token.`,
    );
  });
});

describe('expected-commit (__tests__/runs/expected-commit.test.ts)', () => {
  let world: World;
  /** The commit of branch `next`, one after `main` (world.repo.headSha). */
  let otherSha: string;
  beforeAll(async () => {
    ({ world, otherSha } = await createNextCommitWorld(40));
  });
  afterAll(() => world.sim.close());

  const runOn = (gitRef: string): Promise<WorkflowRun> => storeRunOn(world, gitRef);
  const follow = (runId: string, inputs: Record<string, string> = {}) =>
    followRunStep(BUNDLES, world, runId, inputs);

  it('fails on the first read when the run is of another commit, naming both, before it ends', async () => {
    world.sim.setJobBehaviour('build', { durationMs: 60_000 });
    const other = await runOn('next');
    // A short limit: without the check the step would wait for the run (60 s) and time out.
    const result = await follow(other.id, {
      'expected-commit': world.repo.headSha,
      'timeout-minutes': '0.05',
    });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({
      outcome: 'failure',
      'git-commit-hash': otherSha,
      status: expect.stringMatching(/^(new|in-progress)$/),
    });
    expect(result.errors).toEqual([
      expect.stringContaining(
        `Workflow run ${other.id} is a run of commit ${otherSha}, not of the expected commit ${world.repo.headSha} (\`expected-commit\`): a run of another commit cannot gate this one.`,
      ),
    ]);
    expect(result.stdout).toContain("set `expected-commit: ''` to accept a run of any commit");
    expect(result.summary).toContain('❌ a run of another commit');
    // One read was enough: the step did not wait for a run it can never accept.
    expect(apiRequests(world.sim)).toEqual([`GET /v2/workflows/runs/${other.id}`]);
    expect(world.sim.getRun(other.id)?.status).toBe('in-progress');
    world.sim.cancelRun(other.id);
  });
});

describe('not-found (__tests__/runs/not-found.test.ts)', () => {
  let fixture: WorkspaceWorld;
  let workspace: GitWorkspace;
  beforeAll(async () => {
    // The job's checkout, which is the project's repository too: E2E.yml and build.yml on main.
    fixture = await createWorkspaceWorld({ 'E2E.yml': ONE_BUILD, 'build.yml': ONE_BUILD });
    ({ workspace } = fixture);
  });
  afterAll(() => closeWorkspaceWorld(fixture));

  const dispatch = (inputs: Record<string, string>) => workspaceDispatch(BUNDLES, fixture, inputs);
  /** The step's one error annotation, as GitHub shows it. */
  const errorOf = oneErrorOf;

  it('a workflow file named in another case: the folder and the case difference, never the base URL', async () => {
    const result = await dispatch({});
    expect(result.exitCode).toBe(1);
    const error = errorOf(result);
    expect(error).toContain(
      'Dispatching workflow e2e.yml failed: Not found (404): the Git ref main (`git-ref`) does not exist in the repository linked to the project, or the workflow file e2e.yml (`workflow`) is not on that ref',
    );
    expect(error).toContain(
      `In the workspace, commit ${workspace.headSha.slice(0, 12)} (the one git-ref names) has no .eas/workflows/e2e.yml; its .eas/workflows/ holds E2E.yml, build.yml. E2E.yml differs from \`workflow: e2e.yml\` only in case: file names are case-sensitive.`,
    );
    expect(error).not.toMatch(/base URL|cannot see/);
  });
});

describe('workflow-file-check (__tests__/runs/workflow-file-check.test.ts)', () => {
  let fixture: WorkspaceWorld;
  let world: World;
  /** The job's checkout, which the project's repository on the simulator is too (the check needs git). */
  let workspace: GitWorkspace;
  beforeAll(async () => {
    fixture = await createWorkspaceWorld({ 'gate.yml': CHECKED_GATE });
    ({ world, workspace } = fixture);
  });
  afterAll(() => closeWorkspaceWorld(fixture));

  /** run-workflow in a job whose workspace is a checkout of the project's repository at main. */
  const dispatch = (inputs: Record<string, string>) => checkedDispatch(BUNDLES, fixture, inputs);

  it('refuses, before any request, every problem at once, naming what the file declares', async () => {
    const result = await dispatch({
      inputs: 'profile: staging\nretries: many\ndry: maybe\nprofle: preview',
      jobs: 'build_ios, build_web',
    });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toEqual({ outcome: 'failure' });
    expect(apiRequests(world.sim)).toEqual([]);
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors;
    expect(error).toContain(
      `Not dispatched: the workflow file .eas/workflows/gate.yml at ${workspace.headSha.slice(0, 12)} (in the workspace, the commit git-ref names) does not accept this dispatch.`,
    );
    for (const problem of [
      '`inputs.profle` is not an input of the workflow (its inputs are: profile, retries, dry, track).',
      '`inputs.profile` must be one of: preview, production.',
      '`inputs.retries` must be a number for the workflow.',
      '`inputs.dry` must be a boolean (true or false) for the workflow.',
      '`inputs.track` is required by the workflow and has no default.',
      '`jobs` lists `build_web`, which the workflow does not have; its jobs are: build_ios, build_android, submit.',
    ])
      expect(error).toContain(problem);
  });
});

describe('edges (__tests__/sessions/edges.test.ts)', () => {
  const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
  let world: World;
  beforeAll(async () => {
    world = await createWorld({}, { readinessDelayMs: 50 });
  });
  afterAll(() => world.sim.close());

  /** A step of `entry` on Node 24, the runtime action.yml declares. */
  function step(entry: string, inputs: Record<string, string>): Promise<ActionRun> {
    return runAction({ entry, runtime: 'node24', inputs, timeoutMs: 20_000 });
  }

  it('bad inputs end the step before any request, with one error naming the input', async () => {
    const { api } = world;
    const password = 's3cr3t-pw';
    const [inputs, platform, command, token, baseUrl] = await Promise.all([
      step('main', {
        ...api,
        command: 'run-workflow',
        workflow: 'e2e.yml',
        'git-ref': 'main',
        inputs: 'v: 1.10',
      }),
      step('main', { ...api, command: 'start-device-session', platform: 'iOS' }),
      step('main', { ...api, command: 'Run-Workflow' }),
      // A character an HTTP header cannot carry: an input error, not six failed requests.
      step('stop-device-session', { ...api, token: `${api.token}é`, 'session-id': UNKNOWN_ID }),
      step('stop-device-session', {
        ...api,
        'base-url': `https://ci:${password}@svc.example`,
        'session-id': UNKNOWN_ID,
      }),
    ]);
    expect(expectOneError(inputs)).toContain('`inputs.v` is a number that YAML would change');
    expect(expectOneError(platform)).toContain(
      '`platform` is `iOS`; allowed: android, ios. Did you mean `ios`?',
    );
    expect(expectOneError(command)).toContain('`command` is `Run-Workflow`;');
    expect(expectOneError(token)).toContain('`token` must be a single word of printable ASCII characters');
    expect(expectOneError(baseUrl)).toContain('`base-url` must not contain credentials');
    for (const run of [token, baseUrl]) {
      const everything = [run.stdout, run.stderr, ...Object.values(run.files)].join('\n');
      expect(everything).not.toContain(password);
      expect(everything.replace(`::add-mask::${api.token}é`, '')).not.toContain(`${api.token}é`);
    }
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

describe('markdown-structure (__tests__/text/markdown-structure.test.ts)', () => {
  const FAST = { 'poll-interval-seconds': '0.05' };
  let fixture: GitHubWorld;
  let world: World;
  let github: GitHubStandIn;
  beforeAll(async () => {
    fixture = await createGitHubWorld(
      { 'gate.yml': GATE },
      { defaultJobDurationMs: 30 },
      'markdown-structure-',
      () => ({ pull_request: { number: 7 } }),
    );
    ({ world, github } = fixture);
  });
  afterAll(() => closeGitHubWorld(fixture));

  const pullRequest = () => commentEnv(fixture);
  /** The rows of `table` under `column`, by its header. */
  const column = tableColumn;

  it('the run summary and the run comment: heading, tables, the job error as one quoted block of its own', async () => {
    const message =
      'Gradle failed: **bold** [x](https://evil.example) @octocat | #12\nSee https://svc.example.com/logs.';
    world.sim.setJobBehaviour('build_ios', { outcome: 'failure', errorMessage: message });
    const run = await runAction({
      entry: 'run-workflow',
      inputs: {
        ...world.api,
        workflow: 'gate.yml',
        'git-ref': 'main',
        ...FAST,
        comment: 'true',
        'github-token': GITHUB_TOKEN,
      },
      env: pullRequest(),
    });
    expect(run.exitCode).toBe(1);
    const summary = structure(run.summary);
    expect(summary.problems).toEqual([]);
    expect(summary.headings).toEqual([{ level: 3, text: 'Workflow run gate.yml: ❌ failed' }]);
    expect(summary.tables.map((table) => table.header)).toEqual([
      ['Run', 'Status', 'Ref', 'Commit', 'Waited'],
      ['Job', 'Status', 'Duration', 'Build / submission'],
    ]);
    expect(column(summary.tables[1], 'Job')).toEqual(['Build iOS (build_ios)', 'Tests (test)']);
    expect(column(summary.tables[1], 'Status')[0]).toBe('❌ failure');
    // A skipped job has neither a duration nor a build.
    expect(summary.emptyCells).toEqual(['Duration of row 2', 'Build / submission of row 2']);
    // The service's words as they came, in one quoted block, rendered as nothing: no link, no emphasis.
    expect(summary.code).toEqual([{ info: 'text', content: `${message}\n`, quoted: true }]);
    expect(summary.links.map((link) => link.text)).toEqual([
      expect.any(String),
      'Open the run on the service',
    ]);
    expect(summary.paragraphs).toContain('Failed jobs');

    const comment = structure(github.comments[0]?.body ?? '');
    expect(comment.problems).toEqual([]);
    expect(comment.emptyCells).toEqual([]);
    expect(comment.headings).toEqual([]);
    // The leg named by a hash of its settings (no status-context), as two matrix legs need.
    expect(comment.paragraphs[0]).toMatch(
      /^svc · Workflow run gate\.yml · settings [0-9a-f]{10}: ❌ the step failed$/,
    );
    expect(comment.tables.map((table) => table.header)).toEqual([
      ['Run', 'Status'],
      ['Job', 'Status'],
    ]);
    expect(comment.tables[1].rows).toEqual([
      ['Build iOS (build_ios)', '❌ failure'],
      ['Tests (test)', '⏭️ skipped'],
    ]);
    expect(comment.links.map((link) => link.text)).toEqual([
      expect.any(String),
      'job summary',
      'GitHub workflow run 777',
    ]);
    expect(comment.code).toEqual([]);
  });
});

describe('simulator-refusals (its one case: the file is gone)', () => {
  // The simulator's own refusals reach a user of the action as the simulator's (issue 33, item 5): a
  // base URL whose host name the simulator does not answer to fails the step with the simulator's
  // words and how to allow the name, not with the action's reading of a 403 (a token lacking a
  // permission).
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());

  it('a host name the simulator does not answer to: the log names the simulator and --allowed-hosts, not a permission', async () => {
    const port = new URL(world.sim.url).port;
    // The loopback address written as IPv4-mapped IPv6: it reaches the simulator under a name it refuses.
    const result = await runStep('wait-for-run', {
      inputs: {
        token: world.token,
        'base-url': `http://[::ffff:127.0.0.1]:${port}`,
        'run-id': '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
        'poll-interval-seconds': '0.05',
      },
    });
    expect(result.exitCode).toBe(1);
    const log = renderLog(result.stdout);
    expect(log).toContain(
      '(421) [SIMULATOR_HOST_NOT_ALLOWED]: The svc simulator (not the service) refused this request',
    );
    expect(log).toContain('--allowed-hosts ::ffff:7f00:1');
    expect(log).not.toMatch(/Permission denied|\b403\b|role that allows/);
    // Refused before any route: nothing was read.
    expect(world.sim.requests.map((request) => [request.status, request.processed])).toEqual([[421, false]]);
  });
});
