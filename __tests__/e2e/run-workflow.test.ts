/**
 * run-workflow end to end: the committed dist/ bundle, run as the runner runs it, against the
 * simulator, on Node 20 and Node 24. Each test asserts outputs, exit code and requests made.
 */
import { runAction, RUNTIME_NAMES } from '../helpers/run-action.js';
import { apiRequests, createWorld, until, type World } from '../helpers/world.js';

const GATE = `name: Gate
on:
  workflow_dispatch:
    inputs:
      profile:
        type: choice
        options: [preview, production]
        default: preview
        required: true
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  test:
    name: Tests
    needs: [build_ios]
    outputs:
      result: passed
  submit:
    type: submit
    needs: [test]
    params:
      platform: ios
`;

const APPROVAL = `name: Release
on: workflow_dispatch
jobs:
  approve:
    type: require-approval
  release:
    needs: [approve]
    type: build
`;

const FAST = { 'poll-interval-seconds': '0.05' };

describe.each(RUNTIME_NAMES)('run-workflow on %s', (runtime) => {
  let world: World;
  beforeEach(async () => {
    world = await createWorld({ 'gate.yml': GATE, 'release.yml': APPROVAL }, { defaultJobDurationMs: 60 });
  });
  afterEach(() => world.sim.close());

  const run = (inputs: Record<string, string>, env: Record<string, string> = {}) =>
    runAction({
      runtime,
      inputs: {
        command: 'run-workflow',
        ...world.api,
        workflow: 'gate.yml',
        'git-ref': 'main',
        ...FAST,
        ...inputs,
      },
      env,
    });

  it('gates on a successful run: outputs, summary, one dispatch then reads on one connection', async () => {
    const result = await run({ inputs: 'profile: production' });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const [simRun] = world.sim.runs();
    expect(simRun.status).toBe('success');
    expect(result.outputs).toMatchObject({
      'run-id': simRun.id,
      'run-url': simRun.url,
      status: 'success',
      'git-commit-hash': world.repo.headSha,
    });
    const jobs = JSON.parse(result.outputs.jobs) as Array<{
      key: string;
      status: string;
      buildId: string | null;
    }>;
    expect(jobs.map((job) => [job.key, job.status])).toEqual([
      ['build_ios', 'success'],
      ['test', 'success'],
      ['submit', 'success'],
    ]);
    expect(JSON.parse(result.outputs['build-ids'])).toEqual([jobs[0].buildId]);
    expect(JSON.parse(result.outputs['submission-ids'])).toHaveLength(1);
    expect(JSON.parse(result.outputs['job-outputs'])).toMatchObject({ test: { result: 'passed' } });
    expect(result.stdout).toMatch(/\[\d+s\] job build_ios \(Build iOS\): success/);
    expect(result.summary).toContain('| Status | ✅ success |');
    expect(result.summary).toMatch(
      /\| Build iOS \(`build_ios`\) \| build \| ✅ success \| build `[0-9a-f-]{36}` \|/,
    );

    const requests = apiRequests(world.sim);
    expect(requests[0]).toBe('POST /v2/workflows/dispatch');
    expect(requests.slice(1).every((line) => line === `GET /v2/workflows/runs/${simRun.id}`)).toBe(true);
    const dispatch = world.sim.requests[0];
    expect(dispatch.body).toEqual({
      appId: world.project.id,
      gitRef: 'main',
      fileName: 'gate.yml',
      inputs: { profile: 'production' },
    });
    expect(dispatch.headers.authorization).toBe(`Bearer ${world.token}`);
    expect(new Set(world.sim.requests.map((request) => request.connectionId)).size).toBe(1);
  });

  it('fails on a failed run and names the failed job', async () => {
    world.sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'Detox: 3 tests failed' });
    const result = await run({});
    expect(result.exitCode).toBe(1);
    expect(result.outputs.status).toBe('failure');
    expect(result.stdout).toMatch(
      /::error::Workflow run [0-9a-f-]+ ended with status failure\. Failed jobs: test \(Tests\) \(failure: Detox: 3 tests failed\)\. http/,
    );
    const jobs = JSON.parse(result.outputs.jobs) as Array<{ key: string; status: string }>;
    expect(jobs.find((job) => job.key === 'submit')?.status).toBe('skipped');
    expect(result.summary).toContain('❌ failure');
  });

  it('fails on a canceled run', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 5000 });
    const pending = run({});
    const simRun = await until(() => world.sim.runs().find((r) => r.status === 'in-progress'));
    world.sim.cancelRun(simRun.id);
    const result = await pending;
    expect(result.exitCode).toBe(1);
    expect(result.outputs.status).toBe('canceled');
    expect(result.stdout).toContain('ended with status canceled');
  });

  it('keeps waiting through action-required, says so once, and passes after approval', async () => {
    const pending = run({ workflow: 'release.yml' });
    const simRun = await until(() => world.sim.runs().find((r) => r.status === 'action-required'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    world.sim.approve(simRun.id);
    const result = await pending;
    expect(result.exitCode).toBe(0);
    expect(result.outputs.status).toBe('success');
    expect(result.stdout.match(/::notice::The workflow run is waiting for a manual action/g)).toHaveLength(1);
    expect(result.stdout).toContain(simRun.url);
  });

  it('fails at timeout-minutes, links the run and sets the last status', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const result = await run({ 'timeout-minutes': '0.005' });
    expect(result.exitCode).toBe(1);
    expect(result.outputs.status).toBe('in-progress');
    const [simRun] = world.sim.runs();
    expect(result.stdout).toContain(
      `::error::Workflow run ${simRun.id} did not finish within timeout-minutes (0.005); last status: in-progress. ${simRun.url}`,
    );
  });

  it('with wait: false sets run-id and run-url and makes no read', async () => {
    const result = await run({ wait: 'false' });
    expect(result.exitCode).toBe(0);
    const [simRun] = world.sim.runs();
    expect(result.outputs).toEqual({ 'run-id': simRun.id, 'run-url': simRun.url });
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
  });

  it('reports a missing ref as 404 with the service message', async () => {
    const result = await run({ 'git-ref': 'no-such-branch' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Dispatching workflow gate\.yml failed: Not found \(404\) \[NOT_FOUND\]: .*no-such-branch/,
    );
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
  });

  it('reports inputs the workflow rejects as 400 naming the input', async () => {
    const result = await run({ inputs: 'profile: staging' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Dispatching workflow gate\.yml failed: The service rejected the request \(400 Bad Request\).*profile/,
    );
  });

  it('reports an invalid token as 401 without printing it', async () => {
    const result = await run({ token: 'not-a-real-token' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('::add-mask::not-a-real-token');
    expect(result.stdout).toContain('401 Unauthorized');
    expect(result.stdout.split('::add-mask::not-a-real-token')[1]).not.toContain('not-a-real-token');
  });

  it('rejects a missing token before any request', async () => {
    const result = await run({ token: '' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('::error::Invalid input: `token` is required');
    expect(apiRequests(world.sim)).toEqual([]);
  });

  it('defaults git-ref to the pull request head commit', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/event-');
    writeFileSync(
      `${dir}/event.json`,
      JSON.stringify({ pull_request: { head: { sha: world.repo.headSha } } }),
    );
    const result = await run(
      { 'git-ref': '' },
      {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: `${dir}/event.json`,
        GITHUB_SHA: 'f'.repeat(40),
      },
    );
    expect(result.exitCode).toBe(0);
    expect((world.sim.requests[0].body as { gitRef: string }).gitRef).toBe(world.repo.headSha);
  });

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
    const result = await run({});
    expect(result.exitCode).toBe(0);
    expect(result.outputs.status).toBe('success');
    expect(result.stdout.match(/retrying in/g)?.length).toBeGreaterThanOrEqual(4);
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
    const result = await run({});
    const [simRun] = world.sim.runs();
    expect(result.exitCode).toBe(1);
    expect(result.outputs['run-id']).toBe(simRun.id);
    expect(result.stdout).toMatch(
      new RegExp(
        `::error::Reading workflow run ${simRun.id} failed 6 times in a row; giving up\\. Last error: .*503.*\\. The run goes on: ${simRun.url}`,
      ),
    );
    expect(apiRequests(world.sim).filter((line) => line.startsWith('GET'))).toHaveLength(6);
  });

  it('never dispatches twice when the dispatch answer is lost', async () => {
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'reset',
      processed: true,
      times: 1,
    });
    const result = await run({});
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('it was not repeated, so that nothing is created twice');
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
    expect(world.sim.runs()).toHaveLength(1);
  });

  it('retries a dispatch answered 429 and dispatches once', async () => {
    world.sim.injectFault({
      method: 'POST',
      path: '/v2/workflows/dispatch',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 1,
    });
    const result = await run({});
    expect(result.exitCode).toBe(0);
    expect(world.sim.runs()).toHaveLength(1);
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toHaveLength(2);
  });
});
