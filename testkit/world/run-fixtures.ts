/**
 * The fixtures the run commands' tests share across the two tiers: the unit files of __tests__/runs/
 * (and __tests__/github/pr-comment.test.ts, __tests__/text/markdown-structure.test.ts), which run each
 * step in process from the sources, and __tests__/e2e/runs-bundles.test.ts, which runs one case of each
 * through the bundles. Each fixture is the world a file builds (its workflows, GitHub's stand-in on a
 * pull request, a workspace), the GITHUB_* environment its steps get, and the steps it runs; a helper
 * that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { ActionRun, StepOptions, StepRunners } from '../runner/step.js';
import { createWorld, until, type World } from './world.js';
import { createGitWorkspace, type GitWorkspace } from './git-workspace.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../docs/workflows.js';
import { GitHubStandIn, type PostedStatus, type WorkflowRun } from '../../simulator/index.js';
import { shortHash } from '../../src/github/comment-body.js';

type Inputs = Record<string, string>;
type WorldOptions = Parameters<typeof createWorld>[1];

// ---------------------------------------------------------------------------------------------------
// A world beside GitHub's stand-in, with the event file of a pull request.

/** A world, GitHub's stand-in (the simulator's) and `dir`, which holds the event file (event.json). */
export interface GitHubWorld {
  world: World;
  github: GitHubStandIn;
  dir: string;
}

/**
 * A world with `workflows`, GitHub's stand-in started, and in a new folder named from `prefix` the
 * event file `event(world)` says.
 */
export async function createGitHubWorld(
  workflows: Record<string, string>,
  options: WorldOptions,
  prefix: string,
  event: (world: World) => unknown,
): Promise<GitHubWorld> {
  const world = await createWorld(workflows, options);
  const github = new GitHubStandIn();
  await github.start();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'event.json'), JSON.stringify(event(world)));
  return { world, github, dir };
}

/** Closes the simulator and GitHub's stand-in, and removes the event file's folder. */
export async function closeGitHubWorld({ world, github, dir }: GitHubWorld): Promise<void> {
  await world.sim.close();
  await github.close();
  rmSync(dir, { recursive: true, force: true });
}

/** A pull request's event: its number, and its head commit, the world's main. */
export const pullRequestOnHead =
  (number: number) =>
  (world: World): unknown => ({ pull_request: { number, head: { sha: world.repo.headSha } } });

/** What each commit-statuses case starts from: the simulator reset, nothing posted, GitHub answering. */
export function resetStatusesWorld({ world, github }: GitHubWorld): void {
  world.sim.reset();
  github.statuses.length = 0;
  github.requests.length = 0;
  github.comments.length = 0;
  github.failStatusesWith = undefined;
  github.nextStatusAnswers = [];
}

/** The texts of the step's warning annotations, as GitHub shows them. */
export function warningTexts(run: ActionRun): string[] {
  return run.annotations.filter(({ kind }) => kind === 'warning').map(({ text }) => text);
}

/** Each context's states in the order posted. */
export function statusSequences(github: GitHubStandIn): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const status of github.statuses) (out[status.context] ??= []).push(status.state);
  return out;
}

/** The last status posted for `context`. */
export function lastStatus(github: GitHubStandIn, context: string): PostedStatus | undefined {
  return github.statuses.filter((status) => status.context === context).at(-1);
}

/** A description's words, without the marker every status ends with (`[svc:<run id>]`). */
export function statusWords(description: string | undefined): string {
  return (description ?? '').replace(/ \[svc:[^\]]+\]$/, '');
}

/** The status posts GitHub received. */
export function statusPostsTo(github: GitHubStandIn): GitHubStandIn['requests'] {
  return github.requests.filter(
    (request) => request.method === 'POST' && request.path.includes('/statuses/'),
  );
}

/** Resolves once the run `runId` has ended (success, failure or canceled). */
export function untilRunEnded(world: World, runId: string): Promise<WorkflowRun> {
  return until(() =>
    world.sim
      .runs()
      .find((run) => run.id === runId && ['success', 'failure', 'canceled'].includes(run.status)),
  );
}

// ---------------------------------------------------------------------------------------------------
// commit-statuses (__tests__/runs/commit-statuses.test.ts)

export const STATUSES_PIPELINE = workflow('Pipeline', {
  build: { type: 'build' },
  e2e: { needs: ['build'] },
  report: { needs: ['e2e'] },
});
/** The merge commit GITHUB_SHA names on a pull request: statuses never go there. */
export const MERGE_SHA = 'feedface'.repeat(5);
export const STATUSES_TOKEN = 'ghs_statusesToken0123456789';

/** The environment of a pull_request event: its head the world's main, GITHUB_SHA the merge commit. */
export function mergeCommitEnv({ github, dir }: GitHubWorld): Record<string, string> {
  return {
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_SHA: MERGE_SHA,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
  };
}

/**
 * run-workflow gating on pipeline.yml at main, posting commit statuses, on a pull request: in
 * mergeCommitEnv unless `env` says another environment.
 */
export function statusesGate(
  runners: StepRunners,
  fixture: GitHubWorld,
  inputs: Inputs,
  onSpawn?: (child: ChildProcess) => void,
  env: Record<string, string> = mergeCommitEnv(fixture),
): Promise<ActionRun> {
  return runners.runStep('run-workflow', {
    inputs: {
      ...fixture.world.api,
      workflow: 'pipeline.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      'commit-statuses': 'true',
      'github-token': STATUSES_TOKEN,
      ...inputs,
    },
    env,
    ...(onSpawn ? { onSpawn } : {}),
  });
}

// ---------------------------------------------------------------------------------------------------
// status-trust (__tests__/runs/status-trust.test.ts)

export const TRUST_PIPELINE = workflow(
  'Pipeline',
  { build: { type: 'build' }, e2e: { needs: ['build'] }, report: { needs: ['e2e'] } },
  { platform: { type: 'string', required: false } },
);
export const TRUST_GITHUB_RUN = '777';

/** The status-trust world: `head` the pull request's head commit (main), `release` one on branch `release`. */
export interface TrustWorld extends GitHubWorld {
  head: string;
  release: string;
}

export async function createTrustWorld(defaultJobDurationMs: number): Promise<TrustWorld> {
  const fixture = await createGitHubWorld(
    { 'pipeline.yml': TRUST_PIPELINE },
    { defaultJobDurationMs },
    'status-trust-',
    pullRequestOnHead(7),
  );
  const head = fixture.world.repo.headSha;
  const release = fixture.world.repo.commit({ 'pipeline.yml': TRUST_PIPELINE }, 'Release branch', 'release');
  return { ...fixture, head, release };
}

/** The environment of a pull_request event in GitHub run 777, attempt 1, and `extra`. */
export function trustEnv(fixture: GitHubWorld, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...mergeCommitEnv(fixture),
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: TRUST_GITHUB_RUN,
    GITHUB_RUN_ATTEMPT: '1',
    ...extra,
  };
}

/** status-trust's gate: statusesGate in trustEnv (with `options.env`). */
export function trustGate(
  runners: StepRunners,
  fixture: GitHubWorld,
  inputs: Inputs,
  options: { env?: Record<string, string>; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<ActionRun> {
  return statusesGate(runners, fixture, inputs, options.onSpawn, trustEnv(fixture, options.env));
}

// ---------------------------------------------------------------------------------------------------
// sync-statuses (__tests__/runs/sync-statuses.test.ts)

export const SYNC_PIPELINE = workflow('Pipeline', { build: { type: 'build' }, e2e: { needs: ['build'] } });
export const SYNC_TOKEN = 'ghs_syncToken0123456789';

/** The sync-statuses world: `head` the head commit (main) of pull request 7. */
export interface SyncWorld extends GitHubWorld {
  head: string;
}

export async function createSyncWorld(defaultJobDurationMs: number): Promise<SyncWorld> {
  const fixture = await createGitHubWorld(
    { 'pipeline.yml': SYNC_PIPELINE },
    { defaultJobDurationMs },
    'sync-statuses-',
    pullRequestOnHead(7),
  );
  return { ...fixture, head: fixture.world.repo.headSha };
}

/** Each case starts with nothing posted, and pull request 7 open on `head`. */
export function resetSyncWorld({ world, github, head }: SyncWorld): void {
  world.sim.reset();
  github.statuses.length = 0;
  github.requests.length = 0;
  github.pullRequests = [];
  github.addPullRequest({ number: 7, head });
}

/** The environment of a step in GitHub run 901 on `event`. */
export function syncEnv({ github, dir }: GitHubWorld, event = 'pull_request'): Record<string, string> {
  return {
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_RUN_ID: '901',
    GITHUB_RUN_ATTEMPT: '1',
  };
}

/** The gate that leaves: dispatch, one read, pending statuses, exit. */
export function dispatchAndLeaveStep(
  runners: StepRunners,
  fixture: GitHubWorld,
  inputs: Inputs = {},
  event = 'pull_request',
): Promise<ActionRun> {
  return runners.runStep('run-workflow', {
    inputs: {
      ...fixture.world.api,
      workflow: 'pipeline.yml',
      wait: 'false',
      'commit-statuses': 'true',
      'github-token': SYNC_TOKEN,
      ...inputs,
    },
    env: syncEnv(fixture, event),
  });
}

/** sync-statuses on a schedule, in GitHub run 902. */
export function syncStatusesStep(
  runners: StepRunners,
  fixture: GitHubWorld,
  inputs: Inputs = {},
): Promise<ActionRun> {
  const { world } = fixture;
  return runners.runStep('sync-statuses', {
    inputs: { token: world.token, 'base-url': world.sim.url, 'github-token': SYNC_TOKEN, ...inputs },
    env: { ...syncEnv(fixture, 'schedule'), GITHUB_RUN_ID: '902' },
  });
}

// ---------------------------------------------------------------------------------------------------
// The pull-request comment (__tests__/github/pr-comment.test.ts, __tests__/text/markdown-structure.test.ts)

export const PR_GATE = `name: Gate
on:
  workflow_dispatch:
    inputs:
      registry-token:
        type: string
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  test:
    name: Tests
    needs: [build_ios]
`;
export const FAKE_GITHUB_TOKEN = 'ghs_FakeGitHubToken0123456789abcdef';
export const PR_NUMBER = 42;

/** pr-comment's world: PR_GATE as gate.yml, on pull request PR_NUMBER whose head is main. */
export function createCommentWorld(options: WorldOptions): Promise<GitHubWorld> {
  return createGitHubWorld({ 'gate.yml': PR_GATE }, options, 'pr-comment-', pullRequestOnHead(PR_NUMBER));
}

/** The environment of a step of GitHub run 777 on `event`, which may comment. */
export function commentEnv({ github, dir }: GitHubWorld): Record<string, string> {
  return {
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_RUN_ID: '777',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
  };
}

/** commentEnv on `event`, GITHUB_SHA the world's main. */
export function commentOnHeadEnv(fixture: GitHubWorld, event = 'pull_request'): Record<string, string> {
  return { ...commentEnv(fixture), GITHUB_SHA: fixture.world.repo.headSha, GITHUB_EVENT_NAME: event };
}

/** The gate's marker: its workflow and a hash of its settings (app-id, the git-ref given, no inputs). */
export function gateCommentMarker(world: World): string {
  return `<!-- svc-action:comment:run-workflow:gate.yml:${shortHash({ inputs: null, appId: world.api['app-id'], gitRef: 'main' })} -->`;
}

/** run-workflow through the root action, gating on gate.yml at main, with `comment: true`. */
export function commentingGate(
  runners: StepRunners,
  fixture: GitHubWorld,
  inputs: Inputs = {},
  event = 'pull_request',
  env: Record<string, string> = {},
): Promise<ActionRun> {
  return runners.runAction({
    inputs: {
      command: 'run-workflow',
      ...fixture.world.api,
      workflow: 'gate.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      comment: 'true',
      'github-token': FAKE_GITHUB_TOKEN,
      ...inputs,
    },
    env: { ...commentOnHeadEnv(fixture, event), ...env },
  });
}

/** No comment holds a secret; the GitHub token is masked before anything is printed, never after. */
export function expectNoCommentSecret(
  { world, github }: GitHubWorld,
  run: ActionRun,
  ...secrets: string[]
): void {
  for (const comment of github.comments) {
    for (const secret of [world.token, FAKE_GITHUB_TOKEN, ...secrets])
      expect(comment.body).not.toContain(secret);
  }
  expect(run.stdout).toContain(`::add-mask::${FAKE_GITHUB_TOKEN}`);
  expect(run.stdout.split(`::add-mask::${FAKE_GITHUB_TOKEN}`).slice(1).join('')).not.toContain(
    FAKE_GITHUB_TOKEN,
  );
}

/** The rows of `table` under `column`, by its header. */
export function tableColumn(table: { header: string[]; rows: string[][] }, name: string): string[] {
  return table.rows.map((row) => row[table.header.indexOf(name)]);
}

// ---------------------------------------------------------------------------------------------------
// run-workflow, wait-for-run, summaries, expected-commit

export const RUN_GATE = workflow(
  'Gate',
  {
    ...BUILD_IOS,
    ...BUILD_ANDROID,
    test: { name: 'Tests', needs: ['build_ios'], outputs: { result: 'passed' } },
    submit: { type: 'submit', needs: ['test', 'build_android'], params: { platform: 'ios' } },
  },
  { profile: { type: 'choice', options: ['preview', 'production'], default: 'preview', required: true } },
);
/** The two ways to call run-workflow, as a workflow writes them. */
export const RUN_DOORS = ['run-workflow', 'root'] as const;
export type RunDoor = (typeof RUN_DOORS)[number];

/** run-workflow through `action`, gating on gate.yml at main. */
export function runThroughDoor(
  runners: StepRunners,
  world: World,
  action: RunDoor,
  inputs: Inputs = {},
  options: StepOptions = {},
): Promise<ActionRun> {
  return runners.runStep(action, {
    ...options,
    inputs: {
      ...(action === 'root' ? { command: 'run-workflow' } : {}),
      ...world.api,
      workflow: 'gate.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}

/** Both doors at once (in process, one after the other); each result is matched to its run by its `run-id`. */
export async function throughBothDoors(
  runners: StepRunners,
  world: World,
  inputs: Inputs = {},
  options: StepOptions = {},
): Promise<Array<[RunDoor, ActionRun]>> {
  const results = await Promise.all(
    RUN_DOORS.map((action) => runThroughDoor(runners, world, action, inputs, options)),
  );
  return RUN_DOORS.map((action, index) => [action, results[index]]);
}

/** The simulator's run a step output the id of. */
export function simRunOfStep(world: World, result: ActionRun): WorkflowRun {
  const simRun = world.sim.getRun(result.outputs['run-id']);
  if (!simRun) throw new Error(`no run ${result.outputs['run-id']} in the simulator:\n${result.stdout}`);
  return simRun;
}

export interface RunJob {
  key: string;
  status: string;
  buildId: string | null;
}

/** The `jobs` output, read. */
export function jobsOutput(result: ActionRun): RunJob[] {
  return JSON.parse(result.outputs.jobs) as RunJob[];
}

/**
 * A run nobody in this job dispatched (of store.yml at main): the step only knows its id. Its first jobs
 * have started when this returns, so a job behaviour set afterwards (they apply to jobs started later)
 * cannot reach them.
 */
export async function someoneElsesStoreRun(world: World): Promise<WorkflowRun> {
  const run = await world.sim.createRun({ appId: world.project.id, gitRef: 'main', fileName: 'store.yml' });
  return until(() => {
    const current = world.sim.getRun(run.id);
    return current?.jobs.every((job) => job.key === 'submit' || job.status !== 'new') && current;
  });
}

/** run-workflow on gate.yml at main (summaries.test.ts). */
export function gateDispatch(runners: StepRunners, world: World, inputs: Inputs = {}): Promise<ActionRun> {
  return runners.runAction({
    entry: 'run-workflow',
    inputs: {
      ...world.api,
      workflow: 'gate.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}

/** The header of the summary's first table. */
export function runTableHeader(summary: string): string {
  return summary.split('\n').find((line) => line.startsWith('| Run')) ?? '';
}

export const STORE_PIPELINE = `name: Store
on: workflow_dispatch
jobs:
  build:
    type: build
`;

/** expected-commit's world: store.yml on main, and `otherSha`, the commit of branch `next` one after it. */
export async function createNextCommitWorld(
  defaultJobDurationMs: number,
): Promise<{ world: World; otherSha: string }> {
  const world = await createWorld({ 'store.yml': STORE_PIPELINE }, { defaultJobDurationMs });
  const otherSha = world.repo.commit({ 'store.yml': `${STORE_PIPELINE}# next\n` }, 'Next', 'next');
  return { world, otherSha };
}

/** A run of store.yml at `gitRef`, started in the simulator. */
export function storeRunOn(world: World, gitRef: string): Promise<WorkflowRun> {
  return world.sim.createRun({ appId: world.project.id, gitRef, fileName: 'store.yml' });
}

// ---------------------------------------------------------------------------------------------------
// A job's workspace that is the project's repository (not-found, dry-run, workflow-file-check)

export const ONE_BUILD_YML = 'on: workflow_dispatch\njobs:\n  build:\n    type: build\n';

/** A world beside a git workspace: `api` the inputs naming the project whose repository it is. */
export interface WorkspaceWorld {
  world: World;
  workspace: GitWorkspace;
  api: Inputs;
}

/** A project (`checked` unless named) whose repository is the git workspace of `files` (names under .eas/workflows/). */
export async function createWorkspaceWorld(
  files: Record<string, string>,
  options: WorldOptions = {},
  prepare: (workspace: GitWorkspace) => void = () => undefined,
  projectName = 'checked',
): Promise<WorkspaceWorld> {
  const workspace = createGitWorkspace(files);
  prepare(workspace);
  const world = await createWorld({}, options);
  const project = world.sim.addProject({
    account: world.account,
    repoPath: workspace.path,
    name: projectName,
  });
  return { world, workspace, api: { ...world.api, 'app-id': project.id } };
}

export async function closeWorkspaceWorld({ world, workspace }: WorkspaceWorld): Promise<void> {
  workspace.remove();
  await world.sim.close();
}

/** run-workflow of `workflow` at main, in a job whose workspace is the project's repository. */
export function workspaceDispatch(
  runners: StepRunners,
  { workspace, api }: WorkspaceWorld,
  inputs: Inputs,
  options: StepOptions = {},
  defaults: Inputs = { workflow: 'e2e.yml', 'git-ref': 'main' },
): Promise<ActionRun> {
  return runners.runStep('run-workflow', {
    ...options,
    env: { GITHUB_WORKSPACE: workspace.path, ...options.env },
    inputs: { ...api, ...defaults, ...inputs },
  });
}

/** A dry run of e2e.yml at main, in a job whose workspace is the project's repository. */
export function workspaceDryRun(
  runners: StepRunners,
  fixture: WorkspaceWorld,
  inputs: Inputs,
  options: StepOptions = {},
): Promise<ActionRun> {
  return workspaceDispatch(runners, fixture, inputs, options, {
    workflow: 'e2e.yml',
    'git-ref': 'main',
    'dry-run': 'true',
  });
}

export const CHECKED_GATE = `name: Gate
on:
  workflow_dispatch:
    inputs:
      profile:
        type: choice
        options: [preview, production]
        default: preview
      retries:
        type: number
        default: 1
      dry:
        type: boolean
      track:
        type: string
        required: true
jobs:
  build_ios:
    type: build
    params:
      platform: ios
  build_android:
    type: build
  submit:
    type: submit
    needs: [build_ios]
`;

/** run-workflow of gate.yml (CHECKED_GATE) at the workspace's commit, with `track: beta`. */
export function checkedDispatch(
  runners: StepRunners,
  fixture: WorkspaceWorld,
  inputs: Inputs,
  options: StepOptions = {},
): Promise<ActionRun> {
  return workspaceDispatch(runners, fixture, inputs, options, {
    workflow: 'gate.yml',
    'git-ref': fixture.workspace.headSha,
    inputs: 'track: beta',
    'poll-interval-seconds': '0.05',
  });
}

/** The step's one error annotation, as GitHub shows it. */
export function oneErrorOf(run: ActionRun): string {
  expect(run.errors).toHaveLength(1);
  return run.errors[0];
}
