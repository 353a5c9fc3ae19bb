/**
 * A 404 in the service's own words means what the spec says it means, each step run in process from
 * the sources (issue 32 item 1): a dispatch's 404 is a Git ref the linked repository lacks or a
 * workflow file not on it, and names `git-ref` and `workflow` with what the job's checkout shows (a
 * workflow file named in another case: through the bundle, in __tests__/e2e/runs-bundles.test.ts);
 * a session create's 404 is a project that does not exist, and names `app-id`; none of them blames
 * the base URL, and none says "or this token cannot see it" (that is the spec's 403). A dispatch
 * for a project the token cannot reach is a 403 that names `app-id` and the token's access. A 400
 * shows every error entry the service sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { IN_PROCESS, runStep, type StepOptions } from '../../testkit/runner/in-process.js';
import { apiRequests, type World } from '../../testkit/world/world.js';
import type { GitWorkspace } from '../../testkit/world/git-workspace.js';
import {
  closeWorkspaceWorld,
  createWorkspaceWorld,
  oneErrorOf,
  workspaceDispatch,
  type WorkspaceWorld,
} from '../../testkit/world/workspace-world.js';
import { ONE_BUILD as E2E } from '../../testkit/docs/workflows.js';
import { structure } from '../../testkit/docs/markdown-structure.js';

const UNKNOWN = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

let fixture: WorkspaceWorld;
let world: World;
let workspace: GitWorkspace;
beforeAll(async () => {
  // The job's checkout, which is the project's repository too: E2E.yml and build.yml on main.
  fixture = await createWorkspaceWorld({ 'E2E.yml': E2E, 'build.yml': E2E });
  ({ world, workspace } = fixture);
});
afterAll(() => closeWorkspaceWorld(fixture));
beforeEach(() => world.sim.reset());

const dispatch = (inputs: Record<string, string>, options: StepOptions = {}) =>
  workspaceDispatch(IN_PROCESS, fixture, inputs, options);

/** The step's one error annotation, as GitHub shows it. */
const errorOf = oneErrorOf;

describe("a dispatch's 404 names git-ref and workflow, with what the workspace shows", () => {
  it('a workflow file not pushed: the folder it has instead', async () => {
    const result = await dispatch({ workflow: 'release.yml' });
    const error = errorOf(result);
    expect(error).toContain('its .eas/workflows/ holds E2E.yml, build.yml.');
    expect(error).not.toMatch(/base URL|only in case/);
  });

  it('a misspelt git-ref: neither a commit nor a branch of the workspace, and the branch it may mean', async () => {
    const result = await dispatch({ workflow: 'build.yml', 'git-ref': 'mian' });
    expect(result.exitCode).toBe(1);
    const error = errorOf(result);
    expect(error).toContain(
      'the Git ref mian (`git-ref`) does not exist in the repository linked to the project',
    );
    expect(error).toContain(
      `In the workspace, git-ref mian is neither a full commit SHA nor a branch or tag of the workspace, whose checked-out commit is ${workspace.headSha} (Did you mean \`main\`?).`,
    );
    expect(error).not.toContain('base URL');
  });
});

describe('session and run 404s, and the dispatch 403', () => {
  it("a session create's 404 names app-id, not the base URL", async () => {
    const result = await runStep('start-device-session', {
      inputs: { ...world.api, 'app-id': UNKNOWN, platform: 'ios' },
    });
    expect(result.exitCode).toBe(1);
    const error = errorOf(result);
    expect(error).toContain(
      `Not found (404): there is no project with the id ${UNKNOWN} that \`app-id\` gives`,
    );
    expect(error).not.toMatch(/base URL|cannot see/);
  });

  it('a dispatch for a project the token cannot reach: 403 naming app-id and the access of the token', async () => {
    const result = await dispatch({ 'app-id': UNKNOWN, workflow: 'build.yml' });
    expect(result.exitCode).toBe(1);
    expect(errorOf(result)).toContain(
      `Dispatching workflow build.yml failed: Permission denied (403 Forbidden); the token has no access to project ${UNKNOWN}: check \`app-id\`, and that the token`,
    );
    expect(world.sim.runs()).toEqual([]);
  });

  it.each([
    [
      'wait-for-run',
      { 'run-id': UNKNOWN },
      `Workflow run ${UNKNOWN} was not found (404): the service has no run with that id. Check \`run-id\`.`,
    ],
    [
      'stop-device-session',
      { 'session-id': UNKNOWN },
      `Device session ${UNKNOWN} was not found: the service has no session with that id (404: `,
    ],
    [
      'wait-for-device-session',
      { 'session-id': UNKNOWN },
      `Reading device session ${UNKNOWN} failed: Not found (404): there is no device session with that id`,
    ],
  ])(
    '%s of an id the service does not have: no such id, never "this token cannot see it"',
    async (action, inputs, said) => {
      const result = await runStep(action, {
        inputs: { ...world.api, 'poll-interval-seconds': '0.05', ...inputs },
      });
      expect(result.exitCode).toBe(1);
      expect(errorOf(result)).toContain(said);
      expect(result.stdout).not.toMatch(/cannot see it|not visible|base URL/);
    },
  );
});

test('a dispatch 404 behind a base URL with a path names base-url beside git-ref and workflow', async () => {
  // A gateway that serves other things under /api answers the dispatch with a 404 in the service's shape.
  const server: Server = createServer((_req, res) => {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ errors: [{ code: 'NOT_FOUND', message: 'Not found' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const result = await runStep('run-workflow', {
      inputs: { ...world.api, 'base-url': base, workflow: 'e2e.yml', 'git-ref': 'main' },
    });
    expect(result.exitCode).toBe(1);
    expect(errorOf(result)).toContain(
      "the Git ref main (`git-ref`) does not exist in the repository linked to the project, or the workflow file e2e.yml (`workflow`) is not on that ref, or the path /api of the base URL (`base-url`) is not the service's",
    );
  } finally {
    server.close();
  }
});

test('a 400 shows every error entry the service sent, not only the first', async () => {
  const server: Server = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        errors: [
          { code: 'VALIDATION_ERROR', message: 'inputs.profile must be one of preview, production' },
          { code: 'VALIDATION_ERROR', message: 'inputs.track is required' },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runStep('run-workflow', {
      inputs: { ...world.api, 'base-url': base, workflow: 'e2e.yml', 'git-ref': 'main' },
    });
    expect(result.exitCode).toBe(1);
    expect(errorOf(result)).toContain(
      'The service rejected the request (400 Bad Request) [VALIDATION_ERROR]: inputs.profile must be one of preview, production; inputs.track is required',
    );
    expect(apiRequests(world.sim)).toEqual([]);
  } finally {
    server.close();
  }
});

test('a long error in the summary is wrapped at its sentences, as the log wraps it', async () => {
  // Without a checkout the run is dispatched, and its jobs are checked once it is read.
  const result = await dispatch(
    { workflow: 'build.yml', jobs: 'nope', 'poll-interval-seconds': '0.05' },
    { env: { GITHUB_WORKSPACE: join(workspace.path, 'no-checkout') } },
  );
  expect(result.exitCode).toBe(1);
  const [run] = world.sim.runs();
  world.sim.cancelRun(run.id);
  const block = structure(result.summary).code.find((code) => code.quoted);
  expect(block?.content.split('\n').filter(Boolean)).toEqual([
    '`jobs` lists `nope`, which the run does not have; its jobs are: build.',
    `The run this step dispatched was started and goes on: ${run.url}`,
  ]);
});
