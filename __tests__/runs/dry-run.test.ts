/**
 * `dry-run: true` checks what it can without creating anything, each step run in process from the
 * sources (issue 32 item 2; a good address and token passes through the bundle, in
 * __tests__/e2e/runs-bundles.test.ts): two reads, of a run that cannot exist and of a run by an id
 * that is not a UUID, show whether the address answers as the service does and accepts the token; a
 * workflow file the checked-out commit
 * lacks fails; git is asked with GIT_NO_LAZY_FETCH=1 (nothing is fetched); and the summary lists
 * what was checked and what only a real dispatch can tell, as Markdown without literal backticks or
 * repeated sentences.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_PROCESS, type StepOptions } from '../../testkit/runner/in-process.js';
import { structure } from '../../testkit/docs/markdown-structure.js';
import { apiRequests, serviceRequests, type World } from '../../testkit/world/world.js';
import type { GitWorkspace } from '../../testkit/world/git-workspace.js';
import {
  closeWorkspaceWorld,
  createWorkspaceWorld,
  oneErrorOf,
  workspaceDryRun,
  type WorkspaceWorld,
} from '../../testkit/world/workspace-world.js';
import { ONE_BUILD as E2E } from '../../testkit/docs/workflows.js';

let fixture: WorkspaceWorld;
let world: World;
let workspace: GitWorkspace;
let api: Record<string, string>;
let scratch: string;
beforeAll(async () => {
  fixture = await createWorkspaceWorld({ 'e2e.yml': E2E });
  ({ world, workspace, api } = fixture);
  scratch = mkdtempSync(join(tmpdir(), 'svc-dry-run-'));
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await closeWorkspaceWorld(fixture);
});
beforeEach(() => world.sim.reset());

const dryRun = (inputs: Record<string, string>, options: StepOptions = {}) =>
  workspaceDryRun(IN_PROCESS, fixture, inputs, options);

/** The step's one error annotation, as GitHub shows it. */
const errorOf = oneErrorOf;

describe('the address and the token, by one read that creates nothing', () => {
  it.each([['a revoked token', () => 'svc_robot_revoked000000000000000', '401 Unauthorized']])(
    '%s fails, naming the token',
    async (_name, token, status) => {
      const result = await dryRun({ token: token() });
      expect(result.exitCode).toBe(1);
      const error = errorOf(result);
      expect(error).toContain(
        `Dry run: the service at ${world.sim.url} did not accept the token (\`token\`, or SVC_TOKEN): `,
      );
      expect(error).toContain(status);
      expect(error).toContain('Nothing was dispatched.');
      expect(result.stdout).not.toContain('The inputs are valid');
      expect(world.sim.runs()).toEqual([]);
    },
  );

  it.each([
    [403, 'FORBIDDEN', 'Permission denied (403 Forbidden)'],
    [400, 'UNAUTHORIZED_ERROR', 'the service received no access token (400 UNAUTHORIZED_ERROR)'],
  ])('a %s %s answer fails, naming the token', async (status, code, said) => {
    const body = JSON.stringify({ errors: [{ code, message: 'refused' }] });
    await answering(status, 'application/json', body, async (base) => {
      const error = errorOf(await dryRun({ 'base-url': base }));
      expect(error).toContain(
        `Dry run: the service at ${base} did not accept the token (\`token\`, or SVC_TOKEN): `,
      );
      expect(error).toContain(said);
    });
  });

  it.each([
    ['answers every path 404 as GitHub does', '', "the address is another server's"],
    [
      'has a path the service does not have',
      '/api',
      "the path /api of the base URL is not the service's, or the address is another server's",
    ],
  ])(
    "an address that %s passes the random id's read but not the read by an id that is not a UUID (the spec's 400)",
    async (_name, path, blamed) => {
      const body = JSON.stringify({
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
      });
      await answering(404, 'application/json; charset=utf-8', body, async (origin) => {
        const base = `${origin}${path}`;
        const result = await dryRun({ 'base-url': base });
        expect(result.exitCode).toBe(1);
        expect(errorOf(result)).toBe(
          `Dry run: \`base-url\` ${base} did not answer as the service does: it answered a read of a run by an id that is not a UUID with 404, where the service answers 400 (an id that is not a UUID): ${blamed}. Nothing was dispatched.`,
        );
      });
    },
  );

  it('the service passes both reads: 404 for a random id, 400 for an id that is not a UUID', async () => {
    const result = await dryRun({});
    expect(result.exitCode).toBe(0);
    const requests = serviceRequests(world.sim);
    expect(requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      expect.stringMatching(/^GET \/v2\/workflows\/runs\/[0-9a-f-]{36} 404$/),
      'GET /v2/workflows/runs/not-a-uuid 400',
    ]);
    expect(world.sim.runs()).toEqual([]);
  });

  it('an address that is not the service fails, naming base-url', async () => {
    await answering(404, 'text/html', '<html>Not here</html>', async (base) => {
      const result = await dryRun({ 'base-url': base });
      expect(result.exitCode).toBe(1);
      expect(errorOf(result)).toContain(`Dry run: \`base-url\` ${base} did not answer as the service does: `);
    });
  });
});

/** Runs `check` with the base URL of a server that answers every request with `status` and `body`. */
async function answering(
  status: number,
  type: string,
  body: string,
  check: (base: string) => Promise<void>,
): Promise<void> {
  const server: Server = createServer((_req, res) =>
    res.writeHead(status, { 'content-type': type }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await check(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.close();
  }
}

describe('the workflow file in the checked-out commit', () => {
  it('fails when the commit git-ref names has no such file, naming what it has', async () => {
    const result = await dryRun({ workflow: 'e2e-ios.yml' });
    expect(result.exitCode).toBe(1);
    expect(errorOf(result)).toContain(
      `Dry run: the workflow file is not in the commit git-ref names, so a dispatch would fail. In the workspace, commit ${workspace.headSha.slice(0, 12)} (the one git-ref names) has no .eas/workflows/e2e-ios.yml; its .eas/workflows/ holds e2e.yml. Check \`workflow\` and \`git-ref\`. Nothing was dispatched.`,
    );
    expect(apiRequests(world.sim)).toEqual([]);
  });

  it('reads git with GIT_NO_LAZY_FETCH=1: nothing is fetched', async () => {
    // A git in front of the real one that writes down what it was given.
    const bin = join(scratch, 'bin');
    const seen = join(scratch, 'git-calls');
    const realGit = process.env
      .PATH!.split(':')
      .map((dir) => join(dir, 'git'))
      .find((file) => {
        try {
          readFileSync(file);
          return true;
        } catch {
          return false;
        }
      })!;
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\necho "GIT_NO_LAZY_FETCH=$GIT_NO_LAZY_FETCH $*" >> '${seen}'\nexec '${realGit}' "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    const result = await dryRun({}, { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(result.exitCode).toBe(0);
    const calls = readFileSync(seen, 'utf8').trim().split('\n');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((call) => !call.startsWith('GIT_NO_LAZY_FETCH=1 '))).toEqual([]);

    // A workspace without a `.git` file or folder starts no git at all (a start-up a busy machine
    // may take seconds over), and says why the file was not checked.
    const empty = join(scratch, 'no-checkout');
    rmSync(empty, { recursive: true, force: true });
    mkdirSync(empty);
    rmSync(seen, { force: true });
    const noCheckout = await dryRun(
      {},
      { env: { PATH: `${bin}:${process.env.PATH}`, GITHUB_WORKSPACE: empty } },
    );
    expect(noCheckout.exitCode).toBe(0);
    expect(existsSync(seen)).toBe(false);
    expect(noCheckout.summary).toContain(`the workspace ${empty} is not a git repository`);
  });
});

test('a git-ref close to a branch of the checkout (mian): a warning annotation, not a line under "Not checked"; the dry run passes', async () => {
  const result = await dryRun({ 'git-ref': 'mian' });
  expect(result.exitCode).toBe(0);
  expect(
    result.annotations.filter((annotation) => annotation.kind === 'warning').map(({ text }) => text),
  ).toEqual([
    '`git-ref` mian is not a branch or tag of this checkout; did you mean `main`? (a checkout holds only what it fetched)',
  ]);
  const notChecked = structure(result.summary).paragraphs;
  expect(notChecked).toContain(
    'The workflow file: git-ref mian is not a branch or tag of this checkout (see the warning).',
  );
  expect(result.summary).not.toContain('Did you mean');
});

test('the summary lists what was checked and what only a real dispatch can tell, without literal backticks or repeats', async () => {
  // A workspace that is no repository: the workflow file and `jobs` are not checked, for one reason.
  const result = await dryRun({ jobs: 'build' }, { env: { GITHUB_WORKSPACE: scratch } });
  expect(result.exitCode).toBe(0);
  const shown = structure(result.summary);
  expect(shown.problems).toEqual([]);
  expect(shown.headings.map((heading) => heading.text)).toEqual([
    'Workflow run e2e.yml: 🧪 checked, not dispatched (dry-run)',
  ]);
  expect(shown.paragraphs).toEqual([
    'Checked',
    'The inputs are valid.',
    `The service at ${world.sim.url} answered a read of a run that does not exist (404) and a read by an id that is not a UUID (400) as the service does, so it accepted the token.`,
    'Not checked',
    `The workflow file: the workspace ${scratch} is not a git repository with a checked-out commit.`,
    'jobs (build) could not be checked before the dispatch (the workflow file was not checked). A dry run cannot check it otherwise; a checkout of the commit git-ref names (actions/checkout with ref: main) before this step lets it be checked before the dispatch.',
    `Only a real dispatch can tell whether project ${api['app-id']} (app-id) exists and the token may dispatch its workflows, and whether the repository linked to it has git-ref main and the workflow file on it.`,
  ]);
  // No sentence is said twice.
  expect(result.summary.split('is not a git repository')).toHaveLength(2);
});
