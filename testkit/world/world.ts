/**
 * The one builder of test worlds: a simulator with an account ("acme"), a project ("app") whose
 * repository is held in memory (no git process, no file), a developer robot token, and tokens of the
 * other roles for permission tests.
 */
import { type ActionRun, type StepOptions, type StepRunners } from '../runner/step.js';
import {
  MemoryRepo,
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
  /** The project's repository: `main` and the tag `v1` point to `repo.headSha`; `repo.commit()` adds one. */
  repo: MemoryRepo;
  /** Developer robot token on the project's account. */
  token: string;
  /** Personal access tokens of a viewer and an owner, a robot admin token, on the project's account. */
  viewer: string;
  admin: string;
  owner: string;
  /** A valid token with a role only on another account. */
  stranger: string;
  /** Inputs every API command needs. */
  api: { token: string; 'base-url': string; 'app-id': string };
}

/**
 * A world whose project has `workflows`: a MemoryRepo, or the files (names under `.eas/workflows/`) of
 * its one commit on `main`, tagged `v1`.
 */
export async function createWorld(
  workflows: Record<string, string> | MemoryRepo = {},
  options: SimulatorOptions = {},
): Promise<World> {
  const sim = await startSimulator(options);
  const account = sim.addAccount({ name: 'acme' });
  const repo = workflows instanceof MemoryRepo ? workflows : new MemoryRepo(workflows);
  const project = sim.addProject({ account, workflows: repo, name: 'app' });
  const token = sim.addToken({ account, role: 'developer', robot: true });
  return {
    sim,
    account,
    project,
    repo,
    token,
    viewer: sim.addToken({ account, role: 'viewer', robot: false }),
    admin: sim.addToken({ account, role: 'admin' }),
    owner: sim.addToken({ account, role: 'owner', robot: false }),
    stranger: sim.addToken({ account: sim.addAccount({ name: 'other' }), role: 'owner' }),
    api: { token, 'base-url': sim.url, 'app-id': project.id },
  };
}

/** A device session's answer as a test may rewrite it: the fields the action reads. */
export interface SessionAnswer {
  status: string;
  remoteConfig: unknown;
  [field: string]: unknown;
}

/** Rewrites every read of a device session (`GET /v2/device-run-sessions/:id`) before it is sent. */
export function mutateSessionReads(world: World, mutate: (session: SessionAnswer) => void): void {
  world.sim.injectFault({
    method: 'GET',
    path: /^\/v2\/device-run-sessions\/[0-9a-f-]+$/,
    kind: 'mutate',
    times: 1000,
    mutate: (json) => {
      mutate((json as { data: SessionAnswer }).data);
      return json;
    },
  });
}

/** A workflow run's answer as a test may rewrite it: the fields the action reads. */
export type RunAnswer = Record<string, unknown> & { status?: string; jobs: Array<Record<string, unknown>> };

/**
 * Rewrites every read of a workflow run (`GET /v2/workflows/runs/:id`) that carries its jobs before it
 * is sent: the service as the test wants it.
 */
export function mutateRunReads(world: World, mutate: (run: RunAnswer) => void): void {
  world.sim.injectFault({
    method: 'GET',
    path: /^\/v2\/workflows\/runs\//,
    times: 100_000,
    kind: 'mutate',
    mutate: (json) => {
      const data = (json as { data?: RunAnswer }).data;
      if (data?.jobs) mutate(data);
      return json;
    },
  });
}

/**
 * Stops, through the service's own stop route, every session a test left running (on purpose:
 * `auto-stop: false`, a post step the test did not run), so the next test starts with none.
 */
export async function stopLeftSessions(world: World): Promise<void> {
  for (const session of world.sim.activeSessions())
    await fetch(`${world.sim.url}/v2/device-run-sessions/${session.id}/stop`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.token}` },
    });
}

/**
 * Waits until `check` returns a value (polling the in-process simulator), or throws after `ms`. The
 * default, 30 s, is a safety net: what a test waits for here (a step's process started, a read made)
 * takes a second or two on a busy machine, and the wait ends as soon as it holds.
 */
export async function until<T>(check: () => T | undefined | false, ms = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The service requests the simulator saw, as it recorded them (its control requests left out). */
export function serviceRequests(sim: Simulator): Simulator['requests'] {
  return sim.requests.filter((request) => !request.control);
}

/** Service requests the simulator saw (control requests left out), as `METHOD path`. */
export function apiRequests(sim: Simulator): string[] {
  return serviceRequests(sim).map((request) => `${request.method} ${request.path}`);
}

/**
 * A wait-for-run step of this world following `runId`, as a `uses:` step runs it (fast polls), in the
 * tier of `runners` (BUNDLES from step.ts, IN_PROCESS from in-process.ts).
 */
export function followRunStep(
  runners: StepRunners,
  world: World,
  runId: string,
  inputs: Record<string, string> = {},
  options: StepOptions = {},
): Promise<ActionRun> {
  return runners.runStep('wait-for-run', {
    ...options,
    inputs: {
      token: world.token,
      'base-url': world.sim.url,
      'run-id': runId,
      'poll-interval-seconds': '0.05',
      ...inputs,
    },
  });
}
