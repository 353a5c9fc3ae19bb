/**
 * A small seeded run of the fault campaign (`npm run reliability`): randomised lifecycles of
 * run-workflow and start-device-session + post, through the built dist/, with faults on every
 * endpoint and signals at random moments. Every outcome must be the one decided up front, and no
 * session may be leaked, nothing created twice, no step hang and no stack trace be printed.
 */
import {
  campaignPassed,
  describeFailures,
  faultEffect,
  planLifecycle,
  runCampaign,
} from '../../scripts/reliability/campaign.js';
import { RUNTIME_NAMES } from '../helpers/run-action.js';

describe('fault campaign', () => {
  it('plans the same lifecycles for the same seed', () => {
    const plans = (seed: number): string[] =>
      Array.from({ length: 30 }, (_, index) => {
        const plan = planLifecycle(seed, index, ['node20', 'node24']);
        const faults = [...plan.faults, ...plan.postFaults].map((f) => [
          f.endpoint,
          f.kind,
          f.times,
          f.effect,
        ]);
        return JSON.stringify({ ...plan, faults, postFaults: undefined });
      });
    expect(plans(42)).toEqual(plans(42));
    expect(plans(42)).not.toEqual(plans(43));
  });

  it('decides outcomes with the retry policy: transient faults are retried away, creates are never repeated', () => {
    expect(faultEffect('run-read', '5xx', 5)).toBe('transient');
    expect(faultEffect('run-read', '5xx', 6)).toBe('fatal');
    expect(faultEffect('session-read', '4xx (401/403/404)', 1)).toBe('fatal');
    expect(faultEffect('dispatch', '429 with Retry-After', 2)).toBe('transient');
    expect(faultEffect('create', 'reset before the response', 1)).toBe('fatal');
    expect(faultEffect('stop', 'partial body then reset', 3)).toBe('transient');
  });

  it('16 seeded lifecycles: every outcome correct; no leak, duplicate, hang or stack trace', async () => {
    const report = await runCampaign({ seed: 2024, lifecycles: 16, concurrency: 4, runtimes: RUNTIME_NAMES });
    expect(describeFailures(report)).toBe('');
    expect(report).toMatchObject({
      lifecycles: 16,
      correct: 16,
      leaked: 0,
      duplicates: 0,
      hung: 0,
      stackTraces: 0,
    });
    expect(Object.values(report.faultsByKind).reduce((a, b) => a + b, 0)).toBeGreaterThan(8);
    expect(campaignPassed(report)).toBe(true);
  }, 90_000);
});
