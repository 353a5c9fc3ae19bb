/**
 * A world beside GitHub's stand-in (the simulator's), with the event file of a pull request, and what
 * the run tests read of what GitHub received: statuses, warnings.
 * A helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionRun } from '../runner/step.js';
import { createWorld, until, type World } from './world.js';
import { DEFAULT_LIMITS, GitHubStandIn, type PostedStatus, type WorkflowRun } from '../../simulator/index.js';

type WorldOptions = Parameters<typeof createWorld>[1];

// A world beside GitHub's stand-in, with the event file of a pull request.

/** A world, GitHub's stand-in (the simulator's) and `dir`, which holds the event file (event.json). */
export interface GitHubWorld {
  world: World;
  github: GitHubStandIn;
  dir: string;
}

/**
 * A world with `workflows`, GitHub's stand-in started, and in a new folder named from `prefix` the
 * event file `event(world)` says. `options.github` is GitHub's world (simulator/github/settings.ts),
 * given to this stand-in and the simulator's: its tokens, public repositories, limits, and its clock
 * (`now: () => clock.now()` shares an in-process step's VirtualClock, so that the limits' windows
 * pass with the step's time).
 */
export async function createGitHubWorld(
  workflows: Record<string, string>,
  options: WorldOptions,
  prefix: string,
  event: (world: World) => unknown,
): Promise<GitHubWorld> {
  const world = await createWorld(workflows, options);
  const github = new GitHubStandIn('', options?.github);
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

/**
 * What each commit-statuses case starts from: the simulator reset, nothing posted, GitHub answering
 * with its rate-limit windows afresh (the cases of one file share a repository, and GitHub's 80
 * writes a minute would otherwise count the previous cases' posts).
 */
export function resetStatusesWorld({ world, github }: GitHubWorld): void {
  world.sim.reset();
  github.configure({ limits: DEFAULT_LIMITS });
  github.resetLimits();
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

/** A description's words, without the marker every status ends with (`[svc:…]`, either form). */
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
