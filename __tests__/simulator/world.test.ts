/**
 * Test worlds live in memory: making one, dispatching its workflows on a branch, a tag and a SHA and
 * following the run start no git process and write no file. A git repository is used only when a
 * project asks for one (`repoPath`).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { call, waitFor } from './helpers.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let root: string;
let saved: { PATH?: string; TMPDIR?: string };
let world: World | undefined;

// PATH is an empty directory, so no git can start; TMPDIR is the same directory, so whatever a world
// writes to the temporary directory (a repository, say) is seen.
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-world-'));
  saved = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR };
  process.env.PATH = root;
  process.env.TMPDIR = root;
});
afterEach(async () => {
  process.env.PATH = saved.PATH;
  process.env.TMPDIR = saved.TMPDIR;
  await world?.sim.close();
  world = undefined;
  rmSync(root, { recursive: true, force: true });
});

const dispatch = (gitRef: string) =>
  call(world!.sim, 'POST', '/v2/workflows/dispatch', {
    token: world!.token,
    body: { appId: world!.project.id, gitRef, fileName: 'ci.yml' },
  });

describe('a test world', () => {
  it('dispatches and runs its workflows with no git on PATH, writing nothing to the temporary directory', async () => {
    world = await createWorld({ 'ci.yml': ONE_BUILD }, { defaultJobDurationMs: 5 });
    for (const gitRef of ['main', 'v1', world.repo.headSha.slice(0, 7)]) {
      const reply = await dispatch(gitRef);
      expect(reply.status).toBe(200);
      const run = await waitFor(() => {
        const current = world!.sim.getRun(reply.json.data.id);
        return current?.status === 'success' && current;
      }, `the run on ${gitRef} to succeed`);
      expect(run.gitCommitHash).toBe(world.repo.headSha);
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('the check above bites: a project linked to a git repository needs git, and fails without it', async () => {
    world = await createWorld();
    const linked = world.sim.addProject({ account: world.account, repoPath: root });
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const reply = await call(world.sim, 'POST', '/v2/workflows/dispatch', {
        token: world.token,
        body: { appId: linked.id, gitRef: 'main', fileName: 'ci.yml' },
      });
      expect(reply.status).toBe(500);
      expect(String(quiet.mock.calls[0]?.[1])).toMatch(/git rev-parse failed/);
    } finally {
      quiet.mockRestore();
    }
  });

  it('a project takes workflow files in memory or a repository path, not both', async () => {
    world = await createWorld();
    expect(() => world!.sim.addProject({ account: world!.account, workflows: {}, repoPath: root })).toThrow(
      /workflows or repoPath, not both/,
    );
  });
});
