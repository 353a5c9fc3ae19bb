/** A simulator with one account, one project linked to a throw-away git repository, and a developer token. */
import {
  makeTempWorkflowRepo,
  startSimulator,
  type SimulatorOptions,
  type Simulator,
  type Account,
  type Project,
} from '../../simulator/index.js';

export interface World {
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
  const sim = await startSimulator(options);
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
