/**
 * How a README recipe runs against a local simulator, the one way for the recipe tests
 * (testkit/docs/recipe-tests.ts) and `npm run recipe` (scripts/recipe/main.ts): on the workflow engine
 * (testkit/runner/workflow.ts), with the simulator's token, URL and project id as the `secrets` and
 * `vars` the recipes read, in the user project (testkit/docs/user-project.ts).
 */
import type { Json } from '../runner/expressions.js';
import { runWorkflow, type WorkflowResult } from '../runner/workflow.js';
import type { World } from '../world/world.js';
import { deliveriesOf, receiveBuildWebhooks, runAndDeliver, type Delivery } from '../world/deliveries.js';

/** The webhook secret of the recipes' `secrets.SVC_WEBHOOK_SECRET`, which signs the deliveries they verify. */
export const RECIPE_WEBHOOK_SECRET = 'recipe-webhook-secret-0123456789';

/**
 * The defaults of the actions' inputs that differ here (a value the recipe writes is kept): the
 * simulator's jobs take a tenth of a second and its devices are ready as fast, so a status read
 * every 5 or 10 s (the defaults a real service needs) would only wait; no check reads the pace.
 */
export const SIMULATOR_INPUT_DEFAULTS: Readonly<Record<string, string>> = { 'poll-interval-seconds': '0.05' };

export interface RecipeRunOptions {
  /** The github context of the run (event_name, event, sha, api_url…). */
  github: Record<string, Json>;
  /** The third-party actions replaced by a no-op. */
  noops: string[];
  /** The user project the `run:` steps start in. */
  workspace: string;
  log?: (line: string) => void;
}

/** Runs `text` (a recipe's workflow or job, as written) against `world`'s simulator. */
export function runRecipe(text: string, world: World, options: RecipeRunOptions): Promise<WorkflowResult> {
  return runWorkflow(text, {
    secrets: { SVC_TOKEN: world.token, SVC_WEBHOOK_SECRET: RECIPE_WEBHOOK_SECRET },
    vars: { SVC_BASE_URL: world.sim.url, SVC_APP_ID: world.project.id },
    github: options.github,
    noops: options.noops,
    workspace: options.workspace,
    inputDefaults: SIMULATOR_INPUT_DEFAULTS,
    log: options.log,
  });
}

/**
 * The BUILD deliveries the simulator signs with RECIPE_WEBHOOK_SECRET and sends for one run of
 * `fileName`, in order. The webhook is removed afterwards: later builds of the world deliver nothing
 * to a receiver that is gone (and retry meanwhile).
 */
export async function signedDeliveries(world: World, fileName: string): Promise<Delivery[]> {
  const { sim } = world;
  const receiver = await receiveBuildWebhooks(sim, world.project, RECIPE_WEBHOOK_SECRET);
  try {
    await runAndDeliver(sim, world.project, world.token, fileName);
  } finally {
    for (const webhook of sim.webhooks.list(world.project.id)) sim.webhooks.remove(webhook.id);
    await receiver.close();
  }
  return deliveriesOf(receiver);
}
