/**
 * The ordinary scenarios: a run-workflow step (success, a failing job, a canceled run, an approval, no
 * wait, a timeout) or a start-device-session step and its post step (ready, lagging or extra fields,
 * a session that errors, a readiness timeout, no wait), each with random faults on its endpoints, the
 * outcome that is then correct, and the simulator set up to play it.
 */
import type { Simulator } from '../../simulator/index.js';
import { COMMANDS } from '../../src/commands/index.js';
import { PLATFORMS, SESSION_TYPES, type RunStatus } from '../../src/service/contract.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js';
import { buildFault, randomFault, type Endpoint, type PlannedFault } from './faults.js';
import type {
  Expected,
  LifecyclePlan,
  PartialPlan,
  RunScenario,
  SessionScenario,
  SignalPlan,
} from './plan-types.js';
import type { Rng } from './random.js';
import { REQUEST_TIMEOUT_MS } from './timings.js';

const POLL = '0.05';
const TIMEOUT_MINUTES = '0.01'; // 600 ms

const RUN_SCENARIOS: RunScenario[] = [
  'success',
  'job fails',
  'run canceled',
  'approval',
  'no wait',
  'timeout',
];
const SESSION_SCENARIOS: SessionScenario[] = [
  'ready',
  'config lags',
  'extra status',
  'session errors before ready',
  'session errors after ready',
  'readiness timeout',
  'no wait',
];
/**
 * Every session type of the contract on every platform the action's own input rules accept for it
 * (serve-sim is iOS only), so a type added to the contract joins the campaign by itself.
 */
export const SESSION_KINDS: ReadonlyArray<readonly [string, string]> = SESSION_TYPES.flatMap((type) =>
  PLATFORMS.map((platform) => [type, platform] as const),
).filter(([type, platform]) => {
  const inputs: Record<string, string> = {
    token: 'campaign-token',
    'base-url': 'http://127.0.0.1:1',
    'app-id': '00000000-0000-4000-8000-000000000000',
    type,
    platform,
  };
  try {
    COMMANDS['start-device-session'].read({
      input: (name) => inputs[name] ?? '',
      env: {},
      readFile: () => '',
    });
    return true;
  } catch {
    return false;
  }
});

/** The inputs of a start-device-session step: a session kind at random, fast polls. */
export function sessionInputs(rng: Rng, scenario: SessionScenario): Record<string, string> {
  const [type, platform] = rng.pick(SESSION_KINDS);
  return {
    command: 'start-device-session',
    platform,
    type,
    name: `campaign ${scenario}`,
    'poll-interval-seconds': POLL,
  };
}

/** A run-workflow lifecycle: a scenario, up to `faultCount` faults (one per endpoint), its outcome. */
export function planRun(rng: Rng, faultCount: number): PartialPlan {
  const scenario = rng.pick(RUN_SCENARIOS);
  const faults: PlannedFault[] = [];
  for (let i = 0; i < faultCount; i++) {
    const endpoint: Endpoint = rng.chance(0.35) ? 'dispatch' : 'run-read';
    if (faults.some((f) => f.endpoint === endpoint)) continue; // one fault per endpoint keeps the order exact
    faults.push(randomFault(endpoint, rng, true));
  }
  const inputs: Record<string, string> = {
    command: 'run-workflow',
    workflow: scenario === 'approval' ? 'release.yml' : 'gate.yml',
    'git-ref': 'main',
    'poll-interval-seconds': POLL,
  };
  if (scenario === 'no wait') inputs.wait = 'false';
  if (scenario === 'timeout') inputs['timeout-minutes'] = TIMEOUT_MINUTES;

  const fatal = (endpoint: Endpoint): PlannedFault | undefined =>
    faults.find((f) => f.endpoint === endpoint && f.effect === 'fatal');
  let expected: Expected;
  if (fatal('dispatch')) {
    expected = { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Dispatching workflow gate.yml' };
    if (scenario === 'approval') expected.errorIncludes = 'Dispatching workflow release.yml';
  } else if (scenario === 'no wait') {
    // `status` is the dispatch answer's (issue 12): the run has just been created.
    expected = { mainExit: 0, status: ['new', 'in-progress'], postExit: 0 };
  } else if (scenario === 'timeout') {
    expected = { mainExit: 1, postExit: 0 };
  } else if (fatal('run-read')) {
    expected = { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Reading workflow run' };
  } else {
    const outcomes = {
      success: 'success',
      approval: 'success',
      'job fails': 'failure',
      'run canceled': 'canceled',
    } as const satisfies Record<string, RunStatus>;
    const outcome = outcomes[scenario];
    expected = { mainExit: outcome === 'success' ? 0 : 1, status: [outcome], postExit: 0 };
    if (outcome !== 'success') expected.errorIncludes = `ended with status ${outcome}`;
  }
  return { scenario, faults, postFaults: [], inputs, expected };
}

/** A start-device-session lifecycle: a scenario, faults on the main and the post step, its outcome. */
export function planSession(rng: Rng, faultCount: number, signal: SignalPlan | undefined): PartialPlan {
  const scenario = rng.pick(SESSION_SCENARIOS);
  const faults: PlannedFault[] = [];
  for (let i = 0; i < faultCount; i++) {
    const endpoint: Endpoint = rng.chance(0.35) ? 'create' : 'session-read';
    if (faults.some((f) => f.endpoint === endpoint)) continue;
    faults.push(randomFault(endpoint, rng, true));
  }
  const inputs = sessionInputs(rng, scenario);
  if (scenario === 'no wait') inputs.wait = 'false';
  if (scenario === 'readiness timeout') inputs['timeout-minutes'] = TIMEOUT_MINUTES;

  const fatal = (endpoint: Endpoint): PlannedFault | undefined =>
    faults.find((f) => f.endpoint === endpoint && f.effect === 'fatal');
  const createStatus = faults.find((f) => f.endpoint === 'create' && f.kind === 'unknown status');
  let expected: Expected;
  let mainStops = false; // the main step itself stops the session (its failure paths)
  if (fatal('create')) {
    expected = { mainExit: 1, status: null, postExit: 0, errorIncludes: 'Creating the device session' };
  } else if (scenario === 'no wait') {
    // The create answer's status is passed on as is (a newer service may say `queued`).
    const status = createStatus ? unknownStatusOf(createStatus) : 'new';
    expected = { mainExit: 0, status: [status], postExit: 0, sessionEnd: ['stopped'] };
  } else if (scenario === 'session errors before ready') {
    expected = { mainExit: 1, status: ['errored'], postExit: 0, sessionEnd: ['errored'] };
    if (fatal('session-read')) expected.status = ['errored', 'stopped'];
    if (fatal('session-read')) expected.sessionEnd = ['errored', 'stopped'];
  } else if (scenario === 'readiness timeout') {
    expected = { mainExit: 1, status: ['stopped'], postExit: 0, sessionEnd: ['stopped'] };
    mainStops = true;
  } else if (fatal('session-read')) {
    expected = {
      mainExit: 1,
      status: ['stopped'],
      postExit: 0,
      sessionEnd: ['stopped'],
      errorIncludes: 'Reading device session',
    };
    mainStops = true;
  } else {
    expected = {
      mainExit: 0,
      status: ['in-progress'],
      postExit: 0,
      sessionEnd: scenario === 'session errors after ready' ? ['errored'] : ['stopped'],
    };
  }

  const postFaults: PlannedFault[] = [];
  if (mainStops && !signal && rng.chance(0.5)) {
    // The stop made by the main step's failure path meets a transient fault.
    const stopFault = randomFault('stop', rng, false);
    if (stopFault.kind !== 'unknown status') faults.push(stopFault);
  }
  const postStops = !fatal('create') && expected.mainExit === 0;
  if (postStops && rng.chance(0.45)) {
    const refused = !signal && rng.chance(0.35);
    if (refused) {
      // The service refuses every stop (without stopping): a failure on every attempt exhausts the retries.
      const kind = rng.pick(['5xx', 'reset before the response', '429 without Retry-After'] as const);
      const stopFault = buildFault('stop', kind, DEFAULT_RETRY_POLICY.maxAttempts, rng, REQUEST_TIMEOUT_MS);
      if (stopFault.fault.kind === 'status') stopFault.fault.processed = false;
      postFaults.push(stopFault);
      // Every stop attempt failed: the post step must fail and name the session; it may still run.
      expected.postExit = 1;
      expected.sessionEnd = scenario === 'session errors after ready' ? ['errored'] : ['active', 'stopped'];
    } else {
      postFaults.push(randomFault('stop', rng, false));
    }
  }
  return { scenario, faults, postFaults, inputs, expected };
}

/** The status an 'unknown status' fault puts in the answer. */
function unknownStatusOf(planned: PlannedFault): string {
  const probe = { data: { status: 'new' } };
  (planned.fault as { mutate: (json: unknown) => unknown }).mutate(probe);
  return probe.data.status;
}

const GATE = `name: Gate
on: workflow_dispatch
jobs:
  build:
    name: Build iOS
    type: build
    params:
      platform: ios
  test:
    name: Tests
    needs: [build]
    outputs:
      result: passed
`;

const RELEASE = `name: Release
on: workflow_dispatch
jobs:
  approve:
    type: require-approval
  release:
    needs: [approve]
    type: build
`;

/** The workflows of the campaign's repository: `gate.yml` for most runs, `release.yml` for an approval. */
export const WORKFLOWS = { 'gate.yml': GATE, 'release.yml': RELEASE };

/** Sets the simulator up to play the plan's scenario (`watchers`: intervals to clear at the end). */
export function setUpScenario(sim: Simulator, plan: LifecyclePlan, watchers: NodeJS.Timeout[]): void {
  switch (plan.scenario) {
    case 'job fails':
      sim.setJobBehaviour('test', { outcome: 'failure', errorMessage: 'assertion failed in checkout.spec' });
      break;
    case 'run canceled':
      sim.setJobBehaviour('build', { durationMs: 3000 });
      watchers.push(
        setInterval(() => {
          for (const run of sim.runs()) if (run.status === 'in-progress') sim.cancelRun(run.id);
        }, 15),
      );
      break;
    case 'approval':
      watchers.push(
        setInterval(() => {
          for (const run of sim.runs()) if (run.status === 'action-required') sim.approve(run.id);
        }, 120),
      );
      break;
    case 'timeout':
      sim.setJobBehaviour('build', { durationMs: 20_000 });
      break;
    case 'config lags':
      sim.setSessionBehaviour({ remoteConfigLagMs: 200 });
      break;
    case 'extra status':
      sim.setSessionBehaviour({
        extraStatusBeforeReady: 'queued',
        extraRemoteConfigFields: {
          previewApiUrl: 'https://preview.example/api',
          webPreviewToken: 'wpt-secret-0001',
        },
      });
      break;
    case 'session errors before ready':
      sim.setSessionBehaviour({ errorAfterMs: 30, readinessDelayMs: 2000 });
      break;
    case 'readiness timeout':
      sim.setSessionBehaviour({ readinessDelayMs: 20_000 });
      break;
  }
}
