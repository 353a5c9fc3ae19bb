/** Throw-away git repositories holding `.eas/workflows/*.yml` files, for tests, the demo and the CLI. */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Identity and settings passed on every call, so no global git configuration is needed. */
const GIT_CONFIG = [
  '-c',
  'user.name=sim',
  '-c',
  'user.email=sim@example.invalid',
  '-c',
  'init.defaultBranch=main',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'tag.gpgsign=false',
  '-c',
  'core.hooksPath=/dev/null',
];

function git(dir: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...GIT_CONFIG, ...args],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`git ${args[0]}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

export const SAMPLE_WORKFLOW = `name: End-to-end tests
on:
  workflow_dispatch:
    inputs:
      profile:
        type: choice
        options: [preview, production]
        default: preview
        description: Build profile
      run_tests:
        type: boolean
        default: true
jobs:
  build_android:
    name: Build Android
    type: build
    params:
      platform: android
      profile: \${{ inputs.profile }}
    outputs:
      profile: \${{ inputs.profile }}
  e2e:
    name: End-to-end tests
    needs: [build_android]
    steps:
      - run: echo testing
`;

/**
 * Writes `files` and commits them. Keys are file names under `.eas/workflows/`, or paths relative to the
 * repository root when they contain a `/`. Returns the new commit's SHA.
 */
export async function commitFiles(
  dir: string,
  files: Record<string, string>,
  message = 'Update workflows',
): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    const path = name.includes('/') ? join(dir, name) : join(dir, '.eas', 'workflows', name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '--allow-empty', '-q', '-m', message]);
  return (await git(dir, ['rev-parse', 'HEAD'])).trim();
}

export interface WorkflowRepo {
  path: string;
  /** SHA of the commit that `main` and `v1` point to. */
  headSha: string;
}

/**
 * `git init` in `dir` (created if needed), one commit with the workflow files on branch `main`, and an
 * annotated tag `v1` on it.
 */
export async function makeWorkflowRepo(
  dir: string,
  files: Record<string, string>,
  message = 'Add workflows\n\nCreated by the simulator fixture.',
): Promise<WorkflowRepo> {
  await mkdir(dir, { recursive: true });
  await git(dir, ['init', '-q']);
  const headSha = await commitFiles(dir, files, message);
  await git(dir, ['branch', '-M', 'main']);
  await git(dir, ['tag', '-a', 'v1', '-m', 'v1']);
  return { path: dir, headSha };
}

/** `makeWorkflowRepo` in a fresh directory under the OS temp dir. */
export async function makeTempWorkflowRepo(
  files: Record<string, string> = { 'e2e.yml': SAMPLE_WORKFLOW },
): Promise<WorkflowRepo> {
  return makeWorkflowRepo(await mkdtemp(join(tmpdir(), 'svc-sim-repo-')), files);
}
