/**
 * `npm run recipe -- <sub-action> "<recipe title or heading>" [n]`: runs one README recipe, as written, against a
 * local simulator with the workflow engine the tests use (testkit/runner/workflow.ts), and
 * prints its steps as a runner would. The title is the workflow's `name:` or the README heading above
 * it, case aside; `n` picks among recipes of the same title (1 by default). A call that runs no recipe
 * (`npm run recipe` alone lists them; an unknown name gets the closest ones) exits 1. actions/checkout and actions/setup-node are replaced by
 * no-ops (said in the log); run: steps start in the user project the tests use
 * (testkit/docs/user-project.ts: agent-device installed offline, the recipes' scripts). It runs as the
 * tests run it (testkit/docs/recipe-run.ts): a status poll the recipe leaves at its default reads every
 * 0.05 s, the simulator's pace, not every 5 or 10 s. A recipe
 * started by `repository_dispatch` (the webhook relay's) gets the event the relay makes of a BUILD
 * delivery the simulator signed. A recipe started by `merge_group` runs as the workflow of a merge
 * group: pull request 1 enters the merge queue of the simulator's GitHub stand-in, which builds its
 * queue commit in the project's repository, and the run ends with the queue's view: the queue commit's
 * checks and whether every context the recipe's ruleset requires (`svc/<workflow>` of each gate) is
 * success there. Any other recipe runs as a pull request's workflow on the simulator's GitHub stand-in
 * (GITHUB_API_URL), and ends with that pull request as GitHub would show it: its checks, its comments
 * and its page's address. The simulator's addresses stay open until Ctrl-C when the output is a terminal or
 * with `--keep`; otherwise the command ends, saying that they close with it (testkit/docs/keep-open.ts).
 */
import { holdPages, keepChoice, keepCommand } from '../../testkit/docs/keep-open.js';
import { chooseRecipe } from '../../testkit/docs/recipes.js';
import type { Json } from '../../testkit/runner/expressions.js';
import type { World } from '../../testkit/world/world.js';

const NOOPS = ['actions/checkout', 'actions/setup-node'];
// The pages stay open at the end in a terminal or with --keep (testkit/docs/keep-open.ts).
const { args, keep } = keepChoice(process.argv.slice(2), process.stdout.isTTY);
const chosen = chooseRecipe(args);
if (!('recipe' in chosen)) {
  for (const line of chosen.lines) console.log(line);
  // It ran nothing: a script or a reader that expected a recipe to run is told so by the exit code.
  process.exit(1);
}
const { recipe } = chosen;

// The simulator, the engine and the user project load only once there is a recipe to run: a call
// that lists the recipes or corrects a name answers without them.
const { createWorld, stopLeftSessions } = await import('../../testkit/world/world.js');
const { runRecipe, signedDeliveries } = await import('../../testkit/docs/recipe-run.js');
const { createUserProject, removeUserProject } = await import('../../testkit/docs/user-project.js');
const { relayEvent } = await import('../../testkit/world/deliveries.js');
const { RECIPE_WORKFLOWS } = await import('../../testkit/docs/workflows.js');
const { pullRequestView } = await import('../../testkit/docs/pull-request-view.js');
const { enqueue } = await import('../../testkit/docs/merge-queue.js');

/**
 * The repository_dispatch event the README's relay makes of the BUILD delivery of a run's iOS build,
 * in a repository of the simulator's GitHub stand-in (where the relay workflow's release job creates its tag).
 */
async function relayedDelivery(world: World): Promise<Record<string, Json>> {
  const [delivery] = await signedDeliveries(world, 'build-ios-simulator.yml');
  return relayEvent(delivery, world.sim.github.url);
}

const world = await createWorld(RECIPE_WORKFLOWS);
console.log(
  `Recipe "${recipe.title}" (${recipe.file}) against the simulator at ${world.sim.url}; no-ops: ${NOOPS.join(', ')}`,
);
let failed: boolean;
const workspace = createUserProject();
try {
  const relayed = /\brepository_dispatch\b/.test(recipe.text);
  const queued = !relayed && /^\s+merge_group:/m.test(recipe.text);
  // A pull request on GitHub's stand-in: the comment and commit-status recipes post to it.
  const pullRequest = relayed
    ? undefined
    : world.sim.github.addPullRequest({ number: 1, head: world.repo.headSha });
  const entry = queued ? await enqueue(world.sim.github, 1, '1') : undefined;
  const github = relayed
    ? await relayedDelivery(world)
    : (entry?.context ?? {
        event_name: 'pull_request',
        sha: world.repo.headSha,
        repository: 'acme/app',
        api_url: world.sim.github.url,
        event: { pull_request: { number: 1, head: { sha: world.repo.headSha, ref: 'main' } } },
      });
  const result = await runRecipe(recipe.text, world, {
    github,
    noops: NOOPS,
    workspace,
    log: (line) => console.log(line),
  });
  failed = Object.values(result.jobs).some((job) => job.result === 'failure');
  if (pullRequest) {
    // The ruleset of a merge-queue recipe requires each gate's run context, `svc/<workflow>`.
    const required = [...recipe.text.matchAll(/^\s+workflow: ([\w.-]+?)\.ya?ml\s*$/gm)].map(
      ([, name]) => `svc/${name}`,
    );
    console.log(`\nThe pull request${entry ? ' and its merge-queue entry' : ''}, as GitHub would show it:`);
    const shown = world.sim.github.pullRequest('acme', 'app', pullRequest.number) ?? pullRequest;
    for (const line of pullRequestView(world.sim.github, shown, entry ? required : [])) console.log(line);
  }
  await holdPages({ keep, simulatorUrl: world.sim.url, command: keepCommand('recipe', args) });
} finally {
  await stopLeftSessions(world);
  await world.sim.close();
  removeUserProject(workspace);
}
process.exit(failed ? 1 : 0);
