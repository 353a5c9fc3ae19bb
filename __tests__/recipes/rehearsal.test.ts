/**
 * The local rehearsal as a user runs it (issue 33 item 3): `npm run recipe` runs a commit-status and
 * comment recipe as a pull request's workflow on the simulator's GitHub stand-in, and ends with the
 * pull request as GitHub would show it, with no warning.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from '../../testkit/runner/step.js';

const run = promisify(execFile);

test('npm run recipe of the ruleset recipe ends with the pull request’s checks, each success, and no warning', async () => {
  const { stdout } = await run(
    'npx',
    ['tsx', 'scripts/recipe/main.ts', 'run-workflow', 'PR gate with a status per remote job'],
    {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const view = stdout.slice(stdout.indexOf('The pull request, as GitHub would show it:'));
  expect(view).toMatch(/^Pull request #1 at http:\/\/127\.0\.0\.1:\d+\/_github\/acme\/app\/pull\/1 /m);
  for (const context of ['svc/e2e', 'svc/e2e/build_ios', 'svc/e2e/test'])
    expect(view).toMatch(
      new RegExp(`^  ✅ ${context.replace(/\//g, '\\/')}: success \\(Succeeded \\[svc:`, 'm'),
    );
  expect(stdout).not.toMatch(/Warning:/);
}, 120_000);

test('npm run recipe of the gate recipe leaves its sticky comment on the pull request, with no warning', async () => {
  const { stdout } = await run('npx', ['tsx', 'scripts/recipe/main.ts', 'run-workflow', 'PR gate'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  const view = stdout.slice(stdout.indexOf('The pull request, as GitHub would show it:'));
  expect(view).toMatch(
    / {2}by github-actions\[bot\]:\n {4}\*\*svc\*\* · Workflow run `e2e\.yml` · settings `[0-9a-f]{10}`: ✅ the step succeeded$/m,
  );
  expect(stdout).not.toMatch(/Warning:/);
}, 120_000);
