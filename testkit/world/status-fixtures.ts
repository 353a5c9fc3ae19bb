/**
 * The worlds, GITHUB_* environments and steps of the commit-status tests, in both tiers: commit-statuses,
 * status-trust and sync-statuses (__tests__/runs/ and their cases in __tests__/e2e/runs-bundles.test.ts).
 * A helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { ActionRun, StepRunners } from '../runner/step.js';
import { workflow } from '../docs/workflows.js';
import { createGitHubWorld, pullRequestOnHead, type GitHubWorld } from './github-world.js';
import type { GitHubStandIn } from '../../simulator/index.js';

type Inputs = Record<string, string>;

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
 * mergeCommitEnv unless `env` says another environment. `timeoutMs`: the harness's limit on a
 * bundle's step (writes a second apart make a long one real time).
 */
export function statusesGate(
  runners: StepRunners,
  fixture: GitHubWorld,
  inputs: Inputs,
  onSpawn?: (child: ChildProcess) => void,
  env: Record<string, string> = mergeCommitEnv(fixture),
  timeoutMs?: number,
): Promise<ActionRun> {
  return runners.runStep('run-workflow', {
    ...(timeoutMs ? { timeoutMs } : {}),
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
  options: { env?: Record<string, string>; onSpawn?: (child: ChildProcess) => void; timeoutMs?: number } = {},
): Promise<ActionRun> {
  return statusesGate(
    runners,
    fixture,
    inputs,
    options.onSpawn,
    trustEnv(fixture, options.env),
    options.timeoutMs,
  );
}

// sync-statuses (__tests__/runs/sync-statuses.test.ts)

export const SYNC_PIPELINE = workflow('Pipeline', { build: { type: 'build' }, e2e: { needs: ['build'] } });
export const SYNC_TOKEN = 'ghs_syncToken0123456789';

/** The sync-statuses world: `head` the head commit (main) of pull request 7. */
export interface SyncWorld extends GitHubWorld {
  head: string;
  /** The stand-in's settings as the world started, without tokens: each case's tokens and limits are its own. */
  settingsAtStart: GitHubStandIn['settings'];
}

export async function createSyncWorld(defaultJobDurationMs: number): Promise<SyncWorld> {
  const fixture = await createGitHubWorld(
    { 'pipeline.yml': SYNC_PIPELINE },
    { defaultJobDurationMs },
    'sync-statuses-',
    pullRequestOnHead(7),
  );
  const { settings } = fixture.github;
  return {
    ...fixture,
    head: fixture.world.repo.headSha,
    settingsAtStart: { ...settings, limits: { ...settings.limits }, tokens: {} },
  };
}

/** Each case starts with nothing posted, and pull request 7 open on `head`. */
export function resetSyncWorld({ world, github, head }: SyncWorld): void {
  world.sim.reset();
  github.statuses.length = 0;
  github.requests.length = 0;
  github.pullRequests = [];
  github.addPullRequest({ number: 7, head });
}

/**
 * Each case of a file that changes the stand-in's answers (tokens, limits, refusals) or injects the
 * service's faults: all of those back as the world started, then resetSyncWorld's start.
 */
export function resetSyncCase(fixture: SyncWorld): void {
  const { github, world, settingsAtStart } = fixture;
  github.reset();
  github.settings = { ...settingsAtStart, limits: { ...settingsAtStart.limits } };
  world.sim.clearFaults();
  resetSyncWorld(fixture);
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

/**
 * Has `status` reach GitHub's stand-in just before the next status post does, as a re-run's step
 * with the same workflow token would post between the sync's read and its post; returns what undoes it.
 */
export function statusBeforeNextPost(
  github: GitHubStandIn,
  status: { context: string; state: string; description: string; target_url?: string },
): () => void {
  const answer = github.answer.bind(github);
  let once = true;
  github.answer = (method, path, headers, raw) => {
    if (once && method === 'POST' && path.includes('/statuses/')) {
      once = false;
      answer(method, path, headers, JSON.stringify(status));
    }
    return answer(method, path, headers, raw);
  };
  return () => {
    github.answer = answer;
  };
}
