import { afterEach, describe, expect, it } from '@jest/globals';
import { MemoryRepo } from '../../simulator/index.js';
import { call, errorMessages, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

const WITH_INPUTS = `on:
  workflow_dispatch:
    inputs:
      name:
        type: string
        required: true
      flag:
        type: boolean
        default: false
      count:
        type: number
      color:
        type: choice
        options: [red, green]
        default: red
      env:
        type: environment
      note:
        description: untyped means string
jobs:
  echo:
    outputs:
      summary: "\${{ inputs.name }}|\${{ inputs.flag }}|\${{ inputs.count }}|\${{ inputs.color }}|\${{ inputs.env }}"
      secret: "\${{ secrets.API_TOKEN }}"
    steps:
      - run: echo hi
`;

/** Two commits: the first on `feature/x` and tagged `v1`, the second (more files) on `main`. */
const REPO = new MemoryRepo({ 'ci.yml': ONE_BUILD, 'inputs.yml': WITH_INPUTS, 'broken.yml': 'jobs: [' });
const firstSha = REPO.headSha;
const secondSha = REPO.commit(
  { 'later.yml': ONE_BUILD, 'cycle.yml': 'jobs:\n  a: { needs: b }\n  b: { needs: a }\n' },
  'Second commit\n\nWith a body line.',
);
REPO.branch('feature/x', firstSha);

let w: World;

afterEach(async () => {
  await w?.sim.close();
});

async function dispatch(body: Record<string, unknown>) {
  return call(w.sim, 'POST', '/v2/workflows/dispatch', {
    token: w.token,
    body: { appId: w.project.id, ...body },
  });
}

describe('POST /v2/workflows/dispatch: git refs and files', () => {
  it.each([
    ['main', () => secondSha, () => 'refs/heads/main'],
    ['feature/x', () => firstSha, () => 'refs/heads/feature/x'],
    ['v1', () => firstSha, () => 'refs/tags/v1'],
    ['refs/heads/main', () => secondSha, () => 'refs/heads/main'],
    ['refs/tags/v1', () => firstSha, () => 'refs/tags/v1'],
  ])('gitRef %s resolves', async (gitRef, sha, qualified) => {
    w = await createWorld(REPO);
    const reply = await dispatch({ gitRef, fileName: 'ci.yml' });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: expect.stringContaining(reply.json.data.id),
    });
    const run = await call(w.sim, 'GET', `/v2/workflows/runs/${reply.json.data.id}`, { token: w.token });
    expect(run.json.data.gitCommitHash).toBe(sha());
    expect(run.json.data.requestedGitRef).toBe(qualified());
    expect(run.json.data.triggerEventType).toBe('MANUAL');
  });

  it('full and abbreviated SHAs resolve to the full SHA', async () => {
    w = await createWorld(REPO);
    for (const gitRef of [firstSha, firstSha.slice(0, 7), firstSha.toUpperCase()]) {
      const reply = await dispatch({ gitRef, fileName: 'ci.yml' });
      expect(reply.status).toBe(200);
      const run = w.sim.getRun(reply.json.data.id)!;
      expect(run.gitCommitHash).toBe(firstSha);
      expect(run.requestedGitRef).toBe(firstSha);
    }
  });

  it('gitCommitMessage is the commit subject and body', async () => {
    w = await createWorld(REPO);
    const reply = await dispatch({ gitRef: 'main', fileName: 'ci.yml' });
    expect(w.sim.getRun(reply.json.data.id)!.gitCommitMessage).toBe('Second commit\n\nWith a body line.');
  });

  it.each(['nope', 'main~1', 'main^', 'HEAD', 'refs/heads/nope', 'deadbeef'])(
    'missing ref %s → 404 naming gitRef',
    async (gitRef) => {
      w = await createWorld(REPO);
      const reply = await dispatch({ gitRef, fileName: 'ci.yml' });
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toMatch(/gitRef/);
      expect(w.sim.runs()).toHaveLength(0);
    },
  );

  it('a ref starting with "-" → 400 (never read as an option)', async () => {
    w = await createWorld(REPO);
    const reply = await dispatch({ gitRef: '--output=/tmp/x', fileName: 'ci.yml' });
    expect(reply.status).toBe(400);
    expect(errorMessages(reply)).toMatch(/gitRef/);
  });

  it('file missing on that ref → 404; present on another ref → 200', async () => {
    w = await createWorld(REPO);
    const missing = await dispatch({ gitRef: 'v1', fileName: 'later.yml' });
    expect(missing.status).toBe(404);
    expect(errorMessages(missing)).toMatch(/later\.yml.*not found/);
    expect((await dispatch({ gitRef: 'main', fileName: 'later.yml' })).status).toBe(200);
    expect((await dispatch({ gitRef: 'main', fileName: 'nothing.yml' })).status).toBe(404);
  });

  it.each([
    ['.eas/workflows/ci.yml', /fileName.*file name only/],
    ['sub/ci.yml', /fileName.*file name only/],
    ['..\\ci.yml', /fileName.*file name only/],
    ['..ci.yml', /fileName.*file name only/],
    ['ci.txt', /fileName must end in \.yml or \.yaml/],
    ['', /fileName must be a non-empty string/],
  ])('fileName %j → 400', async (fileName, message) => {
    w = await createWorld(REPO);
    const reply = await dispatch({ gitRef: 'main', fileName });
    expect(reply.status).toBe(400);
    expect(errorMessages(reply)).toMatch(message);
  });

  it('missing or mistyped body fields → 400 naming each field', async () => {
    w = await createWorld(REPO);
    const reply = await call(w.sim, 'POST', '/v2/workflows/dispatch', {
      token: w.token,
      body: { gitRef: 3, inputs: [] },
    });
    expect(reply.status).toBe(400);
    const text = errorMessages(reply);
    expect(text).toMatch(/appId is required/);
    expect(text).toMatch(/gitRef must be a non-empty string/);
    expect(text).toMatch(/fileName is required/);
    expect(text).toMatch(/inputs must be an object/);
  });

  it('an invalid workflow file → 400 naming the file', async () => {
    w = await createWorld(REPO);
    const broken = await dispatch({ gitRef: 'main', fileName: 'broken.yml' });
    expect(broken.status).toBe(400);
    expect(errorMessages(broken)).toMatch(/broken\.yml/);
    const cycle = await dispatch({ gitRef: 'main', fileName: 'cycle.yml' });
    expect(cycle.status).toBe(400);
    expect(errorMessages(cycle)).toMatch(/cycle/);
  });
});

describe('POST /v2/workflows/dispatch: inputs', () => {
  async function outputsOf(inputs: Record<string, unknown>): Promise<Record<string, string>> {
    const reply = await dispatch({ gitRef: 'main', fileName: 'inputs.yml', inputs });
    expect(reply.status).toBe(200);
    const run = await waitFor(() => {
      const r = w.sim.getRun(reply.json.data.id)!;
      return r.status === 'success' && r;
    }, 'run success');
    return run.jobs[0].outputs;
  }

  it('accepts every type, applies defaults, and shows secrets as placeholders', async () => {
    w = await createWorld(REPO, { defaultJobDurationMs: 5 });
    const outputs = await outputsOf({
      name: 'n',
      flag: true,
      count: 2.5,
      color: 'green',
      env: 'staging',
      note: 'x',
    });
    expect(outputs).toEqual({ summary: 'n|true|2.5|green|staging', secret: '***' });
    // defaults: flag false, color red; count and env omitted (optional, no default)
    expect((await outputsOf({ name: 'm' })).summary).toBe('m|false||red|');
  });

  it('accepts strings for boolean and number inputs when they parse', async () => {
    w = await createWorld(REPO, { defaultJobDurationMs: 5 });
    expect((await outputsOf({ name: 'n', flag: 'TRUE', count: ' 42 ' })).summary).toBe('n|true|42|red|');
  });

  it.each([
    [{ name: 'n', unknown: 1 }, /inputs\.unknown is not an input/],
    [{}, /inputs\.name is required/],
    [{ name: '' }, /inputs\.name is required/],
    [{ name: 5 }, /inputs\.name must be a string/],
    [{ name: 'n', flag: 'yes' }, /inputs\.flag must be a boolean/],
    [{ name: 'n', flag: 1 }, /inputs\.flag must be a boolean/],
    [{ name: 'n', count: 'many' }, /inputs\.count must be a number/],
    [{ name: 'n', count: true }, /inputs\.count must be a number/],
    [{ name: 'n', color: 'blue' }, /inputs\.color must be one of: red, green/],
    [{ name: 'n', env: 7 }, /inputs\.env must be a string/],
    [{ name: 'n', note: false }, /inputs\.note must be a string/],
  ])('inputs %j → 400 naming the input', async (inputs, message) => {
    w = await createWorld(REPO);
    const reply = await dispatch({ gitRef: 'main', fileName: 'inputs.yml', inputs });
    expect(reply.status).toBe(400);
    expect(errorMessages(reply)).toMatch(message);
    expect(w.sim.runs()).toHaveLength(0);
  });

  it('inputs for a workflow that declares none → 400 naming the input', async () => {
    w = await createWorld(REPO);
    const reply = await dispatch({ gitRef: 'main', fileName: 'ci.yml', inputs: { foo: 'bar' } });
    expect(reply.status).toBe(400);
    expect(errorMessages(reply)).toMatch(/inputs\.foo/);
    expect((await dispatch({ gitRef: 'main', fileName: 'ci.yml', inputs: {} })).status).toBe(200);
  });
});
