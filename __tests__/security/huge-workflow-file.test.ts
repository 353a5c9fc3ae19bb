/**
 * The workflow file a pull request's author writes is read by run-workflow's check before the
 * dispatch: its work is bounded whatever the file holds (parsed without duplicate-key checking,
 * which was quadratic in the keys of a mapping; at most 100,000 nodes examined), and the deadline
 * is checked before anything is dispatched. Run in process from the sources. Through the bundle, in
 * __tests__/e2e/security/runs-bundles.test.ts: a file of 105,000 keys (with `dry-run: true`, so the
 * simulator never reads the file), and the cancellation (SIGINT, which needs a process of the
 * step's own) during the check.
 *
 * Nothing here asserts a duration: Jest's time limit is only a safety net (in process, a step is
 * not killed). The figures are in `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStep, type StepOptions } from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, until, type World } from '../../testkit/world/world.js';
import { createGitWorkspace, type GitWorkspace } from '../../testkit/world/git-workspace.js';

/** A mapping of `count` keys on one line (`{k0: 1,k1: 1,…}`): 105,000 of them make about 0.9 MB. */
const manyKeys = (count: number): string =>
  `{${Array.from({ length: count }, (_, i) => `k${i.toString(36)}: 1`).join(',')}}`;

/** 30,000 keys in one mapping and a job key written twice: checked (the service judges duplicates). */
const DUPLICATES = `name: Dupes\non: workflow_dispatch\njobs:\n  build:\n    type: build\n    env: ${manyKeys(30_000)}\n  build:\n    type: build\n`;
const SMALL = 'name: Small\non: workflow_dispatch\njobs:\n  build:\n    type: build\n';

let world: World;
let workspace: GitWorkspace;
let api: Record<string, string>;
/** A `git` first on PATH that waits, on its first call, until the test lets it go (a slow check). */
let slowGit: string;
beforeAll(async () => {
  workspace = createGitWorkspace({ 'dupes.yml': DUPLICATES, 'small.yml': SMALL });
  world = await createWorld({}, { defaultJobDurationMs: 10 });
  const project = world.sim.addProject({ account: world.account, repoPath: workspace.path, name: 'huge' });
  api = { ...world.api, 'app-id': project.id };
  slowGit = mkdtempSync(join(tmpdir(), 'svc-slow-git-'));
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(slowGit, 'git'),
    `#!/bin/sh\n[ -e "$SLOW_GIT/started" ] || touch "$SLOW_GIT/started"\nwhile [ ! -e "$SLOW_GIT/go" ]; do sleep 0.05; done\nexec ${realGit} "$@"\n`,
  );
  chmodSync(join(slowGit, 'git'), 0o755);
});
afterAll(async () => {
  workspace.remove();
  rmSync(slowGit, { recursive: true, force: true });
  await world.sim.close();
});
beforeEach(() => world.sim.reset());

function dispatch(inputs: Record<string, string>, options: StepOptions = {}) {
  return runStep('run-workflow', {
    ...options,
    env: { GITHUB_WORKSPACE: workspace.path, ...options.env },
    inputs: {
      ...api,
      'git-ref': workspace.headSha,
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}

describe('a huge workflow file in the workspace', () => {
  it('30,000 keys and a duplicate job key: checked, and a job it does not have refused before any request', async () => {
    const result = await dispatch({ workflow: 'dupes.yml', jobs: 'build_web' });
    expect(result.signal).toBeNull();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      '`jobs` lists `build_web`, which the workflow does not have; its jobs are: build.',
    );
    expect(apiRequests(world.sim)).toEqual([]);
  });
});

describe('run-workflow checks the deadline and the cancellation before it dispatches', () => {
  /** run-workflow whose check waits in git until `whileWaiting` has ended. */
  async function slowCheck(inputs: Record<string, string>, whileWaiting: () => Promise<void>) {
    const gate = mkdtempSync(join(tmpdir(), 'svc-slow-git-gate-'));
    const pending = dispatch(
      { workflow: 'small.yml', ...inputs },
      { env: { PATH: `${slowGit}:${process.env.PATH ?? ''}`, SLOW_GIT: gate } },
    );
    await until(() => existsSync(join(gate, 'started')), 20_000);
    await whileWaiting();
    writeFileSync(join(gate, 'go'), '');
    const result = await pending;
    rmSync(gate, { recursive: true, force: true });
    return result;
  }

  it('timeout-minutes reached during the check: nothing is dispatched, outcome timed-out', async () => {
    // 0.001 minutes, 60 ms: certainly past once the check has waited 200 ms.
    const result = await slowCheck(
      { 'timeout-minutes': '0.001' },
      () => new Promise((resolve) => setTimeout(resolve, 200)),
    );
    expect(result.exitCode).toBe(1);
    expect(result.outputs.outcome).toBe('timed-out');
    expect(result.errors).toEqual([
      'timeout-minutes (0.001) was reached before the dispatch, while the workflow file was checked: nothing was dispatched.',
    ]);
    expect(apiRequests(world.sim)).toEqual([]);
  });
});
