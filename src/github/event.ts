/**
 * The commit a step is about, from the GitHub event: the pull request's head commit on
 * `pull_request` and `pull_request_target`, the queue's commit (`merge_group.head_sha`) on
 * `merge_group`, otherwise `GITHUB_SHA`. run-workflow dispatches on it by default (`git-ref`) and
 * wait-for-run expects the run to be of it (`expected-commit`), so that a run dispatched in one job
 * is the run accepted in the next. The action.yml default of `expected-commit` says the same in the
 * runner's expression language (EVENT_COMMIT_EXPRESSION).
 */
import { readFileSync } from 'node:fs';
import type { InputSource } from '../inputs/table.js';

const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'] as const;

/** Whether the step runs for a pull request (the only events with a pull request to comment on). */
export function isPullRequestEvent(name: string | undefined): boolean {
  return (PULL_REQUEST_EVENTS as readonly string[]).includes(name ?? '');
}

/** The merge queue's event: a ruleset's required statuses are owed again on the queue's commit. */
export const MERGE_GROUP_EVENT = 'merge_group';

/**
 * Whether the step runs for a commit a ruleset gates and sync-statuses looks at: a pull request's head
 * or a merge queue's commit.
 */
export function isGatedEvent(name: string | undefined): boolean {
  return isPullRequestEvent(name) || name === MERGE_GROUP_EVENT;
}

/** `eventCommit` as a runner expression, for an action.yml default. */
export const EVENT_COMMIT_EXPRESSION = `\${{ (${PULL_REQUEST_EVENTS.map((event) => `github.event_name == '${event}'`).join(' || ')}) && github.event.pull_request.head.sha || github.event_name == '${MERGE_GROUP_EVENT}' && github.event.merge_group.head_sha || github.sha }}`;

interface PullRequestSides {
  headSha?: string;
  /** `owner/name` of the head's repository; '' when unknown (a deleted fork). */
  headRepo: string;
  baseRepo: string;
}

interface PullRequestEvent {
  event: (typeof PULL_REQUEST_EVENTS)[number];
  /** Undefined when the payload cannot be read or has no pull request head. */
  pullRequest?: PullRequestSides;
}

/** The pull-request event the step runs for; undefined for other events or without a payload file. */
export function pullRequestEvent(source: InputSource): PullRequestEvent | undefined {
  const { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: eventPath } = source.env;
  const known = PULL_REQUEST_EVENTS.find((name) => name === event);
  if (!known || !eventPath) return undefined;
  return { event: known, pullRequest: readPullRequest(source, eventPath) };
}

/** The commit under review as the runner gives it (its environment and event payload file). */
export function runnerEventCommit(env: Record<string, string | undefined> = process.env): string | undefined {
  return eventCommit({ env, input: () => '', readFile: (path) => readFileSync(path, 'utf8') });
}

/** The merge group the step runs for, as the runner gives it; undefined on other events. */
export function runnerMergeGroup(
  env: Record<string, string | undefined> = process.env,
): MergeGroup | undefined {
  return mergeGroupEvent({ env, input: () => '', readFile: (path) => readFileSync(path, 'utf8') });
}

/**
 * The pull request's head commit on pull-request events, the queue's commit on `merge_group`,
 * otherwise GITHUB_SHA; undefined when none.
 */
export function eventCommit(
  source: InputSource,
  pullRequest: PullRequestEvent | undefined = pullRequestEvent(source),
): string | undefined {
  // A pull request's GITHUB_SHA is its merge commit: used only when the payload has no head. On
  // merge_group GITHUB_SHA is the queue's commit too; the payload is read first, as on a pull request.
  return (
    pullRequest?.pullRequest?.headSha ??
    mergeGroupEvent(source)?.headSha ??
    (source.env.GITHUB_SHA?.trim() || undefined)
  );
}

/** Whether the head is a branch of the base repository itself; unknown is not. */
export function sameRepository(pullRequest: PullRequestSides | undefined): boolean {
  return (
    pullRequest !== undefined && pullRequest.baseRepo !== '' && pullRequest.headRepo === pullRequest.baseRepo
  );
}

function readPullRequest(source: InputSource, eventPath: string): PullRequestSides | undefined {
  type Side = { sha?: unknown; repo?: { full_name?: unknown } | null };
  let payload: { pull_request?: { head?: Side; base?: Side } };
  try {
    payload = JSON.parse(source.readFile(eventPath)) as typeof payload;
  } catch {
    return undefined;
  }
  const { head, base } = payload.pull_request ?? {};
  if (!head) return undefined;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    headSha: text(head.sha) || undefined,
    // A deleted fork has no repository: it is not the base repository either.
    headRepo: text(head.repo?.full_name),
    baseRepo: text(base?.repo?.full_name),
  };
}

/** What a `merge_group` event says of the queue's commit. */
export interface MergeGroup {
  /** `merge_group.head_sha`: the commit the queue built (GITHUB_SHA); undefined when the payload lacks it. */
  headSha?: string;
  /** The branch the queue merges into (`merge_group.base_ref` without `refs/heads/`); '' when unknown. */
  baseBranch: string;
  /** The pull request whose entry the commit tests, when its ref names one (`…/pr-<n>-<sha>`). */
  pullRequest?: number;
}

/**
 * The queue's ref as GitHub names it: `refs/heads/gh-readonly-queue/<base>/pr-<n>-<sha>`, where
 * `<sha>` is the commit the entry was built on, not the commit under review.
 */
const QUEUE_REF = /^(?:refs\/heads\/)?gh-readonly-queue\/(.+)\/pr-(\d{1,9})-[0-9a-f]{40,64}$/;

/** The merge group the step runs for; undefined on other events. A payload it cannot read gives no SHA. */
export function mergeGroupEvent(source: InputSource): MergeGroup | undefined {
  const { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: eventPath } = source.env;
  if (event !== MERGE_GROUP_EVENT) return undefined;
  let group: { head_sha?: unknown; head_ref?: unknown; base_ref?: unknown } | undefined;
  try {
    if (eventPath)
      group = (JSON.parse(source.readFile(eventPath)) as { merge_group?: typeof group }).merge_group;
  } catch {
    group = undefined;
  }
  const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
  const headSha = text(group?.head_sha);
  const queueRef = QUEUE_REF.exec(text(group?.head_ref));
  const baseRef = text(group?.base_ref);
  return {
    headSha: /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(headSha) ? headSha.toLowerCase() : undefined,
    baseBranch: baseRef.replace(/^refs\/heads\//, '') || queueRef?.[1] || '',
    pullRequest: queueRef ? Number(queueRef[2]) : undefined,
  };
}
