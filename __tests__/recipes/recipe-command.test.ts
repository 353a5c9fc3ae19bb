/**
 * `npm run recipe` as a user types it (issue 32 item 4), run as `npm run recipe` runs it (tsx on
 * scripts/recipe/main.ts): a recipe named by its workflow `name:` or by its README heading, in any
 * case; an unknown sub-action or title gets "no such …" with the closest names; a call that runs
 * nothing exits 1; a snippet of steps asked for by name says it is one and how to try it. Outside a
 * terminal it ends saying that its addresses close with it; with `--keep` they answer until a signal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { chooseRecipe } from '../../testkit/docs/recipes.js';
import { ROOT } from '../../testkit/runner/step.js';

/** `npm run recipe -- ...args`: its exit code and what it printed. */
function recipe(...args: string[]): { code: number | null; out: string } {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join('scripts', 'recipe', 'main.ts'), ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    },
  );
  return { code: result.status, out: result.stdout + result.stderr };
}

describe('npm run recipe', () => {
  it('runs a recipe named by its README heading, in any case, as it runs one named by its workflow name', () => {
    const byHeading = chooseRecipe(['wait-for-run', 'DISPATCH IN ONE JOB, WAIT IN ANOTHER']);
    const byName = chooseRecipe(['wait-for-run', 'dispatch early, wait later']);
    expect('recipe' in byHeading && byHeading.recipe.title).toBe('Dispatch early, wait later');
    expect(byName).toEqual(byHeading);
    const run = recipe('wait-for-run', 'dispatch in one job, wait in another');
    expect(run.out).toContain(
      'Recipe "Dispatch early, wait later" (wait-for-run/README.md) against the simulator',
    );
    expect(run.out).toContain('job e2e: success');
    expect(run.code).toBe(0);
    // Not in a terminal and without --keep: it ends, saying that its addresses close with it.
    expect(run.out.trimEnd().split('\n').at(-1)).toBe(
      'The addresses above close with this command (its output is not a terminal). To keep them open until Ctrl-C: ' +
        'npm run recipe -- wait-for-run "dispatch in one job, wait in another" --keep',
    );
  });

  it('with --keep, its addresses answer until SIGTERM, then close, and it exits 0', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join('scripts', 'recipe', 'main.ts'),
        'wait-for-run',
        'Dispatch early, wait later',
        '--keep',
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const open = /The addresses above stay open until Ctrl-C; .*: (http:\/\/127\.0\.0\.1:\d+)\/\n/;
    let ended = false;
    void exited.then(() => (ended = true));
    try {
      while (!open.test(out) && !ended) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(out).toMatch(open);
      const simulator = open.exec(out)![1];
      const page = /^Pull request #1 at (\S+) /m.exec(out)![1];
      expect(page).toBe(`${simulator}/_github/acme/app/pull/1`);
      expect((await fetch(page, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect((await fetch(`${simulator}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out.trimEnd().split('\n').at(-1)).toBe(
        'SIGTERM received: closing the simulator and its addresses.',
      );
      await expect(fetch(page)).rejects.toThrow();
    } finally {
      if (!ended) child.kill('SIGKILL');
    }
  });

  it("runs a merge-queue recipe as a merge group's workflow and ends with the queue's view", () => {
    const waiting = recipe('run-workflow', 'Required on pull requests and in the merge queue');
    expect(waiting.code).toBe(0);
    const view = waiting.out.slice(waiting.out.indexOf('The pull request and its merge-queue entry'));
    expect(view).toMatch(/^In the merge queue, on the queue's commit [0-9a-f]{12}:$/m);
    expect(view).toMatch(/^ {2}✅ svc\/e2e: success \(Succeeded \[svc:/m);
    expect(view).toContain(
      "Every required context is success on the queue's commit (svc/e2e): the queue may merge it.",
    );
    // Holding no runner: pending on the queue's commit until a sync settles it.
    const leaving = recipe('sync-statuses', 'Required in the merge queue, holding no runner');
    expect(leaving.code).toBe(0);
    expect(leaving.out).toContain('Not yet mergeable by the queue: svc/e2e is pending.');
  });

  it('alone, lists the recipes and exits 1: it ran none', () => {
    const { code, out } = recipe();
    expect(code).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe(
      'npm run recipe -- <sub-action> "<recipe title or heading>" [n] runs one recipe; this call ran none. The recipes:',
    );
    expect(lines).toContain(
      '  npm run recipe -- wait-for-run "Dispatch early, wait later"   # Dispatch in one job, wait in another',
    );
    expect(lines).toContain(
      '  npm run recipe -- verify-webhook "Service webhook" 2   # Relaying and verifying webhooks',
    );
  });

  it('with a sub-action and no title, lists its recipes and exits 1', () => {
    const { code, out } = recipe('wait-for-run');
    expect(code).toBe(1);
    expect(out).toBe(
      'Name a recipe of wait-for-run to run; this call ran none.\n' +
        '  npm run recipe -- wait-for-run "Dispatch early, wait later"   # Dispatch in one job, wait in another\n',
    );
  });

  it('an unknown sub-action: "no such", the closest names, exit 1', () => {
    const { code, out } = recipe('run-workflw', 'PR gate');
    expect(code).toBe(1);
    expect(out).toMatch(/^No such sub-action "run-workflw": the closest are "run-workflow", /);
    expect(out).toContain('the sub-actions: root, run-workflow, start-device-session,');
  });

  it('an unknown title: "no such", the closest names, the recipes there, exit 1', () => {
    const { code, out } = recipe('wait-for-run', 'Dispach early');
    expect(code).toBe(1);
    expect(out).toBe(
      'No recipe "Dispach early" in wait-for-run/README.md: the closest are "Dispatch early, wait later", "Dispatch in one job, wait in another".\n' +
        'Its recipes:\n' +
        '  npm run recipe -- wait-for-run "Dispatch early, wait later"   # Dispatch in one job, wait in another\n',
    );
  });

  it('a snippet of steps asked for by name: says it is one and how to try it, exit 1', () => {
    const { code, out } = recipe('run-workflow', 'RUN-WORKFLOW');
    expect(code).toBe(1);
    expect(out.split('\n')[0]).toBe(
      '"run-workflow" in run-workflow/README.md is a snippet of steps, not a workflow or a job, so it does not run alone: ' +
        "put its steps in a job's `steps:` of a workflow of yours to try them, or run a recipe of run-workflow:",
    );
    expect(out).toContain('  npm run recipe -- run-workflow "PR gate"');
  });

  it('a number past the recipes of that name: says how many there are, exit 1', () => {
    const { code, out } = recipe('verify-webhook', 'Service webhook', '3');
    expect(code).toBe(1);
    expect(out).toBe(
      'verify-webhook/README.md has 2 recipes named "Service webhook": give a number from 1 to 2, not 3.\n',
    );
  });
});
