/**
 * The tests of the recipes of one README, run as written (issue 23 part B): each ```yaml block that is
 * a workflow or a job runs through the engine (GitHub's parser and expression evaluator, this
 * checkout's bundles for `uses:` of this repository, bash for `run:`) against the simulator, with the
 * simulator's token, URL and project id as `secrets`/`vars` (testkit/docs/recipe-run.ts), and is checked
 * with its entry in RECIPES (testkit/docs/recipe-table.ts). Third-party steps that cannot run here are
 * no-ops named per recipe. The test files of __tests__/recipes/ that RECIPE_TEST_FILES names each call
 * `describeRecipes` for their share, so the recipes run side by side in Jest's workers; each file has a
 * world of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { GitHubStandIn } from '../../simulator/index.js';
import type { Json } from '../runner/expressions.js';
import type { WorkflowResult } from '../runner/workflow.js';
import { createWorld, stopLeftSessions } from '../world/world.js';
import type { Delivery } from '../world/deliveries.js';
import { RECIPE_WORKFLOWS } from './workflows.js';
import { createUserProject, removeUserProject } from './user-project.js';
import { runRecipe, signedDeliveries } from './recipe-run.js';
import { plannedRecipes, RECIPE_TEST_FILES, runsIn, type RecipeWorld } from './recipe-table.js';
import { enqueue } from './merge-queue.js';

/**
 * The recipes that the test file `name` of RECIPE_TEST_FILES runs, one test each, in a `describe` of
 * their own. A name that runs no recipe is an error: its test file would run nothing.
 */
export function describeRecipes(name: string): void {
  if (!(name in RECIPE_TEST_FILES)) throw new Error(`${name} is not a test file of RECIPE_TEST_FILES`);
  const planned = plannedRecipes().filter(({ recipe }) => runsIn(name, recipe));
  if (planned.length === 0) throw new Error(`${name} runs no recipe: RECIPE_TEST_FILES names none`);

  /** The world the file's recipes share, set up before the first. */
  let recipes: RecipeWorld;
  /** The sessions there were when the current recipe began. */
  let sessionsBefore = 0;
  /** The lines of the current recipe's runs, printed when it fails. */
  let lines: string[] = [];
  /** GitHub run ids: each recipe run is a workflow run of its own (the statuses tell runs apart by it). */
  let githubRuns = 100;

  beforeAll(async () => {
    const workspace = createUserProject();
    const github = new GitHubStandIn();
    await github.start();
    const world = await createWorld(RECIPE_WORKFLOWS);
    // The merge queue builds its commits in the project's repository (testkit/docs/merge-queue.ts).
    github.linkRepository(world.repo);
    // The service echoes text from elsewhere in an error message: here, a workflow command.
    world.sim.setJobBehaviour('build_android', {
      outcome: 'failure',
      errorMessage: 'Gradle failed ##[warning]forged by the payload',
    });
    // The simulator signs and sends real deliveries: a finished iOS build, an errored Android build.
    const sent = await signedDeliveries(world, 'webhook.yml');
    world.sim.setJobBehaviour('build_android', { outcome: 'success' });
    const withStatus = (status: string): Delivery =>
      sent.find(
        (delivery) => (JSON.parse(delivery.body.toString('utf8')) as { status: string }).status === status,
      )!;
    recipes = {
      world,
      github,
      workspace,
      deliveries: { finished: withStatus('finished'), errored: withStatus('errored') },
      newSessions: () => world.sim.sessions().slice(sessionsBefore),
      pullRequestContext: () => ({
        run_id: String(++githubRuns),
        event_name: 'pull_request',
        sha: world.repo.headSha,
        repository: 'acme/app',
        api_url: github.url,
        ref: 'refs/pull/7/merge',
        event: { pull_request: { number: 7, head: { sha: world.repo.headSha, ref: 'main' } } },
      }),
      enqueue: () => {
        github.addPullRequest({ number: 7, head: world.repo.headSha });
        return enqueue(github, 7, String(++githubRuns));
      },
      log: (line) => lines.push(line),
    };
  });
  afterAll(async () => {
    await stopLeftSessions(recipes.world);
    await recipes.world.sim.close();
    removeUserProject(recipes.workspace);
    await recipes.github.close();
  });

  describe(`the recipes of ${RECIPE_TEST_FILES[name].readme}`, () => {
    for (const { recipe, key, expectation } of planned) {
      // A recipe without its entry fails in __tests__/recipes/recipe-table.test.ts, for every README.
      if (!expectation) continue;
      test(`${key} runs as written`, async () => {
        sessionsBefore = recipes.world.sim.sessions().length;
        lines = [];
        const runAs = (context: Record<string, Json>): Promise<WorkflowResult> =>
          runRecipe(recipe.text, recipes.world, {
            github: context,
            noops: expectation.noops,
            workspace: recipes.workspace,
            log: recipes.log,
          });
        // The steps as a runner prints them, so a failing recipe says which step did what.
        const withRuns = (error: unknown, title: string): Error =>
          new Error(`${(error as Error).message}\n--- ${title} ---\n${lines.join('\n')}`, { cause: error });
        if (expectation.scenario) {
          try {
            return await expectation.scenario(runAs, recipes);
          } catch (error) {
            throw withRuns(error, 'the runs');
          }
        }
        const result = await runAs(recipes.pullRequestContext());
        try {
          expectation.check(result, recipes);
        } catch (error) {
          throw withRuns(error, 'the run');
        }
        expect(result.noopsRun.every((name) => expectation.noops.includes(name))).toBe(true);
      }, 120_000);
    }
  });
}
