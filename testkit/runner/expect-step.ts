/**
 * How a step's failure must show, checked the same way in both tiers: said in exactly one error
 * annotation, with no stack trace and no kill.
 */
import { expect } from '@jest/globals';
import { STACK_TRACE, type ActionRun } from './step.js';

/** Exit 1 with exactly one error annotation, no stack trace, no kill; returns that error's text. */
export function expectOneError(run: ActionRun): string {
  expect(run.signal).toBeNull();
  expect(run.exitCode).toBe(1);
  expect(STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)).toBe(false);
  expect(run.errors).toHaveLength(1);
  return run.errors[0];
}
