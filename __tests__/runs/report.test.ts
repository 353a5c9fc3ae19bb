/**
 * Every ending of run-workflow and wait-for-run, in the words a user reads: the verdict's failure
 * sentence (verdict.ts judging an explicit reading, its words from src/runs/report/failures.ts) and
 * the job summary (src/runs/report/run-summary.ts), each compared whole, and sync-statuses' summary.
 * A changed word, line or blank line fails here and shows in review. No simulator, no clock.
 */
import type { WorkflowJob, WorkflowRun } from '../../src/service/contract.js';
import { judge } from '../../src/runs/verdict.js';
import { readRun } from '../../src/runs/reading.js';
import type { FollowedRun } from '../../src/runs/follow-inputs.js';
import { renderRunSummary, renderStatusesSection } from '../../src/runs/report/run-summary.js';
import {
  NO_REPOSITORY,
  UNKNOWN_TOKEN_ACCOUNT,
  renderSyncSummary,
  gitHubStoppedWarning,
  notTheServiceMessage,
  tokenRefusedMessage,
  unreachableWarning,
  unreadableRunsWarning,
  noStatusOnCommitWarning,
  anotherAccountDuringPostWarning,
  leftForNextCallWarning,
  newerStatusUnderWarning,
} from '../../src/runs/report/sync-summary.js';
import {
  NO_RUN_COMMIT_WARNING,
  commitChangedWarning,
  jobOutputsBoundedWarning,
  tooManyJobStatusesWarning,
  waitingForApprovalNotice,
} from '../../src/runs/report/run-warnings.js';
import {
  CANCELLED_BEFORE_DISPATCH,
  CANCELLED_DURING_DRY_RUN,
  dispatchNotFoundMessage,
  dryRunFileAbsentMessage,
  dryRunNotTheServiceMessage,
  dryRunTokenRefusedMessage,
  fileRefusesMessage,
  timedOutBeforeDispatchMessage,
  workspaceShows,
} from '../../src/runs/report/dispatch-failures.js';
import { readFailedMessage, runNotFoundMessage } from '../../src/runs/report/failures.js';

const same = (text: string): string => text;
const lines = (...each: string[]): string => each.join('\n');

const RUN_ID = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const RUN_URL = `https://svc.example.com/accounts/acme/projects/app/workflows/${RUN_ID}`;
const COMMIT = '3f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e';
const OTHER = '0123456789abcdef0123456789abcdef01234567';

function job(key: string, status: string, extra: Partial<WorkflowJob> = {}): WorkflowJob {
  return {
    id: `job-${key}`,
    key,
    name: key === 'e2e' ? 'End-to-end tests' : key,
    type: key.startsWith('build') ? 'build' : 'custom',
    status,
    requiredJobKeys: [],
    createdAt: '2026-11-22T09:30:00.000Z',
    updatedAt: '2026-11-22T09:34:10.000Z',
    ...extra,
  } as WorkflowJob;
}

function run(status: string, jobs: WorkflowJob[], extra: Partial<WorkflowRun> = {}): WorkflowRun {
  return {
    id: RUN_ID,
    status,
    url: RUN_URL,
    gitCommitHash: COMMIT,
    gitCommitMessage: 'Add the checkout flow\n\nWith tests.',
    requestedGitRef: 'main',
    jobs,
    ...extra,
  } as WorkflowRun;
}

const BUILDS = [
  job('build_ios', 'success', { buildId: 'b-ios-1' }),
  job('build_android', 'success', { buildId: 'b-android-1' }),
];
const e2e = (status: string, extra: Partial<WorkflowJob> = {}) =>
  job('e2e', status, { requiredJobKeys: ['build_ios', 'build_android'], ...extra });

function followed(extra: Partial<FollowedRun> = {}): FollowedRun {
  return {
    runId: RUN_ID,
    title: 'e2e.yml',
    onActionRequired: 'wait',
    dispatched: true,
    api: { baseUrl: 'https://svc.example.com', token: 't', pollIntervalMs: 10_000, timeoutMs: 3_600_000 },
    ...extra,
  };
}

/** How the step ends on `last` (`kind` how following ended): its verdict and its summary. */
function ending(
  last: WorkflowRun | undefined,
  follow: FollowedRun,
  kind: 'done' | 'timeout' | 'aborted' = 'done',
) {
  const reading = last && readRun(last, follow);
  const verdict = judge({ kind }, follow, reading, RUN_URL);
  const summary = renderRunSummary(
    {
      title: follow.title,
      runId: follow.runId,
      runUrl: RUN_URL,
      run: last,
      outcome: verdict.outcome,
      refusal: verdict.refusal,
      jobs: follow.jobs,
      waitedMs: 250_000,
      reason: verdict.failure,
    },
    same,
  );
  return { outcome: verdict.outcome, failure: verdict.failure, summary };
}

describe('run-workflow and wait-for-run: how each ending reads', () => {
  test('the run succeeds', () => {
    const { outcome, failure, summary } = ending(run('success', [...BUILDS, e2e('success')]), followed());
    expect([outcome, failure]).toEqual(['success', undefined]);
    expect(summary).toBe(
      lines(
        '### Workflow run e2e\\.yml: ✅ succeeded',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ✅ success | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) | ✅ success | 4m10s |  |',
        '',
      ),
    );
  });

  test('a job fails, the job after it is skipped', () => {
    const jobs = [
      BUILDS[0],
      job('build_android', 'failure', { errors: ['Gradle: compileReleaseKotlin failed'] }),
      e2e('skipped'),
    ];
    const { outcome, failure, summary } = ending(run('failure', jobs), followed());
    expect(outcome).toBe('failure');
    expect(failure).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f ended with status failure. Failed jobs: build_android (failure: Gradle: compileReleaseKotlin failed). https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
    expect(summary).toBe(
      lines(
        '### Workflow run e2e\\.yml: ❌ failed',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ❌ failure | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '**Failed jobs**',
        '',
        '- `build_android`',
        '  > ```text',
        '  > Gradle: compileReleaseKotlin failed',
        '  > ```',
        '',
        '[Open the run on the service](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ❌ failure | 4m10s |  |',
        '| End-to-end tests (`e2e`) | ⏭️ skipped (needs `build_android`, which did not succeed) |  |  |',
        '',
      ),
    );
  });

  test('the run is canceled on the service', () => {
    const { outcome, failure, summary } = ending(run('canceled', [...BUILDS, e2e('canceled')]), followed());
    expect(outcome).toBe('canceled');
    expect(failure).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f ended with status canceled. Canceled jobs: e2e (End-to-end tests). https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
    expect(summary).toBe(
      lines(
        '### Workflow run e2e\\.yml: ⏹️ canceled',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ⏹️ canceled | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '**Canceled jobs**',
        '',
        '- End-to-end tests (`e2e`)',
        '',
        '[Open the run on the service](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) | ⏹️ canceled | 4m10s |  |',
        '',
      ),
    );
  });

  test('timeout-minutes is reached (wait-for-run)', () => {
    const follow = followed({
      title: `run ${RUN_ID}`,
      dispatched: false,
      api: { ...followed().api, timeoutMs: 1_800_000 },
    });
    const { outcome, failure, summary } = ending(
      run('in-progress', [...BUILDS, e2e('in-progress')]),
      follow,
      'timeout',
    );
    expect(outcome).toBe('timed-out');
    expect(failure).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f did not finish within timeout-minutes (30); last status: in-progress. The run goes on. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
    expect(summary).toBe(
      lines(
        '### Workflow run run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f: ⏱️ did not finish in time',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ⏳ in-progress | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '> ```text',
        '> Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f did not finish within timeout-minutes (30); last status: in-progress.',
        '> The run goes on. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
        '> ```',
        '',
        '[Open the run on the service](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) | ⏳ in-progress |  |  |',
        '',
      ),
    );
  });

  test('the step is cancelled while it waits', () => {
    const { outcome, failure, summary } = ending(
      run('in-progress', [...BUILDS, e2e('in-progress')]),
      followed(),
      'aborted',
    );
    expect(outcome).toBe('interrupted');
    expect(failure).toBe(
      lines(
        'Stopped waiting for workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f: the step was cancelled. The run goes on. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
    expect(summary).toBe(
      lines(
        '### Workflow run e2e\\.yml: 🛑 not followed to the end: the step was cancelled',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ⏳ in-progress | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '> ```text',
        '> Stopped waiting for workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f: the step was cancelled.',
        '> The run goes on. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
        '> ```',
        '',
        '[Open the run on the service](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) | ⏳ in-progress |  |  |',
        '',
      ),
    );
  });

  test('wait-for-run on a run of another commit (`expected-commit`)', () => {
    const follow = followed({ title: `run ${RUN_ID}`, dispatched: false, expectedCommit: OTHER });
    const { outcome, failure, summary } = ending(run('in-progress', [...BUILDS, e2e('in-progress')]), follow);
    expect(outcome).toBe('failure');
    expect(failure).toBe(
      lines(
        "Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f is a run of commit 3f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e, not of the expected commit 0123456789abcdef0123456789abcdef01234567 (`expected-commit`): a run of another commit cannot gate this one. Follow a run of 0123456789abcdef0123456789abcdef01234567, or set `expected-commit: ''` to accept a run of any commit. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
      ),
    );
    expect(summary).toBe(
      lines(
        '### Workflow run run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f: ❌ a run of another commit',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ⏳ in-progress | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '> ```text',
        '> Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f is a run of commit 3f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e, not of the expected commit 0123456789abcdef0123456789abcdef01234567 (`expected-commit`): a run of another commit cannot gate this one.',
        "> Follow a run of 0123456789abcdef0123456789abcdef01234567, or set `expected-commit: ''` to accept a run of any commit. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
        '> ```',
        '',
        '[Open the run on the service](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) | ⏳ in-progress |  |  |',
        '',
      ),
    );
  });

  test("wait-for-run on another commit, with the merge commit's hint", () => {
    const hint =
      "On `pull_request`, `expected-commit` is `github.sha`, the merge commit GitHub made of the pull request and its base branch, which no run of the pull request's head is of. Give `expected-commit: ${{ github.event.pull_request.head.sha }}` (the pull request's head), or leave `expected-commit` out: that is its default.";
    const follow = followed({ dispatched: false, expectedCommit: OTHER, expectedCommitHint: hint });
    expect(ending(run('success', BUILDS), follow).failure).toBe(
      lines(
        "Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f is a run of commit 3f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e, not of the expected commit 0123456789abcdef0123456789abcdef01234567 (`expected-commit`): a run of another commit cannot gate this one. On `pull_request`, `expected-commit` is `github.sha`, the merge commit GitHub made of the pull request and its base branch, which no run of the pull request's head is of. Give `expected-commit: ${{ github.event.pull_request.head.sha }}` (the pull request's head), or leave `expected-commit` out: that is its default. Or set `expected-commit: ''` to accept a run of any commit. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
      ),
    );
  });

  test('wait-for-run on a run that names no commit', () => {
    const follow = followed({ dispatched: false, expectedCommit: OTHER });
    const { outcome, failure } = ending(run('success', BUILDS, { gitCommitHash: null }), follow);
    expect(outcome).toBe('failure');
    expect(failure).toBe(
      lines(
        "Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f does not say which commit it is a run of, so it cannot be checked against the expected commit 0123456789abcdef0123456789abcdef01234567 (`expected-commit`). Set `expected-commit: ''` to accept a run of any commit. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
      ),
    );
  });

  test('with `jobs`: the builds pass while the tests still run', () => {
    const follow = followed({ jobs: ['build_ios', 'build_android'] });
    const { outcome, failure, summary } = ending(run('in-progress', [...BUILDS, e2e('in-progress')]), follow);
    expect([outcome, failure]).toEqual(['success', undefined]);
    expect(summary).toBe(
      lines(
        '### Jobs `build_ios`, `build_android` of e2e\\.yml: ✅ succeeded',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ⏳ in-progress | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) (not followed) | ⏳ in-progress |  |  |',
        '',
      ),
    );
  });

  test('with `jobs`: a listed job fails', () => {
    const follow = followed({ jobs: ['type:build'] });
    const jobs = [BUILDS[0], job('build_android', 'failure'), e2e('skipped')];
    const { outcome, failure } = ending(run('failure', jobs), follow);
    expect(outcome).toBe('failure');
    expect(failure).toBe(
      lines(
        'Not every listed job succeeded. Failed jobs: build_android (failure). Run status: failure. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
  });

  test('with `jobs`: the run ended before the listed jobs did', () => {
    const follow = followed({ jobs: ['e2e'] });
    const { outcome, failure } = ending(run('canceled', [...BUILDS, e2e('in-progress')]), follow);
    expect(outcome).toBe('canceled');
    expect(failure).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f ended with status canceled before the listed jobs did. https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
  });

  test('`jobs` names a job the run does not have', () => {
    const follow = followed({ jobs: ['e2e_ios', 'type:submit'] });
    const { outcome, failure, summary } = ending(run('in-progress', [...BUILDS, e2e('new')]), follow);
    expect(outcome).toBe('failure');
    expect(failure).toBe(
      lines(
        '`jobs` lists `e2e_ios`, `type:submit`, which the run does not have; its jobs are: build_ios (type build), build_android (type build), e2e (type custom). The service calls those of `type:submit` `type:submission`. The run this step dispatched was started and goes on: https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
    expect(summary).toBe(
      lines(
        '### Jobs `e2e_ios`, `type:submit` of e2e\\.yml: ❌ `jobs` names jobs the run does not have',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ⏳ in-progress | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '> ```text',
        '> `jobs` lists `e2e_ios`, `type:submit`, which the run does not have; its jobs are: build_ios (type build), build_android (type build), e2e (type custom).',
        '> The service calls those of `type:submit` `type:submission`.',
        '> The run this step dispatched was started and goes on: https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
        '> ```',
        '',
        '[Open the run on the service](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` (not followed) | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` (not followed) | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) (not followed) | 🕒 new |  |  |',
        '',
      ),
    );
  });

  test('the run waits for approval, and on-action-required is fail', () => {
    const follow = followed({ onActionRequired: 'fail' });
    const jobs = [...BUILDS, e2e('action-required')];
    const { outcome, failure, summary } = ending(run('action-required', jobs), follow);
    expect(outcome).toBe('action-required');
    expect(failure).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f waits for a manual action such as an approval (job e2e (End-to-end tests)), and on-action-required is fail: the step ends here, the run waits. Someone allowed to approve it does so on its page: https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f; follow it afterwards with wait-for-run.',
      ),
    );
    expect(summary).toBe(
      lines(
        '### Workflow run e2e\\.yml: ✋ waits for approval',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | ✋ action-required | `main` | `3f2c9d1e8b7a` `Add the checkout flow` | 4m10s |',
        '',
        '**The run waits for approval**',
        '',
        '- End-to-end tests (`e2e`)',
        '',
        '> ```text',
        '> Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f waits for a manual action such as an approval (job e2e (End-to-end tests)), and on-action-required is fail: the step ends here, the run waits.',
        '> Someone allowed to approve it does so on its page: https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f; follow it afterwards with wait-for-run.',
        '> ```',
        '',
        '[Open the run on the service to approve it](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>)',
        '',
        '| Job | Status | Duration | Build / submission |',
        '| --- | --- | --- | --- |',
        '| `build_ios` | ✅ success | 4m10s | build `b-ios-1` |',
        '| `build_android` | ✅ success | 4m10s | build `b-android-1` |',
        '| End-to-end tests (`e2e`) | ✋ action-required |  |  |',
        '',
      ),
    );
  });

  test('dispatched, not followed (wait: false)', () => {
    expect(
      renderRunSummary(
        { title: 'e2e.yml', runId: RUN_ID, runUrl: RUN_URL, outcome: 'dispatched', gitRef: 'main' },
        same,
      ),
    ).toBe(
      lines(
        '### Workflow run e2e\\.yml: 🚀 dispatched',
        '',
        '| Run | Status | Ref | Commit | Waited |',
        '| --- | --- | --- | --- | --- |',
        '| [7c1d2e3f](<https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f>) | 🕒 new | `main` |  |  |',
        '',
        'Not followed (`wait: false`): follow it with `wait-for-run` and this run id.',
        '',
      ),
    );
  });

  test('dry-run: what was checked, what could not be', () => {
    expect(
      renderRunSummary(
        {
          title: 'e2e.yml',
          runId: '',
          runUrl: '',
          outcome: 'dry-run',
          dryRun: {
            checked: ['The workflow file e2e.yml parses, and its jobs are build_ios, build_android and e2e.'],
            unchecked: ["The project and the token's access to it: only a real dispatch can tell."],
          },
        },
        same,
      ),
    ).toBe(
      lines(
        '### Workflow run e2e\\.yml: 🧪 checked, not dispatched (`dry-run`)',
        '',
        '**Checked**',
        '',
        '- The workflow file e2e\\.yml parses, and its jobs are build\\_ios, build\\_android and e2e\\.',
        '',
        '**Not checked**',
        '',
        "- The project and the token's access to it\\: only a real dispatch can tell\\.",
        '',
      ),
    );
  });

  test('a read that fails for good: the run was never found, or goes on', () => {
    expect(runNotFoundMessage(RUN_ID, 'Workflow run not found', undefined)).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f was not found (404): the service has no run with that id. Check `run-id`. The service said: Workflow run not found',
      ),
    );
    expect(runNotFoundMessage(RUN_ID, '', 'Is base-url the service?')).toBe(
      lines(
        'Workflow run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f was not found (404): the service has no run with that id. Check `run-id`. Is base-url the service?',
      ),
    );
    expect(readFailedMessage('The service answered 503 five times.', RUN_ID, RUN_URL)).toBe(
      lines(
        'The service answered 503 five times. The run goes on: https://svc.example.com/accounts/acme/projects/app/workflows/7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      ),
    );
    expect(readFailedMessage('The service answered 503 five times.', RUN_ID, '')).toBe(
      lines(
        'The service answered 503 five times. The run goes on (run 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f)',
      ),
    );
  });
});

describe('the other sections', () => {
  test('the commit statuses this step posted', () => {
    expect(renderStatusesSection(COMMIT, [])).toBe(lines(''));
    expect(
      renderStatusesSection(COMMIT, [
        { context: 'svc/e2e.yml', state: 'failure' },
        { context: 'svc/e2e.yml/e2e', state: 'success' },
      ]),
    ).toBe(
      lines(
        '',
        '**Commit statuses** on commit `3f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e`',
        '',
        '- `svc/e2e.yml`: ❌ failure',
        '- `svc/e2e.yml/e2e`: ✅ success',
        '',
      ),
    );
  });

  test("sync-statuses' summary", () => {
    expect(
      renderSyncSummary(
        {
          settled: [{ commit: COMMIT, context: 'svc/e2e.yml', state: 'success', why: 'the run succeeded' }],
          pending: [{ commit: COMMIT, context: 'svc/e2e.yml/e2e', why: 'the run is still in-progress' }],
          refused: [{ commit: OTHER, context: 'svc/other', why: 'not posted by this token' }],
          left: ['max-runs (10) reached'],
          others: [],
        },
        same,
      ),
    ).toBe(
      lines(
        '### sync-statuses',
        '',
        'Settled 1, still pending 1, refused 1.',
        '',
        '**Settled**',
        '',
        '| Commit | Context | State |',
        '| --- | --- | --- |',
        '| `3f2c9d1e8b7a` | `svc/e2e.yml` | ✅ success: the run succeeded |',
        '',
        '**Still pending**',
        '',
        '| Commit | Context | Why |',
        '| --- | --- | --- |',
        '| `3f2c9d1e8b7a` | `svc/e2e.yml/e2e` | the run is still in-progress |',
        '',
        '**Refused**',
        '',
        '| Commit | Context | Why not trusted |',
        '| --- | --- | --- |',
        '| `0123456789ab` | `svc/other` | not posted by this token |',
        '',
        'Left for the next call: max-runs \\(10\\) reached.',
        '',
        '',
      ),
    );
  });
});

describe("sync-statuses' failure sentences and warnings", () => {
  test('the service, its token, GitHub stopping the call', () => {
    expect(
      tokenRefusedMessage('https://svc.example.com', 'The access token was rejected (401 Unauthorized)'),
    ).toBe(
      'The service at https://svc.example.com (`base-url`) refused `token` (The access token was rejected (401 Unauthorized)): sync-statuses read no more runs and left every status pending. Give it a token of the project whose runs the statuses name.',
    );
    expect(notTheServiceMessage('https://example.com', 'it answered 404 in HTML')).toBe(
      '`base-url` https://example.com does not answer as the service does (it answered 404 in HTML): sync-statuses left every status pending.',
    );
    expect(unreadableRunsWarning(2, 'svc.example.com')).toBe(
      'None of the 2 runs read at svc.example.com could be read with `token` (403 or 404): it may belong to another project than the runs the statuses name (or the runs were deleted). Their statuses stay pending; the summary lists them.',
    );
    expect(noStatusOnCommitWarning('a'.repeat(40), 'schedule')).toBe(
      `Commit ${'a'.repeat(40)} (\`commit\`) carries no commit status of this action: nothing to settle there. Check that it is the commit the gate posted on (a run's \`gitCommitHash\`).`,
    );
    expect(unreachableWarning('svc.example.com', 'no complete answer within 10 s', 3)).toBe(
      'The service at svc.example.com could not be reached (no complete answer within 10 s): sync-statuses read no more runs this call (3 more runs not read) and left their statuses pending for the next call.',
    );
    expect(gitHubStoppedWarning("GitHub's API failed (502)")).toBe(
      "GitHub's API failed (502): sync-statuses stopped its GitHub requests for this call; what it did not post stays pending for the next call.",
    );
  });
});

describe("run-workflow's refusals before (or instead of) a dispatch", () => {
  const plan = { workflow: 'e2e.yml', 'git-ref': 'main' };

  test('the workflow file refuses it; the step ran out of time or was cancelled first', () => {
    expect(
      fileRefusesMessage('.eas/workflows/e2e.yml at 3f2c9d1e8b7a', [
        'It has no input `device`; its inputs are: platform.',
        '`jobs` names e2e_ios, which it has no job for.',
      ]),
    ).toBe(
      lines(
        'Not dispatched: the workflow file .eas/workflows/e2e.yml at 3f2c9d1e8b7a (in the workspace, the commit git-ref names) does not accept this dispatch. It has no input `device`; its inputs are: platform. `jobs` names e2e_ios, which it has no job for.',
      ),
    );
    expect(timedOutBeforeDispatchMessage(0.5)).toBe(
      lines(
        'timeout-minutes (0.5) was reached before the dispatch, while the workflow file was checked: nothing was dispatched.',
      ),
    );
    expect(CANCELLED_BEFORE_DISPATCH).toBe(
      lines('The step was cancelled before the dispatch: nothing was dispatched.'),
    );
  });

  test('what the workspace shows of a ref and a workflow file', () => {
    expect(workspaceShows(plan, { problems: [], commit: COMMIT, absent: { folder: [] } })).toBe(
      lines('In the workspace, commit 3f2c9d1e8b7a (the one git-ref names) has no .eas/workflows/ folder.'),
    );
    expect(
      workspaceShows(plan, {
        problems: [],
        commit: COMMIT,
        absent: { folder: ['build.yml', 'E2E.yml'], sameButCase: 'E2E.yml' },
      }),
    ).toBe(
      lines(
        'In the workspace, commit 3f2c9d1e8b7a (the one git-ref names) has no .eas/workflows/e2e.yml; its .eas/workflows/ holds build.yml, E2E.yml. E2E.yml differs from `workflow: e2e.yml` only in case: file names are case-sensitive.',
      ),
    );
    expect(workspaceShows(plan, { problems: [], commit: COMMIT, file: '.eas/workflows/e2e.yml' })).toBe(
      lines(
        'In the workspace, git-ref main is the checked-out commit 3f2c9d1e8b7a and has .eas/workflows/e2e.yml: the repository linked to the project may not have that commit (push it) or may be another repository.',
      ),
    );
    expect(
      workspaceShows(plan, { problems: [], skipped: 'git-ref main is not a commit of the workspace' }),
    ).toBe(lines('In the workspace, git-ref main is not a commit of the workspace.'));
    expect(workspaceShows(plan, { problems: [], skipped: 'the job has no workspace' })).toBeUndefined();
    expect(
      dispatchNotFoundMessage(
        'Dispatching the workflow failed: Not found (404): no such Git ref.',
        workspaceShows(plan, { problems: [], commit: COMMIT, file: '.eas/workflows/e2e.yml' })!,
      ),
    ).toBe(
      lines(
        'Dispatching the workflow failed: Not found (404): no such Git ref. In the workspace, git-ref main is the checked-out commit 3f2c9d1e8b7a and has .eas/workflows/e2e.yml: the repository linked to the project may not have that commit (push it) or may be another repository.',
      ),
    );
  });

  test('a dry run that found what a dispatch would fail on', () => {
    expect(
      dryRunFileAbsentMessage(workspaceShows(plan, { problems: [], commit: COMMIT, absent: { folder: [] } })),
    ).toBe(
      lines(
        'Dry run: the workflow file is not in the commit git-ref names, so a dispatch would fail. In the workspace, commit 3f2c9d1e8b7a (the one git-ref names) has no .eas/workflows/ folder. Check `workflow` and `git-ref`. Nothing was dispatched.',
      ),
    );
    expect(
      dryRunTokenRefusedMessage('https://svc.example.com', 'Unauthorized (401): the token was refused.'),
    ).toBe(
      lines(
        'Dry run: the service at https://svc.example.com did not accept the token (`token`, or SVC_TOKEN): Unauthorized (401): the token was refused. Nothing was dispatched.',
      ),
    );
    expect(dryRunNotTheServiceMessage('https://example.com', 'The answer is not JSON...')).toBe(
      lines(
        'Dry run: `base-url` https://example.com did not answer as the service does: The answer is not JSON. Nothing was dispatched.',
      ),
    );
    expect(CANCELLED_DURING_DRY_RUN).toBe(
      lines('The step was cancelled during the dry run: nothing was dispatched.'),
    );
  });

  test("sync-statuses' refusals", () => {
    expect(NO_REPOSITORY).toBe(lines('GITHUB_REPOSITORY does not name a repository (owner/name).'));
    expect(UNKNOWN_TOKEN_ACCOUNT).toBe(
      lines(
        'Could not tell which account the github-token belongs to (GraphQL `viewer`): sync-statuses settles only the statuses that account posted, so it settled none.',
      ),
    );
  });
});

describe('warnings and notices (src/runs/report/run-warnings.ts, sync-summary.ts)', () => {
  const SHA = 'a'.repeat(40);
  const OTHER = 'b'.repeat(40);

  test('following a run: a run that waits for approval, outputs bounded', () => {
    expect(waitingForApprovalNotice('https://svc.example/run/1')).toBe(
      'The workflow run is waiting for a manual action (approval); still waiting. https://svc.example/run/1',
    );
    expect(waitingForApprovalNotice('')).toBe(
      'The workflow run is waiting for a manual action (approval); still waiting.',
    );
    expect(jobOutputsBoundedWarning(1200, 700, 3, 512, 'https://svc.example/run/1')).toBe(
      "The run has 1200 jobs; the `jobs`, `job-outputs`, `build-ids`, `submission-ids` and `failed-jobs` outputs hold the first 700 in pipeline order (the followed jobs first) and leave out 500, 3 of them not successful, so that these outputs stay under 512 KiB together (GitHub keeps at most 1 MB of outputs per job). The run's page lists every job: https://svc.example/run/1.",
    );
    expect(jobOutputsBoundedWarning(1200, 700, 0, 512, null)).toBe(
      "The run has 1200 jobs; the `jobs`, `job-outputs`, `build-ids`, `submission-ids` and `failed-jobs` outputs hold the first 700 in pipeline order (the followed jobs first) and leave out 500, so that these outputs stay under 512 KiB together (GitHub keeps at most 1 MB of outputs per job). The run's page lists every job.",
    );
  });

  test("the run's commit statuses: a commit changed or not named, more jobs than statuses", () => {
    expect(commitChangedWarning(OTHER, SHA)).toBe(
      `The run now says it is of commit ${OTHER}, not ${SHA} as before: its commit statuses end in error.`,
    );
    expect(NO_RUN_COMMIT_WARNING).toBe(
      'commit-statuses: the run does not name its commit as a whole SHA (`gitCommitHash`), so no commit status is posted: a status goes only on the commit the run is of.',
    );
    expect(tooManyJobStatusesWarning(120, 100, 'svc/e2e')).toBe(
      'commit-statuses: the run has 120 jobs to follow; a status is posted for the first 100 seen and for the run (`svc/e2e`), which covers them all. Use `jobs` to choose the jobs a ruleset requires.',
    );
  });

  test("sync-statuses' warnings: work left, statuses that came while it posted", () => {
    expect(
      leftForNextCallWarning([
        'max-runs (1) reached: 1 run not read this time',
        'the time allowed ran out: 2 runs not read this time',
      ]),
    ).toBe(
      'Left for the next sync-statuses: max-runs (1) reached: 1 run not read this time; the time allowed ran out: 2 runs not read this time.',
    );
    expect(anotherAccountDuringPostWarning('svc/e2e', SHA, 'mallory')).toBe(
      `\`svc/e2e\` on ${SHA}: a status of mallory came while this sync posted; this sync's post is on top of it, and a status of another account is never posted again as the sync's own.`,
    );
    expect(newerStatusUnderWarning('svc/e2e', SHA, 'run-7')).toBe(
      `\`svc/e2e\` on ${SHA}: the newer status of run run-7, posted while this sync ran, is under this sync's post (the call's bound was reached): re-run that run's step to post it again.`,
    );
  });
});
