/**
 * One lifecycle of the campaign: a fresh simulator, the planned faults, the main step through its
 * bundle (with the planned signal), then the post step (with its faults and signal), then the judgement.
 */
import type { ChildProcess } from 'node:child_process';
import { startSimulator } from '../../simulator/index.js';
import type { MemoryRepo } from '../../simulator/index.js';
import { runAction, runPost } from '../runner/step.js';
import { judge, type LifecycleResult } from './judge.js';
import type { LifecyclePlan } from './plan-types.js';
import { afterArrival, escalate } from './runner-signals.js';
import { setUpScenario } from './scenarios.js';
import { POST_ESCALATION, POST_GRACE_MS, RUNNER_ESCALATION } from './timings.js';
import { lastSavedSession } from '../world/session-state.js';

/** Runs one planned lifecycle against a simulator of its own and judges it. */
export async function runLifecycle(plan: LifecyclePlan, repo: MemoryRepo): Promise<LifecycleResult> {
  const sim = await startSimulator({ readinessDelayMs: 100, defaultJobDurationMs: 60, cancelDelayMs: 20 });
  const result: LifecycleResult = {
    plan,
    signalled: false,
    postSignalled: false,
    correct: false,
    problems: [],
    leaked: 0,
    lostCreates: 0,
    refusedStops: 0,
    postSignalStopped: 0,
    postSignalReported: 0,
    cancelledPostWithoutAnnotation: 0,
    needlessWarnings: 0,
    duplicates: 0,
    hung: 0,
    stackTraces: 0,
    runs: 0,
    sessions: 0,
  };
  const watchers: NodeJS.Timeout[] = [];
  try {
    const account = sim.addAccount({ name: 'campaign' });
    const project = sim.addProject({ account, workflows: repo, name: 'app' });
    const token = sim.addToken({ account, role: 'developer', robot: true });
    const inputs: Record<string, string> = {
      ...plan.inputs,
      token,
      'base-url': sim.url,
      'app-id': project.id,
    };
    // A sub-action has no `command` input: its bundle is the command.
    if (plan.entry !== 'main') delete inputs.command;
    // The post step takes its test hooks from its main step's state, never from its own environment.
    const env = (requestTimeoutMs: number): Record<string, string> => ({
      SVC_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      SVC_CANCEL_GRACE_MS: String(POST_GRACE_MS),
      ...(plan.debug ? { RUNNER_DEBUG: '1' } : {}),
    });
    setUpScenario(sim, plan, watchers);
    for (const planned of plan.faults) sim.injectFault(planned.fault);

    let killedByHarness = false;
    const lost = plan.lostCreate;
    let onMainSpawn: ((child: ChildProcess) => void) | undefined;
    if (plan.signal)
      onMainSpawn = (child) =>
        setTimeout(
          () =>
            escalate(
              child,
              plan.signal!.signal,
              RUNNER_ESCALATION,
              (alive) => (result.signalled ||= alive),
              () => (killedByHarness = true),
            ),
          plan.signal!.afterMs,
        );
    else if (lost?.signal)
      onMainSpawn = (child) =>
        afterArrival(sim, 'create', child, lost.afterCreateMs, () =>
          escalate(
            child,
            lost.signal!,
            // Killed soon after the signal, as the runner would at the end of its grace: the create
            // cannot be abandoned, so the step only waits for its answer meanwhile.
            lost.variant === 'killed during a slow create'
              ? { termAfterMs: 150, killAfterMs: 300 }
              : RUNNER_ESCALATION,
            (alive) => (result.signalled ||= alive),
            () => (killedByHarness = lost.variant !== 'killed during a slow create'),
          ),
        );
    const main = await runAction({
      entry: plan.entry,
      inputs,
      env: env(plan.requestTimeoutMs.main),
      timeoutMs: 30_000,
      onSpawn: onMainSpawn,
    });
    result.main = main;
    if (killedByHarness || (main.signal === 'SIGKILL' && lost?.variant !== 'killed during a slow create'))
      result.hung += 1;

    sim.clearFaults();
    const knownId = lastSavedSession(main)?.id;
    // Only the root action and start-device-session have a post step (run-workflow/action.yml has none).
    if (plan.entry === 'run-workflow') {
      for (const id of watchers) clearInterval(id);
      judge(result, sim, knownId);
      return result;
    }
    if (plan.scenario === 'session errors after ready' && knownId && main.exitCode === 0)
      sim.failSession(knownId);
    for (const planned of plan.postFaults) sim.injectFault(planned.fault);
    let postKilled = false;
    const postSignal = plan.postSignal;
    const post = await runPost(main, {
      inputs,
      env: env(plan.requestTimeoutMs.post),
      timeoutMs: 30_000,
      onSpawn: postSignal
        ? (child) =>
            afterArrival(sim, 'stop', child, postSignal.afterStopMs, () =>
              escalate(
                child,
                postSignal.signal,
                POST_ESCALATION,
                (alive) => (result.postSignalled ||= alive),
                () => (postKilled = true),
              ),
            )
        : undefined,
    });
    result.post = post;
    if (postKilled || post.signal === 'SIGKILL') result.hung += 1;

    for (const id of watchers) clearInterval(id);
    judge(result, sim, knownId);
  } finally {
    for (const id of watchers) clearInterval(id);
    await sim.close();
  }
  return result;
}
