/**
 * `npm run bench`: the performance figures (README "Performance"), measured in one run against the
 * simulator with the committed bundles run exactly as the GitHub runner runs them (testkit/runner/step.ts),
 * printed as a table: figure | measured | budget | met?. A time budget is a multiple of this run's
 * baseline (a bare `node -e 0`, measured first), judged on the median of several runs, and printed
 * "not judged" when the load average exceeds the number of cores (table.ts); count budgets stay
 * absolute. It exits 1 when a budget is missed or a measurement could not be made, so a missed
 * budget is never read past. Each figure is measured by a module of
 * scripts/bench/ (size, startup, readiness, requests, big-run, early-start, huge-answer, huge-run,
 * status-posts, gate-cost, github-side, cli), in that order.
 *
 *   npm run bench                 # about a minute
 *   npm run bench -- --with-cli   # also installs the service's CLI (eas-cli) from the registry
 *   npm run bench -- --job-duration-ms 1500 --represents-minutes 30   # the gate-cost model's run
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { DEFAULT_RUNTIME, RUNTIMES } from '../../testkit/runner/step.js';
import { bigRun } from './big-run.js';
import { cli } from './cli.js';
import { earlyStart } from './early-start.js';
import { hugeAnswer } from './huge-answer.js';
import { hugeRun } from './huge-run.js';
import { readiness } from './readiness.js';
import { requests } from './requests.js';
import { sizes } from './size.js';
import { bare, startup } from './startup.js';
import { statusPosts } from './status-posts.js';
import { gateCost } from './gate-cost.js';
import { githubSide } from './github-side.js';
import { median, ms, note, print, setBaseline } from './table.js';
import { createWorld } from './world.js';

async function main(): Promise<void> {
  console.log(
    `svc-action bench: ${DEFAULT_RUNTIME} ${spawnSync(RUNTIMES[DEFAULT_RUNTIME], ['--version'], { encoding: 'utf8' }).stdout.trim()}; ` +
      `${cpus().length} CPUs; load average ${loadavg()[0].toFixed(2)}`,
  );
  process.stderr.write('measuring…\n');
  // The run's unit of time, before any figure: every time budget is a multiple of it.
  // Three starts first warm the file cache (the first start of a binary is slower), then fifteen.
  const bares: number[] = [];
  for (let i = 0; i < 18; i++) {
    const took = await bare(RUNTIMES[DEFAULT_RUNTIME]);
    if (i >= 3) bares.push(took);
  }
  setBaseline(median(bares));
  note(
    `Time budgets are multiples of this run's baseline, node -e 0 on ${DEFAULT_RUNTIME}: ${ms(median(bares))} (median of 15); ` +
      `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} CPUs at the start, ${loadavg()[0] > cpus().length ? 'busier than its cores' : 'within its cores'}.`,
  );
  sizes();
  const world = await createWorld({ readinessDelayMs: 0 });
  try {
    const ours = await startup(world);
    await readiness(world);
    await requests(world);
    await bigRun(world);
    await earlyStart(world);
    await hugeAnswer(world);
    await hugeRun(world);
    await statusPosts(world);
    await gateCost();
    await githubSide();
    cli(ours);
  } finally {
    await world.sim.close();
  }
  console.log('');
  print();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
