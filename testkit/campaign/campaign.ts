/**
 * The fault campaign: randomised lifecycles of the two API commands (run-workflow, and
 * start-device-session followed by its post step), each run through the built dist/ bundles exactly
 * as the runner runs them (the root action with `command:` or the command's own sub-action, at
 * random), against a fresh simulator with faults injected on every endpoint and, sometimes, a SIGINT
 * or SIGTERM at a random moment. Two lifecycles aim at the post step's promises (issue 11):
 * - a signal that reaches the post step while it is stopping a session (slow, refused or hung stops),
 *   followed by the runner's escalation (SIGTERM, then a kill, at the delays of src/runner/timings.ts,
 *   scaled by POST_SIGNAL_SCALE together with the post step's grace: timings.ts);
 * - a create whose answer is lost (reset after processing, an answer slower than the request timeout,
 *   a cancellation during a slow create, the main step killed during it).
 * Every lifecycle decides its correct outcome before it runs and compares. Seeded: the same seed plans
 * the same lifecycles.
 *
 * What counts as wrong (the goal for each is zero):
 * - an outcome that differs from the one decided up front (exit codes, `status` output, how the
 *   session ended, an error annotation on every failure, no "Unexpected error");
 * - a session left active after the post step whose id the action knew (saved in its state), unless
 *   the post step failed with an error annotation naming the session and its URL (every stop refused,
 *   or a signal cut the stop short);
 * - a session left active whose id the action never learned, unless the post step warned that a
 *   session may exist (its create answer was lost: expected, counted apart, not a leak);
 * - more than one run or session created by one lifecycle;
 * - a step the harness had to kill (the runner's SIGINT → SIGTERM → kill escalation, or a time limit),
 *   except where the plan kills it;
 * - a stack trace in stdout or stderr.
 *
 * The parts, in the order a lifecycle meets them: plan.ts (what a lifecycle is; planLifecycle draws one
 * from random.ts), scenarios.ts and cancellations.ts (the kinds of lifecycle and their correct
 * outcomes), faults.ts (the faults and the retry policy's verdict on them), timings.ts (the campaign's
 * clock), lifecycle.ts (running one, with runner-signals.ts for the runner's cancellation), judge.ts
 * (judging it), this file (running them all and adding up the report) and report.ts (printing it).
 */
import { MemoryRepo } from '../../simulator/index.js';
import { FAULT_KINDS } from './faults.js';
import { runLifecycle } from './lifecycle.js';
import type { LifecycleResult } from './judge.js';
import { planLifecycle } from './plan.js';
import { WORKFLOWS } from './scenarios.js';

export interface CampaignOptions {
  seed: number;
  lifecycles: number;
  concurrency: number;
  /** Runs only these lifecycle indexes (replaying a failure with the same seed). */
  only?: number[];
  /** Called after each lifecycle (progress display). */
  onResult?: (result: LifecycleResult, done: number) => void;
}

export interface CampaignReport {
  seed: number;
  lifecycles: number;
  concurrency: number;
  byCommand: Record<string, number>;
  byScenario: Record<string, number>;
  faultsByKind: Record<string, number>;
  faultsByEndpoint: Record<string, number>;
  faultedRequests: number;
  signals: Record<string, number>;
  signalsWhileRunning: number;
  /** Lifecycles with a signal planned for the post step's stop, by variant; how many reached it. */
  postSignals: Record<string, number>;
  postSignalsWhileStopping: number;
  postSignalStopped: number;
  postSignalReported: number;
  /** Lifecycles whose create answer was lost, by variant. */
  lostCreatePlans: Record<string, number>;
  correct: number;
  leaked: number;
  lostCreates: number;
  refusedStops: number;
  cancelledPostWithoutAnnotation: number;
  needlessWarnings: number;
  duplicates: number;
  hung: number;
  stackTraces: number;
  durationMs: number;
  failures: LifecycleResult[];
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const repo = new MemoryRepo(WORKFLOWS);
  const plans = Array.from({ length: options.lifecycles }, (_, index) =>
    planLifecycle(options.seed, index),
  ).filter((plan) => !options.only || options.only.includes(plan.index));
  const results: LifecycleResult[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < plans.length) {
      const plan = plans[next++];
      const result = await runLifecycle(plan, repo);
      results.push(result);
      options.onResult?.(result, results.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  results.sort((a, b) => a.plan.index - b.plan.index);

  const count = (record: Record<string, number>, key: string, by = 1): void => {
    record[key] = (record[key] ?? 0) + by;
  };
  const report: CampaignReport = {
    seed: options.seed,
    lifecycles: results.length,
    concurrency: options.concurrency,
    byCommand: {},
    byScenario: {},
    faultsByKind: Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])),
    faultsByEndpoint: {},
    faultedRequests: 0,
    signals: { SIGINT: 0, SIGTERM: 0 },
    signalsWhileRunning: 0,
    postSignals: {},
    postSignalsWhileStopping: 0,
    postSignalStopped: 0,
    postSignalReported: 0,
    lostCreatePlans: {},
    correct: 0,
    leaked: 0,
    lostCreates: 0,
    refusedStops: 0,
    cancelledPostWithoutAnnotation: 0,
    needlessWarnings: 0,
    duplicates: 0,
    hung: 0,
    stackTraces: 0,
    durationMs: Date.now() - started,
    failures: [],
  };
  for (const result of results) {
    const { plan } = result;
    count(report.byCommand, plan.command);
    count(report.byScenario, `${plan.command}: ${plan.scenario}`);
    for (const planned of [...plan.faults, ...plan.postFaults]) {
      count(report.faultsByKind, planned.kind);
      count(report.faultsByEndpoint, planned.endpoint);
    }
    if (plan.signal) count(report.signals, plan.signal.signal);
    if (plan.lostCreate?.signal) count(report.signals, plan.lostCreate.signal);
    if (result.signalled) report.signalsWhileRunning += 1;
    if (plan.postSignal) count(report.postSignals, `${plan.postSignal.variant}, ${plan.postSignal.signal}`);
    if (result.postSignalled) report.postSignalsWhileStopping += 1;
    if (plan.lostCreate) count(report.lostCreatePlans, plan.lostCreate.variant);
    if (result.correct) report.correct += 1;
    else report.failures.push(result);
    report.leaked += result.leaked;
    report.lostCreates += result.lostCreates;
    report.refusedStops += result.refusedStops;
    report.postSignalStopped += result.postSignalStopped;
    report.postSignalReported += result.postSignalReported;
    report.cancelledPostWithoutAnnotation += result.cancelledPostWithoutAnnotation;
    report.needlessWarnings += result.needlessWarnings;
    report.duplicates += result.duplicates;
    report.hung += result.hung;
    report.stackTraces += result.stackTraces;
  }
  return report;
}

/** Whether the campaign met its goals: every outcome correct, nothing leaked, duplicated, hung or traced. */
export function campaignPassed(report: CampaignReport): boolean {
  return (
    report.correct === report.lifecycles &&
    report.leaked === 0 &&
    report.duplicates === 0 &&
    report.hung === 0 &&
    report.stackTraces === 0
  );
}
