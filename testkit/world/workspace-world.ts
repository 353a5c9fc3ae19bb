/**
 * A world beside a git workspace that is the project's repository, the job's checkout (not-found, dry-run,
 * workflow-file-check and their cases in __tests__/e2e/runs-bundles.test.ts).
 * A helper that runs a step takes the tier's runners (IN_PROCESS or BUNDLES) as its first parameter.
 */
import type { ActionRun, StepOptions, StepRunners } from '../runner/step.js';
import { createWorld, type World } from './world.js';
import { createGitWorkspace, type GitWorkspace } from './git-workspace.js';

type Inputs = Record<string, string>;
type WorldOptions = Parameters<typeof createWorld>[1];

// A job's workspace that is the project's repository (not-found, dry-run, workflow-file-check)

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
