/**
 * The merge queue's world, in both tiers (__tests__/runs/merge-group.test.ts, __tests__/runs/sync-merge-queue.test.ts
 * and __tests__/e2e/merge-queue-bundles.test.ts): pull request 7 open on its head, and the commit
 * GitHub's stand-in's queue built for it on `main` (its `gh-readonly-queue/main/pr-7-<sha>` branch),
 * with the `merge_group` event's payload and environment as GitHub gives them.
 * A helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionRun, StepRunners } from '../runner/step.js';
import type { VirtualClock } from '../runner/step-clock.js';
import { workflow } from '../docs/workflows.js';
import {
  createGitHubWorld,
  pullRequestOnHead,
  resetStatusesWorld,
  type GitHubWorld,
} from './github-world.js';

type Inputs = Record<string, string>;

export const QUEUE_PIPELINE = workflow('Pipeline', { build: { type: 'build' }, e2e: { needs: ['build'] } });
export const QUEUE_TOKEN = 'ghs_queueToken0123456789';
export const QUEUED_PR = 7;

/** The queue's world: `head` pull request 7's head (main), `queue` the commit the queue built for it. */
export interface QueueWorld extends GitHubWorld {
  head: string;
  queue: string;
  /** `refs/heads/gh-readonly-queue/main/pr-7-<head>`. */
  queueRef: string;
}

export async function createQueueWorld(defaultJobDurationMs: number): Promise<QueueWorld> {
  const fixture = await createGitHubWorld(
    { 'pipeline.yml': QUEUE_PIPELINE },
    { defaultJobDurationMs },
    'merge-queue-',
    pullRequestOnHead(QUEUED_PR),
  );
  const head = fixture.world.repo.headSha;
  // GitHub's stand-in builds the queue's commit in the project's repository, as GitHub's queue does.
  fixture.github.linkRepository(fixture.world.repo);
  fixture.github.addPullRequest({ number: QUEUED_PR, head });
  const { entry, event } = await fixture.github.enqueue(QUEUED_PR);
  const [queue, queueRef] = [entry.head, entry.ref];
  writeFileSync(join(fixture.dir, 'merge-group.json'), JSON.stringify(event));
  return { ...fixture, head, queue, queueRef };
}

/**
 * What each case starts from: nothing posted, GitHub answering, and pull request 7 the only one open,
 * its queue entry's head commit the one the queue built.
 */
export function resetQueueWorld(fixture: QueueWorld): void {
  resetStatusesWorld(fixture);
  fixture.github.pullRequests = [];
  fixture.github.addPullRequest({ number: QUEUED_PR, head: fixture.head, queue: { head: fixture.queue } });
}

/** A `merge_group` event's payload (action `checks_requested`). */
export function mergeGroupPayload(headSha: string, headRef: string, baseSha: string): unknown {
  return {
    action: 'checks_requested',
    merge_group: {
      head_sha: headSha,
      head_ref: headRef,
      base_sha: baseSha,
      base_ref: 'refs/heads/main',
      head_commit: { id: headSha, message: `Merge pull request #${QUEUED_PR}` },
    },
    repository: { full_name: 'acme/app' },
  };
}

/**
 * The environment of a step on `merge_group` in GitHub run 903: GITHUB_SHA the queue's commit,
 * GITHUB_REF its branch, the payload in merge-group.json (or `eventFile` in the world's folder).
 */
export function mergeGroupEnv(fixture: QueueWorld, eventFile = 'merge-group.json'): Record<string, string> {
  return {
    GITHUB_API_URL: fixture.github.url,
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_EVENT_NAME: 'merge_group',
    GITHUB_EVENT_PATH: join(fixture.dir, eventFile),
    GITHUB_SHA: fixture.queue,
    GITHUB_REF: fixture.queueRef,
    GITHUB_RUN_ID: '903',
    GITHUB_RUN_ATTEMPT: '1',
  };
}

/** The environment of the same gate on `pull_request` (GITHUB_SHA: a merge commit no run is of). */
export function pullRequestGateEnv(fixture: QueueWorld): Record<string, string> {
  return {
    ...mergeGroupEnv(fixture),
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: join(fixture.dir, 'event.json'),
    GITHUB_SHA: 'feedface'.repeat(5),
    GITHUB_REF: `refs/pull/${QUEUED_PR}/merge`,
    GITHUB_RUN_ID: '902',
  };
}

/**
 * The gate of the recipe "Required on pull requests and in the merge queue": run-workflow on
 * pipeline.yml with no git-ref (the event's commit), posting commit statuses; on merge_group unless
 * `env` says otherwise.
 */
export function queueGate(
  runners: StepRunners,
  fixture: QueueWorld,
  inputs: Inputs = {},
  env: Record<string, string> = mergeGroupEnv(fixture),
): Promise<ActionRun> {
  return runners.runStep('run-workflow', {
    inputs: {
      ...fixture.world.api,
      workflow: 'pipeline.yml',
      'poll-interval-seconds': '0.05',
      'commit-statuses': 'true',
      'github-token': QUEUE_TOKEN,
      ...inputs,
    },
    env,
  });
}

/** sync-statuses on a schedule in GitHub run 904 (`env` over that), on `clock` when given (in process). */
export function queueSync(
  runners: StepRunners,
  fixture: QueueWorld,
  inputs: Inputs = {},
  env: Record<string, string> = {},
  clock?: VirtualClock,
): Promise<ActionRun> {
  const { world } = fixture;
  return runners.runStep('sync-statuses', {
    inputs: { token: world.token, 'base-url': world.sim.url, 'github-token': QUEUE_TOKEN, ...inputs },
    env: { ...mergeGroupEnv(fixture), GITHUB_EVENT_NAME: 'schedule', GITHUB_RUN_ID: '904', ...env },
    ...(clock ? { clock } : {}),
  });
}
