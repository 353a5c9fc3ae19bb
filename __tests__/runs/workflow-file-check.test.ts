/**
 * run-workflow's check before the dispatch, each step run in process from the sources: when the
 * workspace (GITHUB_WORKSPACE) holds the commit being dispatched, `inputs` and `jobs` are checked
 * against its `.eas/workflows/<workflow>` and refused before any request, naming what the file
 * declares (through the bundle, in __tests__/e2e/runs-bundles.test.ts). A file the check cannot use
 * (another commit, no repository, unparsable) is left to the service, with a debug line that says
 * why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_PROCESS, type StepOptions } from '../../testkit/runner/in-process.js';
import { apiRequests, until, type World } from '../../testkit/world/world.js';
import type { GitWorkspace } from '../../testkit/world/git-workspace.js';
import {
  CHECKED_GATE as GATE,
  checkedDispatch,
  closeWorkspaceWorld,
  createWorkspaceWorld,
  type WorkspaceWorld,
} from '../../testkit/world/workspace-world.js';

/** The same workflow on branch \`next\`, without its submit job. */
const GATE_NEXT = GATE.replace(/ {2}submit:[\s\S]*$/, '');

const PLAIN = `name: Plain
on: workflow_dispatch
jobs:
  test:
    steps:
      - run: npm test
`;

let fixture: WorkspaceWorld;
let world: World;
/** The job's checkout, which the project's repository on the simulator is too (the check needs git). */
let workspace: GitWorkspace;
let nextSha: string;
let notARepository: string;
beforeAll(async () => {
  fixture = await createWorkspaceWorld(
    { 'gate.yml': GATE, 'plain.yml': PLAIN, 'broken.yml': 'jobs: [unclosed\n' },
    { defaultJobDurationMs: 10 },
    (checkout) => {
      nextSha = checkout.commitOnBranch('next', { 'gate.yml': GATE_NEXT }, 'Drop submit');
    },
  );
  ({ world, workspace } = fixture);
  notARepository = mkdtempSync(join(tmpdir(), 'svc-e2e-workspace-'));
});
afterAll(async () => {
  rmSync(notARepository, { recursive: true, force: true });
  await closeWorkspaceWorld(fixture);
});
beforeEach(() => world.sim.reset());

/** run-workflow in a job whose workspace is a checkout of the project's repository at main. */
const dispatch = (inputs: Record<string, string>, options: StepOptions = {}) =>
  checkedDispatch(IN_PROCESS, fixture, inputs, options);

describe('run-workflow checks inputs and jobs against the workspace before dispatching', () => {
  it('dispatches what the file accepts, by SHA or by the branch checked out, saying it checked', async () => {
    const [bySha, byBranch] = await Promise.all([
      dispatch({ inputs: 'track: beta\nretries: "3"\ndry: true', jobs: 'type:build, type:submission' }),
      dispatch({ 'git-ref': 'main', jobs: 'submit' }),
    ]);
    for (const result of [bySha, byBranch]) {
      expect(result.exitCode).toBe(0);
      expect(result.outputs.outcome).toBe('success');
      expect(result.stdout).toContain(
        `Checked inputs and jobs against .eas/workflows/gate.yml at ${workspace.headSha.slice(0, 12)} in the workspace.`,
      );
    }
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toHaveLength(2);
  });

  it('checks a full SHA the workspace has even when it is not checked out, and job types', async () => {
    const [atNext, noBuilds] = await Promise.all([
      dispatch({ 'git-ref': nextSha, jobs: 'submit' }),
      dispatch({ workflow: 'plain.yml', inputs: '', jobs: 'type:build' }),
    ]);
    expect(atNext.exitCode).toBe(1);
    expect(atNext.errors).toEqual([
      expect.stringContaining(
        `Not dispatched: the workflow file .eas/workflows/gate.yml at ${nextSha.slice(0, 12)} (in the workspace, the commit git-ref names) does not accept this dispatch. \`jobs\` lists \`submit\`, which the workflow does not have; its jobs are: build_ios, build_android.`,
      ),
    ]);
    expect(noBuilds.exitCode).toBe(1);
    expect(noBuilds.stdout).toContain(
      '`jobs` lists `type:build`, but no job of the workflow is of that type (`type: build` in the file); its jobs are: test.',
    );
    expect(apiRequests(world.sim)).toEqual([]);
  });

  it('leaves to the service a branch not checked out, no git, a file absent or unparsable', async () => {
    world.sim.setJobBehaviour('build_ios', { durationMs: 60_000 });
    const [otherBranch, noGit, broken, absent] = await Promise.all([
      dispatch({ 'git-ref': 'next', jobs: 'submit' }),
      dispatch({ inputs: 'profle: preview' }, { env: { GITHUB_WORKSPACE: notARepository } }),
      dispatch({ workflow: 'broken.yml', inputs: '' }),
      dispatch({ workflow: 'absent.yml' }),
    ]);
    // Each was dispatched: the service decided.
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toHaveLength(4);

    expect(otherBranch.stdout).toMatch(
      /::debug::Not checked against the workspace's workflow file before the dispatch: refs\/heads\/next is not the workspace's checked-out commit/,
    );
    // The run lacks `submit` at that commit: found after the dispatch, the message says the run goes on.
    expect(otherBranch.exitCode).toBe(1);
    const [run] = world.sim.runs();
    expect(otherBranch.errors).toEqual([
      expect.stringContaining(
        `\`jobs\` lists \`submit\`, which the run does not have; its jobs are: build_ios, build_android. The run this step dispatched was started and goes on: ${run.url}`,
      ),
    ]);
    world.sim.cancelRun(run.id);

    expect(noGit.stdout).toContain(
      `::debug::Not checked against the workspace's workflow file before the dispatch: the workspace ${notARepository} is not a git repository`,
    );
    expect(noGit.exitCode).toBe(1);
    expect(noGit.errors).toEqual([
      expect.stringMatching(/^Dispatching workflow gate\.yml failed: The service rejected the request \(400/),
    ]);

    expect(broken.stdout).toMatch(
      /::debug::Not checked .*\.eas\/workflows\/broken\.yml at [0-9a-f]{12} cannot be parsed/,
    );
    expect(broken.exitCode).toBe(1);
    expect(broken.errors).toEqual([
      expect.stringMatching(/^Dispatching workflow broken\.yml failed: The service rejected/),
    ]);

    expect(absent.stdout).toContain(
      `::debug::Not checked against the workspace's workflow file before the dispatch: .eas/workflows/absent.yml is not in the workspace's commit ${workspace.headSha}`,
    );
    expect(absent.errors).toEqual([
      expect.stringMatching(/^Dispatching workflow absent\.yml failed: Not found \(404\)/),
    ]);
  });
});

describe('run-workflow: `jobs` in the service words, what was not checked, and dry-run', () => {
  it('refuses a `type:` that no job of the file can match, with the service word for `type: submit`', async () => {
    const [submit, builds] = await Promise.all([
      dispatch({ jobs: 'type:submit' }),
      dispatch({ jobs: 'build_ios, type:builds' }),
    ]);
    expect(submit.exitCode).toBe(1);
    expect(submit.outputs.outcome).toBe('failure');
    expect(submit.stdout).toContain(
      '`jobs` lists `type:submit`, but the service calls the jobs of `type: submit` `submission`: write `type:submission`.',
    );
    // Every job of gate.yml is a build or a submission: no job can be reported as `builds`.
    expect(builds.exitCode).toBe(1);
    expect(builds.stdout).toContain(
      '`jobs` lists `type:builds`, but no job of the workflow is of that type; its jobs are: build_ios (type: build), build_android (type: build), submit (type: submit).',
    );
    expect(apiRequests(world.sim)).toEqual([]);
  });

  it('says once, not per read, that `jobs` could not be checked and what would let it be', async () => {
    // The build runs until the test ends it, once the step has read the run twice.
    world.sim.setJobBehaviour('build_ios', { durationMs: 600_000 });
    const pending = dispatch({ jobs: 'build_ios' }, { env: { GITHUB_WORKSPACE: notARepository } });
    const reads = () => apiRequests(world.sim).filter((line) => line.startsWith('GET')).length;
    await until(() => reads() >= 2);
    world.sim.finishJob(world.sim.runs()[0].id, 'build_ios');
    const result = await pending;
    expect(result.exitCode).toBe(0);
    const said = `\`jobs\` (build_ios) could not be checked before the dispatch: the workspace ${notARepository} is not a git repository with a checked-out commit. It is checked against the run's jobs once the run is read; a checkout of the commit git-ref names (actions/checkout with \`ref: ${workspace.headSha}\`) before this step lets it be checked before the dispatch.`;
    expect(result.stdout.split(said)).toHaveLength(2);
    // Several reads happened after it.
    expect(apiRequests(world.sim).filter((line) => line.startsWith('GET')).length).toBeGreaterThan(1);
    // With every `jobs` entry checked, the log says so.
    world.sim.clearJobBehaviour('build_ios');
    const checked = await dispatch({ jobs: 'type:submission' });
    expect(checked.stdout).toContain('Checked inputs and jobs against .eas/workflows/gate.yml');
    expect(checked.stdout).not.toContain('could not be checked');
  });

  it('dry-run: every check, then outcome dry-run, two reads and nothing created', async () => {
    const [good, badJobs, unchecked] = await Promise.all([
      dispatch({ 'dry-run': 'true', jobs: 'type:build' }),
      dispatch({ 'dry-run': 'true', jobs: 'type:submit' }),
      dispatch({ 'dry-run': 'true', jobs: 'build_ios' }, { env: { GITHUB_WORKSPACE: notARepository } }),
    ]);
    const sha = workspace.headSha;
    expect(good.exitCode).toBe(0);
    expect(good.outputs).toEqual({ outcome: 'dry-run' });
    expect(good.stdout).toContain(
      `Dry run: nothing was dispatched, and nothing was written to GitHub (no commit status, no pull request comment). Checked: The inputs are valid. git-ref ${sha} is commit ${sha} in the workspace. .eas/workflows/gate.yml at ${sha.slice(0, 12)} accepts the inputs and jobs. The service at ${world.sim.url} answered a read of a run that does not exist (404) and a read by an id that is not a UUID (400) as the service does, so it accepted the token. Not checked: Only a real dispatch can tell`,
    );
    expect(good.summary).toMatch(/### Workflow run gate\\?\.yml: 🧪 checked, not dispatched \(`dry-run`\)/);

    expect(badJobs.exitCode).toBe(1);
    expect(badJobs.outputs).toEqual({ outcome: 'failure' });
    expect(badJobs.stdout).toContain('write `type:submission`');

    expect(unchecked.exitCode).toBe(0);
    expect(unchecked.outputs).toEqual({ outcome: 'dry-run' });
    expect(unchecked.stdout).toContain(
      `\`jobs\` (build_ios) could not be checked before the dispatch: the workspace ${notARepository} is not a git repository with a checked-out commit. A dry run cannot check it otherwise; a checkout of the commit git-ref names`,
    );
    // Nothing was created: two reads of runs that do not exist per passing step, no dispatch.
    expect(apiRequests(world.sim).filter((line) => line.startsWith('POST'))).toEqual([]);
    expect(apiRequests(world.sim).filter((line) => line.startsWith('GET'))).toHaveLength(4);
    expect(world.sim.runs()).toEqual([]);
  });
});
