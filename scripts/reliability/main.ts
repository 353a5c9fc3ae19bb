/**
 * `npm run reliability`: the fault campaign (scripts/reliability/) from the command line.
 *
 *   npm run reliability -- [--seed N] [--lifecycles N] [--concurrency N] [--only i,j]
 *
 * Prints the table and, for any lifecycle that went wrong, what went wrong and how to replay it
 * (same seed). Exits 1 when a goal is missed: every outcome correct, and zero leaked sessions,
 * duplicates, hangs and stack traces.
 */
import { DEFAULT_RUNTIME } from '../../testkit/runner/step.js';
import { campaignPassed, runCampaign } from '../../testkit/campaign/campaign.js';
import { describeFailures, renderTable } from '../../testkit/campaign/report.js';

interface Options {
  seed: number;
  lifecycles: number;
  concurrency: number;
  only?: number[];
  verbose: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    seed: 1,
    lifecycles: 300,
    concurrency: 4,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    const number = Number(value);
    switch (flag) {
      case '--seed':
      case '--lifecycles':
      case '--concurrency':
        if (!Number.isInteger(number) || number < (flag === '--seed' ? 0 : 1))
          throw new Error(`${flag} needs a whole number, got ${value}`);
        options[flag.slice(2) as 'seed' | 'lifecycles' | 'concurrency'] = number;
        break;
      case '--only':
        options.only = value.split(',').map(Number);
        options.verbose = true;
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}; use --seed, --lifecycles, --concurrency, --only i,j`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  console.log(
    `Running ${options.lifecycles} lifecycles (seed ${options.seed}, concurrency ${options.concurrency}, on ${DEFAULT_RUNTIME})...`,
  );
  const report = await runCampaign({
    ...options,
    onResult: (result, done) => {
      if (!result.correct) console.log(`  lifecycle #${result.plan.index}: ${result.problems.join('; ')}`);
      if (options.verbose) {
        console.log(JSON.stringify({ ...result.plan, faults: undefined, postFaults: undefined }, null, 1));
        for (const f of [...result.plan.faults, ...result.plan.postFaults])
          console.log(`fault ${f.endpoint} ${f.kind} x${f.times} ${f.effect}`);
        console.log(
          `--- main (exit ${result.main?.exitCode}) ---\n${result.main?.stdout}\n${result.main?.stderr}`,
        );
        console.log(
          `outputs ${JSON.stringify(result.main?.outputs)} state ${JSON.stringify(result.main?.state)}`,
        );
        console.log(
          `--- post (exit ${result.post?.exitCode}) ---\n${result.post?.stdout}\n${result.post?.stderr}`,
        );
      }
      if (done % 25 === 0) console.log(`  ${done} / ${options.lifecycles} done`);
    },
  });
  console.log('');
  console.log(renderTable(report));
  if (report.failures.length > 0) {
    console.log('\nLifecycles that went wrong (replay with the same --seed):');
    console.log(describeFailures(report));
  }
  const passed = campaignPassed(report);
  console.log(passed ? '\nAll goals met.' : '\nGoals missed.');
  process.exitCode = passed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
