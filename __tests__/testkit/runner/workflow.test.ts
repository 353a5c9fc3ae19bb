/**
 * The workflow engine keeps the runner's rules that the recipes rely on: masking across the job's
 * steps, a matrix run once per combination, a temporary directory of each job's own.
 */
import { describe, expect, it } from '@jest/globals';
import { runWorkflow } from '../../../testkit/runner/workflow.js';

const SECRET = 'engine-secret-value-0123456789';

describe('the workflow engine', () => {
  it("masks the workflow's secrets and every add-mask value in the later steps of the job", async () => {
    const result = await runWorkflow(
      `runs-on: ubuntu-latest
steps:
  - run: echo "token $TOKEN"
    env:
      TOKEN: \${{ secrets.TOKEN }}
  - run: echo "::add-mask::registered-earlier-42" && echo "registered-earlier-42 in its own step"
  - run: 'echo "later: registered-earlier-42"'
`,
      { secrets: { TOKEN: SECRET } },
    );
    const logs = result.jobs.recipe.steps.map((step) => step.log);
    expect(logs).toEqual(['token ***', '*** in its own step', 'later: ***']);
  });

  it('runs a matrix job once per combination: the product less exclude, then include', async () => {
    const result = await runWorkflow(`name: m
on: push
jobs:
  m:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        os: [a, b]
        n: [1, 2]
        exclude:
          - { os: b, n: 2 }
        include:
          - { os: a, n: 1, extra: x }
          - { os: c, n: 3 }
    steps:
      - run: echo "\${{ matrix.os }}-\${{ matrix.n }}-\${{ matrix.extra }}"
`);
    expect(result.jobs.m.steps.map((step) => step.log)).toEqual(['a-1-x', 'a-2-', 'b-1-', 'c-3-']);
    expect(result.jobs.m.result).toBe('success');
  });

  it('fail-fast, the default, starts no combination after a failed one; fail-fast: false runs them all', async () => {
    const matrixJob = (failFast: string): string => `name: f
on: push
jobs:
  m:
    runs-on: ubuntu-latest
    strategy:
      ${failFast}
      matrix:
        n: [1, 2, 3]
    steps:
      - run: echo "run \${{ matrix.n }}" && test "\${{ matrix.n }}" != 2
`;
    const fast = await runWorkflow(matrixJob(''));
    expect(fast.jobs.m.steps.map((step) => step.log)).toEqual(['run 1', 'run 2']);
    expect(fast.jobs.m.result).toBe('failure');
    const all = await runWorkflow(matrixJob('fail-fast: false'));
    expect(all.jobs.m.steps.map((step) => step.log)).toEqual(['run 1', 'run 2', 'run 3']);
    expect(all.jobs.m.result).toBe('failure');
  });

  it('gives each job its own RUNNER_TEMP, and a failed matrix run fails the job', async () => {
    const result = await runWorkflow(`name: t
on: push
jobs:
  one:
    runs-on: ubuntu-latest
    steps:
      - run: echo "$RUNNER_TEMP"
  two:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        ok: [yes, no]
    steps:
      - run: echo "$RUNNER_TEMP" && test "\${{ matrix.ok }}" = yes
`);
    const temps = [result.jobs.one, result.jobs.two].flatMap((job) => job.steps.map((step) => step.log));
    expect(new Set(temps).size).toBe(3);
    expect(result.jobs.two.result).toBe('failure');
  });

  it('keeps 10 annotations of a kind per step and 50 per job; the rest are dropped as the runner drops them', async () => {
    const errors = (n: number): string => `for i in $(seq 1 ${n}); do echo "::error::e$i"; done`;
    const steps = Array.from({ length: 6 }, () => `  - run: '${errors(12)}'`).join('\n');
    const result = await runWorkflow(
      `runs-on: ubuntu-latest\nsteps:\n${steps}\n  - run: echo "::warning::late"\n`,
    );
    const counts = result.jobs.recipe.steps.map((step) => step.annotations.length);
    expect(counts).toEqual([10, 10, 10, 10, 10, 0, 0]);
    expect(result.jobs.recipe.steps[0].annotations.at(-1)).toEqual({ kind: 'error', message: 'e10' });
    // The log shows every line: only the annotations are limited.
    expect(result.jobs.recipe.steps[0].log.split('\n')).toHaveLength(12);
  });

  it('drops a job output that holds a masked value, as the runner does', async () => {
    const result = await runWorkflow(
      `name: o
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    outputs:
      plain: \${{ steps.s.outputs.plain }}
      secret: \${{ steps.s.outputs.secret }}
    steps:
      - id: s
        run: |
          echo "::add-mask::masked-value-123"
          echo "plain=visible" >> "$GITHUB_OUTPUT"
          echo "secret=masked-value-123" >> "$GITHUB_OUTPUT"
`,
    );
    expect(result.jobs.a.outputs).toEqual({ plain: 'visible' });
  });

  it("reads the runner's file commands: GITHUB_ENV and GITHUB_PATH reach the later steps, GITHUB_OUTPUT the steps context", async () => {
    const result = await runWorkflow(`runs-on: ubuntu-latest
steps:
  - id: first
    run: |
      echo "GREETING=hello" >> "$GITHUB_ENV"
      echo "/opt/first-tool/bin" >> "$GITHUB_PATH"
      echo "answer=42" >> "$GITHUB_OUTPUT"
  - run: 'echo "$GREETING \${{ steps.first.outputs.answer }} \${PATH%%:*}"'
`);
    expect(result.jobs.recipe.steps[1].log).toBe('hello 42 /opt/first-tool/bin');
  });
});
