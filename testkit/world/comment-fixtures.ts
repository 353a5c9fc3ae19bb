/**
 * The pull-request comment's world, environment and gate, in both tiers (__tests__/github/pr-comment.test.ts,
 * __tests__/text/markdown-structure.test.ts and their cases in __tests__/e2e/runs-bundles.test.ts).
 * A helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import { join } from 'node:path';
import type { ActionRun, StepRunners } from '../runner/step.js';
import { createWorld, type World } from './world.js';
import { shortHash } from '../../src/github/comment-body.js';
import { createGitHubWorld, pullRequestOnHead, type GitHubWorld } from './github-world.js';

type Inputs = Record<string, string>;
type WorldOptions = Parameters<typeof createWorld>[1];

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
