/**
 * The shapes of a planned lifecycle (what plan.ts draws, scenarios.ts and cancellations.ts fill in,
 * lifecycle.ts runs): a module of its own, so that those three import the shapes, not each other.
 */
import type { SESSION_TERMINAL } from '../../src/service/contract.js';
import type { PlannedFault } from './faults.js';

export type RunScenario = 'success' | 'job fails' | 'run canceled' | 'approval' | 'no wait' | 'timeout';
export type SessionScenario =
  | 'ready'
  | 'config lags'
  | 'extra status'
  | 'session errors before ready'
  | 'session errors after ready'
  | 'readiness timeout'
  | 'no wait'
  | 'signal during post'
  | 'create answer lost';

export interface SignalPlan {
  signal: 'SIGINT' | 'SIGTERM';
  /** After the spawn of the main step. */
  afterMs: number;
}

/** How the post step's stop misbehaves when the signal reaches it. */
export type PostSignalVariant = 'slow stop' | 'refused stops' | 'hung stop';

/** A signal delivered to the post step while it is stopping the session, then the runner's escalation. */
export interface PostSignalPlan {
  variant: PostSignalVariant;
  signal: 'SIGINT' | 'SIGTERM';
  /** After the first stop request reached the service. */
  afterStopMs: number;
}

export type LostCreateVariant =
  | 'reset after processing'
  | 'answer after the request timeout'
  | 'cancelled during a slow create'
  | 'killed during a slow create';

/** A create the service processes whose answer never reaches the main step. */
export interface LostCreatePlan {
  variant: LostCreateVariant;
  signal?: 'SIGINT' | 'SIGTERM';
  /** After the create request reached the service (for the variants with a signal). */
  afterCreateMs: number;
}

export interface Expected {
  /** Exit code of the main step when no signal reached it while it ran. */
  mainExit: 0 | 1;
  /** Values allowed for the `status` output; null: must be absent; undefined: not checked. */
  status?: string[] | null;
  postExit: 0 | 1;
  /** How the session the action knew ended (device sessions only). */
  sessionEnd?: Array<(typeof SESSION_TERMINAL)[number] | 'active'>;
  /** Text the main step's error must contain. */
  errorIncludes?: string;
}

export interface LifecyclePlan {
  index: number;
  seed: number;
  command: 'run-workflow' | 'start-device-session';
  /** `main`: the root action with `command:`; else the command's sub-action bundle. */
  entry: 'main' | 'run-workflow' | 'start-device-session';
  scenario: RunScenario | SessionScenario;
  debug: boolean;
  /** Injected before the main step. */
  faults: PlannedFault[];
  /** Injected before the post step (after the main step's leftover faults are cleared). */
  postFaults: PlannedFault[];
  signal?: SignalPlan;
  postSignal?: PostSignalPlan;
  lostCreate?: LostCreatePlan;
  /** The per-attempt request time limit of each step (SVC_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: { main: number; post: number };
  inputs: Record<string, string>;
  expected: Expected;
}

/** What a kind of lifecycle plans; planLifecycle adds what all have in common. */
export type PartialPlan = Pick<LifecyclePlan, 'scenario' | 'faults' | 'postFaults' | 'inputs' | 'expected'>;
