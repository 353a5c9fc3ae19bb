/**
 * The hooks of tests that share one world (a file's, or a describe's), whichever tier runs their steps:
 * the world closed after all; before each test the simulator reset; after each, by default, the promise
 * users rely on checked: whatever happened, no device is left running. The tests create their world
 * themselves (in their own `beforeAll`), and hand it here as a getter.
 */
import { afterAll, afterEach, beforeEach, expect } from '@jest/globals';
import type { World } from './world.js';
import { VirtualClock } from '../runner/step-clock.js';
import { replaceStepClock } from '../../src/text/clock.js';

/** The promise users rely on: whatever happened, no device is left running. */
export function expectNoSessionLeft(world: World): void {
  expect(world.sim.activeSessions()).toEqual([]);
}

export interface SharedWorldHooks {
  /** Before each test (default: the simulator reset; null: nothing). */
  beforeEachTest?: ((world: World) => void | Promise<void>) | null;
  /** After each test (default: expectNoSessionLeft). */
  afterEachTest?: (world: World) => void | Promise<void>;
}

/** Registers the hooks of tests sharing `world()` (see the module's comment). */
export function sharedWorldHooks(
  world: () => World,
  {
    beforeEachTest = (shared) => shared.sim.reset(),
    afterEachTest = expectNoSessionLeft,
  }: SharedWorldHooks = {},
): void {
  afterAll(() => world().sim.close());
  if (beforeEachTest) beforeEach(() => beforeEachTest(world()));
  afterEach(() => afterEachTest(world()));
}

/**
 * Each test of the file on a fresh VirtualClock as the step clock of every step it runs in process
 * (writes a second apart and settle windows pass in no time); the getter gives the running test's.
 */
export function virtualStepClockEachTest(): () => VirtualClock {
  let clock = new VirtualClock();
  let restore = (): void => undefined;
  beforeEach(() => {
    clock = new VirtualClock();
    restore = replaceStepClock(clock);
  });
  afterEach(() => restore());
  return () => clock;
}
