/** A simulator with one account, one project linked to a throw-away git repository, and a developer token. */
import { rm } from 'node:fs/promises';
import {
  makeTempWorkflowRepo,
  startSimulator,
  type SimulatorOptions,
  type Simulator,
  type Account,
  type Project,
} from '../../simulator/index.js';

export interface World {
  /** `sim.close()` also removes the world's git repository, so every test file that closes its simulator leaves no temp dir behind. */
  sim: Simulator;
  account: Account;
  project: Project;
  token: string;
  repo: { path: string; headSha: string };
  /** Inputs every API command needs. */
  api: { token: string; 'base-url': string; 'app-id': string };
}

export async function createWorld(
  files: Record<string, string>,
  options: SimulatorOptions = {},
): Promise<World> {
  const repo = await makeTempWorkflowRepo(files);
  const sim = await startSimulator(options).catch(async (error: unknown) => {
    await rm(repo.path, { recursive: true, force: true });
    throw error;
  });
  // The repository lives as long as the simulator that reads it: one close ends both. Without this
  // every world left a git repository in the temp directory (~150 per `npm test`).
  const closeServer = sim.close.bind(sim);
  let closing: Promise<void> | undefined;
  sim.close = () => (closing ??= closeServer().then(() => rm(repo.path, { recursive: true, force: true })));
  const account = sim.addAccount({ name: 'acme' });
  const project = sim.addProject({ account, repoPath: repo.path, name: 'app' });
  const token = sim.addToken({ account, role: 'developer', robot: true });
  return { sim, account, project, token, repo, api: { token, 'base-url': sim.url, 'app-id': project.id } };
}

/** Waits until `check` returns a value (polling the in-process simulator), or throws after `ms`. */
export async function until<T>(check: () => T | undefined | false, ms = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Service requests the simulator saw (control requests left out), as `METHOD path`. */
export function apiRequests(sim: Simulator): string[] {
  return sim.requests
    .filter((request) => !request.control)
    .map((request) => `${request.method} ${request.path}`);
}
