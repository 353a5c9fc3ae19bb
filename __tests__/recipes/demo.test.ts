/**
 * `npm run demo` as a user runs it (issue 41 items 3 and 4), run as `npm run demo` runs it (tsx on
 * scripts/demo/main.ts), with `--keep`: it shows the loop that holds no runner (a `wait: false`
 * dispatch, the pull request with its statuses pending, the run ending, sync-statuses, the pull request
 * with the final states), the comment link it prints opens the pull request's page at the comment, and
 * the addresses it printed answer until SIGINT, then close, and it exits 0. (Its path without `--keep`
 * outside a terminal is the recipe command's too: recipe-command.test.ts.)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../testkit/runner/step.js';

const STAY_OPEN = /The addresses above stay open until Ctrl-C; .*: (http:\/\/127\.0\.0\.1:\d+)\/\n/;

/** The text between the line that starts with `from` and the next line that starts with `to`. */
function section(out: string, from: string, to: string): string {
  const start = out.indexOf(`\n${from}`);
  expect(start).toBeGreaterThan(-1);
  const end = out.indexOf(`\n${to}`, start + 1);
  return out.slice(start, end === -1 ? undefined : end);
}

test('npm run demo -- --keep: the loop that holds no runner, a comment link that opens, pages open until SIGINT', async () => {
  const demo = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'demo', 'main.ts'), '--keep'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  demo.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  demo.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => demo.on('close', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  try {
    // No deadline of its own (Jest's timeout): the demo's run ends when it ends.
    while (!STAY_OPEN.test(out) && !ended) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(out).toMatch(STAY_OPEN);
    expect(out).not.toContain('Demo failed');
    const simulator = STAY_OPEN.exec(out)![1];

    // The loop: the dispatch that does not wait, pending statuses, the run's end, the sync, the final states.
    expect(out).toContain(
      '── A gate that holds no runner: sync-statuses/README.md\'s "PR gate that holds no runner" ──',
    );
    expect(out).toMatch(/^ {4}Not waiting for the run \(wait: false\)\./m);
    const pending = section(out, '── Pull request #2 once that gate has exited', '\nThe run ');
    const after = section(out, '── Pull request #2 after the sync', '\n── ');
    for (const context of ['svc/e2e', 'svc/e2e/build_ios', 'svc/e2e/e2e']) {
      expect(pending).toContain(`  ⏳ ${context}: pending (`);
      expect(after).toContain(`  ✅ ${context}: success (`);
    }
    expect(out).toMatch(
      /^The run [0-9a-f-]{36} ended: success, with no runner waiting for it; its statuses still read pending\.$/m,
    );
    expect(out).toMatch(/^ {4}Settled 3, left 0 pending, refused 0\.$/m);
    expect(pending).toContain(`Pull request #2 at ${simulator}/_github/acme/app/pull/2 `);

    // The comment link the gate printed opens the pull request's page at the comment, while the demo is open.
    const link = /Commented on pull request #1: (\S+)/.exec(out)?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^${simulator}/_github/acme/app/pull/1#issuecomment-\\d+$`));
    const comment = await fetch(link, { headers: { accept: 'text/html' } });
    expect(comment.status).toBe(200);
    expect(await comment.text()).toContain(`id="${new URL(link).hash.slice(1)}"`);
    const overview = await fetch(`${simulator}/`, { headers: { accept: 'text/html' } });
    expect(overview.status).toBe(200);
    const page = await overview.text();
    for (const path of ['/_github/acme/app/pull/1', '/_github/acme/app/pull/2'])
      expect(page).toContain(`href="${path}"`);

    demo.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'SIGINT received: closing the simulator and its addresses.',
    );
    await expect(fetch(`${simulator}/`)).rejects.toThrow();
  } finally {
    if (!ended) demo.kill('SIGKILL');
  }
}, 180_000);
