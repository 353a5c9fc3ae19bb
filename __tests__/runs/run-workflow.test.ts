/**
 * run-workflow, each step run in process from the sources as the runner would run it (inputs with
 * their action.yml defaults, the GITHUB_* files), against the simulator. The sub-action (`uses:
 * OWNER/REPO/run-workflow`) and the root action (`command: run-workflow`) run one after the other in
 * the tests of the exit rules: one contract, two doors. Through the bundles, in
 * __tests__/e2e/runs-bundles.test.ts: both doors gating on a successful run, and SIGINT while waiting
 * (a signal needs a process of the step's own).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_PROCESS, type ActionRun, type StepOptions } from '../../testkit/runner/in-process.js';
import { VirtualClock } from '../../testkit/runner/step-clock.js';
import { apiRequests, createWorld, until, type World } from '../../testkit/world/world.js';
import type { WorkflowRun } from '../../simulator/index.js';
import {
  RUN_DOORS as ACTIONS,
  RUN_GATE as GATE,
  jobsOutput,
  runThroughDoor,
  simRunOfStep,
  throughBothDoors,
  type RunDoor as Action,
  type RunJob as Job,
} from '../../testkit/world/run-fixtures.js';

const APPROVAL = `name: Release
on: workflow_dispatch
jobs:
  approve:
    type: require-approval
  release:
    needs: [approve]
    type: build
`;

/** Jobs listed before the jobs they need: the service returns them in this order. */
const GRAPH = `name: Graph
on: workflow_dispatch
jobs:
  report:
    needs: [test]
  test:
    needs: [build]
  build:
    type: build
  lint: {}
`;

let world: World;
beforeAll(async () => {
  world = await createWorld(
    { 'gate.yml': GATE, 'release.yml': APPROVAL, 'graph.yml': GRAPH },
    { defaultJobDurationMs: 10 },
  );
});
afterAll(() => world.sim.close());
// Runs, job behaviours, faults and recorded requests of one test never reach the next.
beforeEach(() => world.sim.reset());
// As in every end-to-end file: nothing a test did leaves a device running.
afterEach(() => {
  expect(world.sim.activeSessions()).toEqual([]);
});

function run(action: Action, inputs: Record<string, string> = {}, options: StepOptions = {}) {
  return runThroughDoor(IN_PROCESS, world, action, inputs, options);
}

/**
 * Both doors (in process, one after the other); each result is matched to its run by the `run-id`
 * it output.
 */
function both(
  inputs: Record<string, string> = {},
  options: StepOptions = {},
): Promise<Array<[Action, ActionRun]>> {
  return throughBothDoors(IN_PROCESS, world, inputs, options);
}

const simRunOf = (result: ActionRun): WorkflowRun => simRunOfStep(world, result);

const jobsOf = (result: ActionRun): Job[] => jobsOutput(result);

describe('run-workflow, as the sub-action and as the root action', () => {
  it("a token whose role cannot dispatch: 403 in words, without the device sessions' role", async () => {
    const viewer = world.sim.addToken({ account: world.account, role: 'viewer' });
    const result = await run('run-workflow', { token: viewer });
    expect(result.exitCode).toBe(1);
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors;
    expect(error).toContain(
      `Dispatching workflow gate.yml failed: Permission denied (403 Forbidden); the token has no access to project ${world.project.id}: check \`app-id\`, and that the token (a robot's or a person's, of the account that owns the project) has access to that project and a role that may dispatch workflows [`,
    );
    expect(error).not.toContain('device sessions');
    expect(world.sim.runs()).toEqual([]);
  });

  it('fails on a failed run, naming the failed job and linking the run', async () => {
    world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'Detox: 3 tests failed' });
    for (const [, result] of await both()) {
      const simRun = simRunOf(result);
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toMatchObject({ status: 'failure', outcome: 'failure' });
      expect(result.errors).toEqual([
        expect.stringContaining(
          `Workflow run ${simRun.id} ended with status failure. Failed jobs: test (Tests) (failure: Detox: 3 tests failed). ${simRun.url}`,
        ),
      ]);
      expect(jobsOf(result).find((job) => job.key === 'submit')?.status).toBe('skipped');
      expect(result.summary).toContain('❌ failure');
      // The job's own error, on top of the summary (verbatim, in a code span: nothing in it is Markdown).
      expect(result.summary).toContain(
        '**Failed jobs**\n\n- Tests (`test`)\n  > ```text\n  > Detox: 3 tests failed\n  > ```',
      );
    }
  });

  it('fails on a canceled run', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const pending = both();
    // Each run canceled once it runs (in process the second step starts when the first has ended).
    const canceled = new Set<string>();
    while (canceled.size < ACTIONS.length) {
      const started = await until(() =>
        world.sim.runs().find((r) => r.status === 'in-progress' && !canceled.has(r.id)),
      );
      canceled.add(started.id);
      world.sim.cancelRun(started.id);
    }
    for (const [, result] of await pending) {
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toMatchObject({ status: 'canceled', outcome: 'canceled' });
      expect(result.errors).toEqual([
        expect.stringContaining(`Workflow run ${result.outputs['run-id']} ended with status canceled.`),
      ]);
      expect(result.stdout).toContain(simRunOf(result).url);
    }
  });

  it('keeps waiting through action-required, says so once with the run URL, and passes after approval', async () => {
    const pending = both({ workflow: 'release.yml' });
    // Each run approved once it waits (in process the second step starts when the first has ended).
    const approved = new Set<string>();
    const reads = (id: string) =>
      world.sim.requests.filter((request) => request.path === `/v2/workflows/runs/${id}`).length;
    while (approved.size < ACTIONS.length) {
      const held = await until(() =>
        world.sim.runs().find((r) => r.status === 'action-required' && !approved.has(r.id)),
      );
      // Several reads see action-required before the approval comes.
      const before = reads(held.id);
      await until(() => reads(held.id) >= before + 3);
      approved.add(held.id);
      world.sim.approve(held.id);
    }
    for (const [, result] of await pending) {
      expect(result.exitCode).toBe(0);
      expect(result.outputs).toMatchObject({ status: 'success', outcome: 'success' });
      const notices = result.annotations.filter(
        ({ kind, text }) =>
          kind === 'notice' && text.startsWith('The workflow run is waiting for a manual action'),
      );
      expect(notices.map(({ text }) => text)).toEqual([expect.stringContaining(simRunOf(result).url)]);
    }
  });

  it('fails at timeout-minutes, links the run and sets the last status', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 3_600_000 });
    // A minute of the step clock: 20 reads at the 3 s interval, however long the machine takes.
    const clock = new VirtualClock();
    for (const [, result] of await both(
      { 'timeout-minutes': '1', 'poll-interval-seconds': '3' },
      { clock },
    )) {
      const simRun = simRunOf(result);
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toMatchObject({ status: 'in-progress', outcome: 'timed-out' });
      expect(result.errors).toEqual([
        expect.stringContaining(
          `Workflow run ${simRun.id} did not finish within timeout-minutes (1); last status: in-progress.`,
        ),
      ]);
      expect(result.errors[0]).toContain(simRun.url);
    }
  });

  it('on the step clock: an hour of timeout-minutes passes in polls of the interval asked for, then times out', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 3_600_000 });
    const clock = new VirtualClock();
    const started = clock.now();
    const result = await run(
      'run-workflow',
      { 'timeout-minutes': '60', 'poll-interval-seconds': '30' },
      { clock },
    );
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'in-progress', outcome: 'timed-out' });
    expect(result.errors).toEqual([
      expect.stringContaining('did not finish within timeout-minutes (60); last status: in-progress.'),
    ]);
    // The step's time, not the machine's: the deadline is an hour of the step clock, in 30 s waits.
    expect(clock.now() - started).toBeGreaterThanOrEqual(3_600_000);
    expect(clock.waits.filter((ms) => ms === 30_000).length).toBeGreaterThanOrEqual(119);
    expect(Math.max(...clock.waits)).toBeLessThanOrEqual(30_000);
  });

  it('with wait: false sets run-id, run-url and status new, names wait-for-run, and makes no read', async () => {
    for (const [, result] of await both({ wait: 'false' })) {
      expect(result.exitCode).toBe(0);
      const simRun = simRunOf(result);
      expect(result.outputs).toEqual({
        'run-id': simRun.id,
        'run-url': simRun.url,
        status: 'new',
        outcome: 'dispatched',
      });
      expect(result.stdout).toMatch(new RegExp(`^Not waiting .*wait-for-run.*${simRun.id}`, 'm'));
    }
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch', 'POST /v2/workflows/dispatch']);
  });
});

describe('run-workflow with jobs', () => {
  it('ends when the listed builds are done while submit still runs, and succeeds', async () => {
    world.sim.setJobBehaviour('submit', { durationMs: 60_000 });
    const result = await run('run-workflow', { jobs: 'build_ios,build_android' });
    expect(result.exitCode).toBe(0);
    const simRun = simRunOf(result);
    expect(simRun.status).toBe('in-progress');
    // Not finished: waiting for its needs, or running (60 s).
    expect(['new', 'in-progress']).toContain(simRun.jobs.find((job) => job.key === 'submit')?.status);
    expect(result.outputs.status).toBe('in-progress');
    const jobs = jobsOf(result);
    expect(jobs.filter((job) => job.key.startsWith('build_')).map((job) => job.status)).toEqual([
      'success',
      'success',
    ]);
    expect(result.stdout).toMatch(/Listed jobs succeeded in .*\(the run goes on: in-progress\)/);
    expect(result.summary).toContain('(not followed)');
    world.sim.cancelRun(simRun.id);
  });

  it('fails when a listed job fails, naming it', async () => {
    world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: 'Gradle exploded' });
    const result = await run('run-workflow', { jobs: 'build_ios\nbuild_android' });
    expect(result.exitCode).toBe(1);
    expect(result.errors).toEqual([
      expect.stringMatching(
        /^Not every listed job succeeded\. Failed jobs: build_android \(failure: Gradle exploded\)\./,
      ),
    ]);
  });

  it('fails on a key the run does not have, naming the keys it has and the run it started', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const result = await run('root', { jobs: 'build_ios, build_web' });
    const simRun = simRunOf(result);
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('failure');
    // Nobody else may know of the run this step started: the message says it goes on, and where.
    expect(result.errors).toEqual([
      expect.stringContaining(
        `\`jobs\` lists \`build_web\`, which the run does not have; its jobs are: build_ios, build_android, test, submit. The run this step dispatched was started and goes on: ${simRun.url}`,
      ),
    ]);
    expect(simRun.status).toBe('in-progress');
    world.sim.cancelRun(simRun.id);
  });

  it('type:build selects every build: ends when both builds are done while the rest runs', async () => {
    world.sim.setJobBehaviour('test', { durationMs: 60_000 });
    const result = await run('run-workflow', { jobs: 'type:build' });
    expect(result.exitCode).toBe(0);
    expect(result.outputs.outcome).toBe('success');
    const simRun = simRunOf(result);
    expect(simRun.status).toBe('in-progress');
    expect(
      jobsOf(result)
        .filter((job) => job.key.startsWith('build_'))
        .map((job) => job.status),
    ).toEqual(['success', 'success']);
    expect(result.stdout).toMatch(/Listed jobs succeeded in .*\(the run goes on: in-progress\)/);
    expect(result.summary).toMatch(/### Jobs `type:build` of gate\\?\.yml: ✅ succeeded/);
    expect(result.summary).toMatch(/\| Build iOS \(`build_ios`\) \| ✅ success/);
    expect(result.summary).toMatch(/\| Tests \(`test`\) \(not followed\) \|/);
    world.sim.cancelRun(simRun.id);
  });

  it('a type no job of the run has fails like an unknown key, naming the types it has', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const result = await run('run-workflow', { jobs: 'type:deploy' });
    const simRun = simRunOf(result);
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('failure');
    expect(result.errors).toEqual([
      expect.stringContaining(
        '`jobs` lists `type:deploy`, which the run does not have; its jobs are: build_ios (type build), build_android (type build), test (type custom), submit (type submission).',
      ),
    ]);
    world.sim.cancelRun(simRun.id);
  });

  it('outcome canceled when a listed job was canceled, failure when one was skipped', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const pending = run('run-workflow', { jobs: 'build_ios' });
    const started = await until(() => world.sim.runs().find((r) => r.status === 'in-progress'));
    world.sim.cancelRun(started.id);
    const canceled = await pending;
    expect(canceled.exitCode).toBe(1);
    expect(canceled.outputs).toMatchObject({ status: 'canceled', outcome: 'canceled' });

    world.sim.reset();
    world.sim.setJobBehaviour('build_android', { outcome: 'failure' });
    const skipped = await run('run-workflow', { jobs: 'submit' });
    expect(skipped.exitCode).toBe(1);
    expect(jobsOf(skipped).find((job) => job.key === 'submit')?.status).toBe('skipped');
    expect(skipped.outputs.outcome).toBe('failure');
    expect(skipped.errors).toEqual([
      // Issue 25 item 8: the skipped job names the job it needed that failed (was "submit (skipped)").
      expect.stringContaining(
        'Not every listed job succeeded. Skipped jobs: submit (needs build_android, which failed: Job build_android failed).',
      ),
    ]);
  });
});

describe('run-workflow on a run that waits for approval, and the job graph', () => {
  it('on-action-required: fail ends the step at once, linking where to approve; the summary says so', async () => {
    for (const [action, result] of await both({
      workflow: 'release.yml',
      'on-action-required': 'fail',
      // Without the feature the step would wait: fail then, after 30 s, ten times and more what a
      // busy machine's simulator takes to reach the approval (the 3 s of old could be used up first).
      'timeout-minutes': '0.5',
    })) {
      const simRun = simRunOf(result);
      expect({ action, exitCode: result.exitCode }).toEqual({ action, exitCode: 1 });
      expect(result.outputs).toMatchObject({ status: 'action-required', outcome: 'action-required' });
      expect(result.errors).toEqual([
        expect.stringContaining(
          `Workflow run ${simRun.id} waits for a manual action such as an approval (job approve), and on-action-required is fail: the step ends here, the run waits. Someone allowed to approve it does so on its page: ${simRun.url}; follow it afterwards with wait-for-run.`,
        ),
      ]);
      // Not the notice of `wait`: the step does not wait.
      expect(result.stdout).not.toContain('still waiting');
      // The summary, which is also the pull-request comment, tells a reviewer what to do.
      expect(result.summary).toMatch(/### Workflow run release\\?\.yml: ✋ waits for approval/);
      expect(result.summary).toMatch(/\*\*The run waits for approval\*\*\s+- `approve`/);
      expect(result.summary).toContain('Open the run on the service to approve it');
      expect(result.summary).toContain(simRun.url);
      // Nothing approved or canceled the run: it still waits.
      expect(simRun.status).toBe('action-required');
      world.sim.cancelRun(simRun.id);
    }
  });

  it('on-action-required: fail with wait: false is refused before any request', async () => {
    const result = await run('run-workflow', { wait: 'false', 'on-action-required': 'fail' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('`on-action-required: fail` has no effect with `wait: false`');
    expect(apiRequests(world.sim)).toEqual([]);
  });

  it('shows the jobs in the summary after the jobs they need; the jobs output keeps the service order', async () => {
    const result = await run('run-workflow', { workflow: 'graph.yml' });
    expect(result.exitCode).toBe(0);
    expect(jobsOf(result).map((job) => job.key)).toEqual(['report', 'test', 'build', 'lint']);
    const rows = result.summary
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => /^\| `([^`]+)`/.exec(line)?.[1]);
    expect(rows).toEqual(['build', 'test', 'report', 'lint']);
  });
});

describe('run-workflow errors and faults', () => {
  it('reports a missing ref as 404 and inputs the workflow rejects as 400, each after one dispatch', async () => {
    const [missing, rejected] = await Promise.all([
      run('run-workflow', { 'git-ref': 'no-such-branch' }),
      run('run-workflow', { inputs: 'profile: staging' }),
    ]);
    expect(missing.exitCode).toBe(1);
    expect(missing.errors).toEqual([
      expect.stringMatching(
        /^Dispatching workflow gate\.yml failed: Not found \(404\): the Git ref no-such-branch \(`git-ref`\) does not exist in the repository linked to the project, or the workflow file gate\.yml \(`workflow`\) is not on that ref \[NOT_FOUND\]: .*no-such-branch/,
      ),
    ]);
    expect(rejected.exitCode).toBe(1);
    expect([missing.outputs.outcome, rejected.outputs.outcome]).toEqual(['failure', 'failure']);
    expect(rejected.errors).toEqual([
      expect.stringMatching(
        /^Dispatching workflow gate\.yml failed: The service rejected the request \(400 Bad Request\).*profile/,
      ),
    ]);
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch', 'POST /v2/workflows/dispatch']);
    expect(world.sim.runs()).toEqual([]);
  });

  it('reports an invalid token as 401 without printing it; a missing one before any request', async () => {
    const [invalid, missing] = await Promise.all([
      run('run-workflow', { token: 'not-a-real-token' }),
      run('root', { token: '' }),
    ]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stdout).toContain('::add-mask::not-a-real-token');
    expect(invalid.stdout).toContain('401 Unauthorized');
    expect(invalid.stdout.split('::add-mask::not-a-real-token')[1]).not.toContain('not-a-real-token');
    expect(missing.exitCode).toBe(1);
    expect(missing.errors).toEqual([expect.stringContaining('Invalid input: `token` is required')]);
    // Invalid inputs too: `outcome` is set on every path.
    expect(missing.outputs).toEqual({ outcome: 'failure' });
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
  });

  it('defaults git-ref to the pull request head commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-event-'));
    try {
      writeFileSync(
        join(dir, 'event.json'),
        JSON.stringify({ pull_request: { head: { sha: world.repo.headSha } } }),
      );
      const result = await run(
        'run-workflow',
        { 'git-ref': '', wait: 'false' },
        {
          env: {
            GITHUB_EVENT_NAME: 'pull_request',
            GITHUB_EVENT_PATH: join(dir, 'event.json'),
            GITHUB_SHA: 'f'.repeat(40),
          },
        },
      );
      expect(result.exitCode).toBe(0);
      expect((world.sim.requests[0].body as { gitRef: string }).gitRef).toBe(world.repo.headSha);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a fork', { full_name: 'mallory/app' }],
    ['a deleted fork', null],
  ])(
    'on pull_request_target, never dispatches the head of %s by default: it says why, and sends nothing',
    async (_, headRepo) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-event-'));
      try {
        const event = {
          pull_request: {
            head: { sha: world.repo.headSha, repo: headRepo },
            base: { sha: 'b'.repeat(40), repo: { full_name: 'acme/app' } },
          },
        };
        writeFileSync(join(dir, 'event.json'), JSON.stringify(event));
        const env = {
          GITHUB_EVENT_NAME: 'pull_request_target',
          GITHUB_EVENT_PATH: join(dir, 'event.json'),
          GITHUB_SHA: 'f'.repeat(40),
        };
        const refused = await run('run-workflow', { 'git-ref': '', wait: 'false' }, { env });
        expect(refused.exitCode).toBe(1);
        expect(refused.errors).toEqual([
          expect.stringContaining(
            'Invalid input: `git-ref` is required on `pull_request_target` when the pull request comes from another repository',
          ),
        ]);
        expect(refused.stdout).toContain("the fork's code and workflow file");
        expect(apiRequests(world.sim)).toEqual([]);
        // Given explicitly (after a review), it is dispatched.
        const explicit = await run('run-workflow', { 'git-ref': world.repo.headSha, wait: 'false' }, { env });
        expect(explicit.exitCode).toBe(0);
        // A branch of the repository itself is its own code: the head is the default.
        event.pull_request.head.repo = { full_name: 'acme/app' };
        writeFileSync(join(dir, 'event.json'), JSON.stringify(event));
        const sameRepo = await run('run-workflow', { 'git-ref': '', wait: 'false' }, { env });
        expect(sameRepo.exitCode).toBe(0);
        expect(
          world.sim.requests
            .filter((request) => !request.control)
            .map((request) => (request.body as { gitRef: string }).gitRef),
        ).toEqual([world.repo.headSha, world.repo.headSha]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('survives faults on reads: 503, reset, truncated JSON, 429 with Retry-After', async () => {
    const path = /^\/v2\/workflows\/runs\//;
    world.sim.injectFault({ method: 'GET', path, kind: 'status', status: 503, times: 1 });
    world.sim.injectFault({ method: 'GET', path, kind: 'reset', processed: true, times: 1 });
    world.sim.injectFault({ method: 'GET', path, kind: 'body', body: '{"data": {"id": "x", "sta', times: 1 });
    world.sim.injectFault({
      method: 'GET',
      path,
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 1,
    });
    const result = await run('run-workflow');
    expect(result.exitCode).toBe(0);
    expect(result.outputs.status).toBe('success');
    const retries = result.stdout.split('\n').filter((line) => line.includes('retrying in'));
    expect(retries.length).toBeGreaterThanOrEqual(4);
    // Each fact once: the operation opens the line and is not repeated inside the reason.
    for (const line of retries) {
      expect(line).toMatch(/^Reading workflow run [0-9a-f-]{36}: attempt \d failed \(/);
      expect(line.split('Reading workflow run')).toHaveLength(2);
    }
    expect(world.sim.requests.filter((request) => request.fault).length).toBe(4);
  });

  it('gives up after 6 failed reads in a row, linking the run that goes on', async () => {
    world.sim.injectFault({
      method: 'GET',
      path: /^\/v2\/workflows\/runs\//,
      kind: 'status',
      status: 503,
      times: 50,
    });
    const result = await run('run-workflow');
    const simRun = simRunOf(result);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Reading workflow run ${simRun.id} failed 6 times in a row.*503.*\\. The run goes on: ${simRun.url}`,
        ),
      ),
    ]);
    expect(apiRequests(world.sim).filter((line) => line.startsWith('GET'))).toHaveLength(6);
  });

  it('never dispatches twice when the dispatch answer is lost or answered 429', async () => {
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'reset',
      processed: true,
      times: 1,
    });
    const lost = await run('run-workflow', { wait: 'false' });
    expect(lost.exitCode).toBe(1);
    expect(lost.stdout).toContain('it was not repeated, so that nothing is created twice');
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
    expect(world.sim.runs()).toHaveLength(1);

    world.sim.reset();
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 1,
    });
    const limited = await run('run-workflow', { wait: 'false' });
    // The spec does not say a 429 means "not processed": not repeated, and the message says so.
    expect(limited.exitCode).toBe(1);
    expect(limited.stdout).toContain('Rate limited by the service (429 Too Many Requests)');
    expect(limited.stdout).toContain(
      'it was not repeated, so that nothing is created twice: check the dashboard',
    );
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
  });
});
