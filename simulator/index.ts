/**
 * A simulator of the service's HTTP interface (device run sessions and workflow runs), for testing the
 * action over real HTTP. See `startSimulator`.
 */
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import {
  Registry,
  type Account,
  type AddAccountOptions,
  type AddTokenOptions,
  type Project,
  type Role,
} from './accounts.js';
import { Timers } from './clock.js';
import { controlRoutes } from './control.js';
import { controllerRoutes } from './controllers/index.js';
import { FaultRegistry, type Fault } from './faults.js';
import { pageRoutes } from './pages/index.js';
import { overviewRoutes } from './pages/overview.js';
import {
  GITHUB_PREFIX,
  GitHubStandIn,
  githubAnswer,
  githubControlRoutes,
  type GitHubWorldSettings,
} from './github/index.js';
import { Log, type SimulatorLog } from './log.js';
import { serviceRoutes } from './routes.js';
import { createSimServer, type RecordedRequest } from './server.js';
import type { DispatchRequest } from '../src/service/contract.js';
import { startRun, validateDispatch } from './dispatch.js';
import { notFound } from './errors.js';
import { GitRepo } from './git.js';
import { MemoryRepo } from './memory-repo.js';
import {
  SessionManager,
  type DeviceSession,
  type SessionBehaviourPatch,
  type SessionEnd,
} from './sessions.js';
import { WorkflowEngine, type JobBehaviour, type WorkflowRun } from './workflows.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/delivery.js';
import { webhookControlRoutes } from './webhooks/routes.js';

export type { Account, AddAccountOptions, AddTokenOptions, Project, Role } from './accounts.js';
export type { Fault, FaultKind, FaultMatcher } from './faults.js';
export type { RecordedRequest } from './server.js';
export type { SimulatorLog } from './log.js';
export type {
  DeviceSession,
  RemoteConfig,
  SessionBehaviour,
  SessionBehaviourPatch,
  SessionEnd,
} from './sessions.js';
export type {
  JobBehaviour,
  JobCompletedEvent,
  JobError,
  JobStatusEvent,
  RunCompletedEvent,
  RunStatusEvent,
  WorkflowJob,
  WorkflowRun,
} from './workflows.js';
export type { DeliveryAttempt, WebhookDispatcherOptions, WebhookView } from './webhooks/delivery.js';
export type { JobStatus, RunStatus, SessionStatus } from '../src/service/contract.js';
export type { WebhookEvent } from '../src/webhook/payloads.js';
export { WebhookDispatcher } from './webhooks/delivery.js';
export {
  GitHubStandIn,
  BOT,
  AUTHOR,
  CLIENT_PAYLOAD_LIMIT,
  DEFAULT_LIMITS,
  GITHUB_TOKEN_PERMISSIONS,
} from './github/index.js';
export type {
  Comment,
  GitHubCount,
  GitHubLimits,
  GitHubSettings,
  GitHubWorldSettings,
  PostedStatus,
  PullRequest,
  ReceivedDispatch,
  TokenSettings,
} from './github/index.js';
export { CONTROL_ROUTES } from './control.js';
export { MemoryRepo } from './memory-repo.js';
export type { WorkflowSource } from './workflow-source.js';

export interface SimulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Time from session creation to `in-progress`; default 100 ms. */
  readinessDelayMs?: number;
  /** Duration of a job without a behaviour; default 100 ms. */
  defaultJobDurationMs?: number;
  /** Time a canceled job spends in `pending-cancel`; default 20 ms. */
  cancelDelayMs?: number;
  /** Time a run stays `new` before its first jobs start; default 0 ms (next tick). */
  runStartDelayMs?: number;
  /** Length of a session "minute" (maxDuration / maxIdle auto-stop); default 60 000 ms. */
  sessionMinuteMs?: number;
  /**
   * Manual time: no timer of the simulator (readiness, job durations, auto-stops, delivery retries,
   * slow faults) runs until `advanceTime` says time has passed. Default: real time.
   */
  manualTime?: boolean;
  /** Webhook delivery: attempts (default 5), baseIntervalMs (default 1000), timeoutMs (default 10 000). */
  webhooks?: WebhookDispatcherOptions;
  /**
   * Host names (any port) requests may use besides loopback names and the address they reached, e.g.
   * a name a proxy or a container network maps to the simulator. Other `Host` headers get 421.
   */
  allowedHosts?: readonly string[];
  /**
   * Where the log's lines go as they are written: `true` for standard output, or a function. Default:
   * nowhere (the lines are still kept in `sim.log`). The command prints them unless `--quiet`.
   */
  printLog?: boolean | ((line: string) => void);
  /**
   * GitHub's stand-in's world (simulator/github/settings.ts): its tokens, public repositories, rate
   * limits, clock, known commits and rulesets. Default: GitHub's figures, any token the repository's
   * GITHUB_TOKEN.
   */
  github?: GitHubWorldSettings;
}

export interface AddProjectOptions {
  account: Account;
  name?: string;
  /**
   * The linked repository, held in memory: a MemoryRepo, or the workflow files (names under
   * `.eas/workflows/`) of its one commit on branch `main`, tagged `v1`. Default: no workflow file.
   */
  workflows?: MemoryRepo | Record<string, string>;
  /** A real git repository to link instead: its workflow files are read with git on every dispatch. */
  repoPath?: string;
}

export interface Simulator {
  /** e.g. http://127.0.0.1:54321 */
  url: string;
  /** Closes the server, clears all timers, destroys open sockets. */
  close(): Promise<void>;
  /**
   * `run-status` (RunStatusEvent: a run created or changed status), `job-status` (JobStatusEvent),
   * `job-completed` (JobCompletedEvent), `run-completed` (RunCompletedEvent), `session-created` and
   * `session-status` (DeviceSession snapshot, at creation and on every later session change).
   */
  events: EventEmitter;
  /**
   * One line per request and per state change (runs, jobs, sessions, webhook delivery attempts,
   * resets), without credentials; printed only when `printLog` says so.
   */
  log: SimulatorLog;
  /**
   * GitHub's side: the routes the action uses (statuses, comments, GraphQL viewer, dispatches) under
   * `${url}/_github` (`github.url`, the GITHUB_API_URL to give the action), the pull requests opened
   * with `github.addPullRequest`, and each one's page at `${url}/_github/<owner>/<repo>/pull/<n>`.
   */
  github: GitHubStandIn;
  /** Webhooks per project (BUILD / SUBMIT), delivered when build and submission jobs complete. */
  webhooks: WebhookDispatcher;
  /** Every request received, in order (control routes included, marked `control: true`). */
  requests: RecordedRequest[];
  addAccount(opts?: AddAccountOptions): Account;
  addProject(opts: AddProjectOptions): Project;
  addToken(opts: AddTokenOptions): string;
  grantRole(token: string, account: Account, role: Role): void;
  injectFault(fault: Fault): void;
  clearFaults(): void;
  clearRequests(): void;
  /**
   * Forgets every run, session, session and job behaviour, pending fault, recorded request, webhook
   * and webhook delivery, and what GitHub's stand-in received and held, with their timers: a delivery waiting to be retried is cancelled. Accounts,
   * projects and tokens stay. (`POST /_sim/reset`.)
   */
  reset(): void;
  // workflow controls
  /** Jobs with this key started afterwards run this way (replaces any earlier behaviour for the key). */
  setJobBehaviour(jobKey: string, b: JobBehaviour): void;
  /** Jobs with this key started afterwards use the defaults again. */
  clearJobBehaviour(jobKey: string): void;
  /**
   * Starts a run as the dispatch operation would, without a request: a run "dispatched by someone
   * else", for following by id. Same rules and errors (as ApiError) as the dispatch.
   */
  createRun(request: DispatchRequest): Promise<WorkflowRun>;
  /** A running job ends now, as its behaviour says (409 ApiError for a job not running). */
  finishJob(runId: string, jobKey: string): void;
  approve(runId: string): void;
  reject(runId: string): void;
  cancelRun(runId: string): void;
  getRun(runId: string): WorkflowRun | undefined;
  runs(): WorkflowRun[];
  // session controls
  /** Merged into the behaviour for sessions created afterwards; a key set to null or undefined is cleared. */
  setSessionBehaviour(b: SessionBehaviourPatch): void;
  /** Sessions created afterwards use the defaults again. */
  resetSessionBehaviour(): void;
  /** Provisioning finishes now: a session not yet ready becomes `in-progress` with its remoteConfig. */
  readySession(id: string): void;
  getSession(id: string): DeviceSession | undefined;
  sessions(): DeviceSession[];
  /** Sessions not stopped or errored. */
  activeSessions(): DeviceSession[];
  /** Moves a session to `errored` now (no-op for a terminal session). */
  failSession(id: string): void;
  /** Simulated device activity: restarts the idle timer. */
  touchSession(id: string): void;
  /** Manual time only (`manualTime: true`): moves the simulator's time on, running what falls due. */
  advanceTime(ms: number): void;
  /** How a session ended (stop operation, max duration, idle timeout, error), if it did. */
  sessionEndedBy(id: string): SessionEnd | undefined;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const events = new EventEmitter();
  const timers = new Timers(options.manualTime === true);
  const requests: RecordedRequest[] = [];
  const registry = new Registry();
  const faults = new FaultRegistry();
  let url = '';
  const baseUrl = (): string => url;
  const workflows = new WorkflowEngine({
    timers,
    events,
    baseUrl,
    defaultJobDurationMs: options.defaultJobDurationMs ?? 100,
    cancelDelayMs: options.cancelDelayMs ?? 20,
    runStartDelayMs: options.runStartDelayMs ?? 0,
  });
  const sessions = new SessionManager({
    timers,
    events,
    baseUrl,
    readinessDelayMs: options.readinessDelayMs ?? 100,
    minuteMs: options.sessionMinuteMs ?? 60_000,
  });
  const webhooks = new WebhookDispatcher(options.webhooks);
  const github = new GitHubStandIn('', options.github);
  let queueLinked = false;
  const print =
    options.printLog === true ? (line: string) => console.log(line) : options.printLog || undefined;
  const log = new Log(print);
  log.follow(events, (id) => sessions.endedBy(id));
  github.log = (line) => log.write(line);
  webhooks.onAttempt = (attempt, attempts) => log.delivery(attempt, attempts);
  events.on('job-completed', (event) => webhooks.onJobCompleted(event));
  const reset = (): void => {
    workflows.reset();
    sessions.reset();
    faults.clear();
    requests.length = 0;
    webhooks.reset();
    github.reset();
    log.write(
      'reset: runs, sessions, behaviours, faults, recorded requests, webhooks and deliveries forgotten',
    );
  };
  const deps = { registry, sessions, workflows, faults, reset };
  const { server, destroySockets } = createSimServer({
    routes: [
      ...serviceRoutes(deps),
      ...controllerRoutes(deps),
      ...pageRoutes(deps),
      ...overviewRoutes({ ...deps, requests, webhooks, github }),
    ],
    controlRoutes: [
      ...controlRoutes(deps),
      ...webhookControlRoutes(webhooks, (id) => registry.projects.has(id)),
      ...githubControlRoutes(github),
    ],
    faults,
    timers,
    requests,
    log,
    github: {
      owns: (target) => target === GITHUB_PREFIX || /^\/_github[/?]/.test(target),
      answer: (method, target, headers, raw) =>
        githubAnswer(github, method, target, headers, raw) ?? { status: 404, body: { message: 'Not Found' } },
    },
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  github.url = `${url}${GITHUB_PREFIX}`;

  let closing: Promise<void> | undefined;
  return {
    get url() {
      return url;
    },
    events,
    webhooks,
    github,
    requests,
    log,
    close() {
      closing ??= new Promise<void>((resolve) => {
        timers.clearAll();
        webhooks.close();
        server.close(() => resolve());
        destroySockets();
      });
      return closing;
    },
    advanceTime: (ms) => timers.advance(ms),
    addAccount: (opts) => registry.addAccount(opts),
    addProject({ account, name, workflows, repoPath }) {
      if (workflows !== undefined && repoPath !== undefined)
        throw new Error('addProject: give workflows or repoPath, not both');
      const repository =
        repoPath !== undefined
          ? new GitRepo(repoPath)
          : workflows instanceof MemoryRepo
            ? workflows
            : new MemoryRepo(workflows);
      // The merge queue of GitHub's stand-in builds its commits in the first project's repository
      // (held in memory: a git repository given with --repo is only read, never written).
      if (repository instanceof MemoryRepo && !queueLinked) {
        github.linkRepository(repository);
        queueLinked = true;
      }
      return registry.addProject({ account, repository, ...(name !== undefined ? { name } : {}) });
    },
    addToken: (opts) => registry.addToken(opts),
    grantRole: (token, account, role) => registry.grantRole(token, account, role),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    clearRequests: () => {
      requests.length = 0;
    },
    reset,
    setJobBehaviour: (key, b) => workflows.setJobBehaviour(key, b),
    clearJobBehaviour: (key) => workflows.clearJobBehaviour(key),
    async createRun(request) {
      const valid = validateDispatch(request);
      const project = registry.projects.get(valid.appId);
      if (!project) throw notFound(`No project with id ${valid.appId} (appId)`);
      return startRun(workflows, project, valid);
    },
    finishJob: (id, key) => workflows.finishJob(id, key),
    approve: (id) => workflows.approve(id),
    reject: (id) => workflows.reject(id),
    cancelRun: (id) => workflows.cancel(id),
    getRun: (id) => workflows.get(id),
    runs: () => workflows.list(),
    setSessionBehaviour: (b) => sessions.setBehaviour(b),
    resetSessionBehaviour: () => sessions.resetBehaviour(),
    readySession: (id) => {
      sessions.ready(id);
    },
    getSession: (id) => sessions.get(id),
    sessions: () => sessions.list(),
    activeSessions: () => sessions.active(),
    failSession: (id) => {
      sessions.fail(id);
    },
    touchSession: (id) => sessions.touch(id),
    sessionEndedBy: (id) => sessions.endedBy(id),
  };
}
