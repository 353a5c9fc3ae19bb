/** 7. The early-start pattern (scripts/bench/early-start-step.ts): job start → device ready and app built. */
import { earlyStartProblems, measureEarlyStart } from './early-start-step.js';
import { ms, judgedOnTime } from './table.js';
import type { World } from './world.js';

const PROVISIONING_MS = 3000;
const BUILD_MS = 2000;

export async function earlyStart(world: World): Promise<void> {
  const timing = { provisioningMs: PROVISIONING_MS, buildMs: BUILD_MS };
  const result = await measureEarlyStart({
    sim: world.sim,
    api: { token: world.api.token, 'base-url': world.api['base-url'] },
    appId: world.api['app-id'],
    pollIntervalSeconds: '0.25',
    ...timing,
  });
  const problems = earlyStartProblems(result, timing, Number.POSITIVE_INFINITY);
  if (problems.length > 0) throw new Error(`early start: ${problems.join('; ')}`);
  const overlap = Math.max(PROVISIONING_MS, BUILD_MS);
  const sum = PROVISIONING_MS + BUILD_MS;
  const midpoint = (overlap + sum) / 2;
  judgedOnTime(
    `early start (P = ${PROVISIONING_MS / 1000} s provisioning, B = ${BUILD_MS / 1000} s build, 0.25 s interval): job start → device ready and app built`,
    `early ${ms(result.earlyMs)} vs sequential ${ms(result.sequentialMs)}: saved ${ms(result.sequentialMs - result.earlyMs)}`,
    `nearer max(P, B) = ${ms(overlap)} than P + B = ${ms(sum)}: < ${ms(midpoint)}`,
    result.earlyMs < midpoint,
  );
}
