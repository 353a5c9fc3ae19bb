/**
 * `npm run recipe -- <sub-action> "<recipe title>"`: runs one README recipe, as written, against a
 * local simulator with the workflow engine the tests use (__tests__/harness/runner/workflow.ts), and prints its
 * steps as a runner would. `npm run recipe` alone lists the recipes. actions/checkout and
 * actions/setup-node are replaced by no-ops (said in the log); run: steps start in the user project the
 * tests use (__tests__/harness/user-project.ts: agent-device installed offline, the recipes' scripts).
 */
import { createWorld } from '../../__tests__/harness/world.js';
import { findRecipes } from '../../__tests__/harness/recipes.js';
import { runWorkflow } from '../../__tests__/harness/runner/workflow.js';
import { createUserProject, removeUserProject } from '../../__tests__/harness/user-project.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../../__tests__/harness/workflows.js';

const NOOPS = ['actions/checkout', 'actions/setup-node'];
const [where, title] = process.argv.slice(2);
const recipes = findRecipes();
const file = where === 'root' || where === undefined ? 'README.md' : `${where}/README.md`;
const recipe = recipes.find((r) => r.file === file && r.title === title);
if (!recipe) {
  console.log(title ? `No recipe "${title}" in ${file}. The recipes:` : 'The recipes:');
  for (const r of recipes)
    console.log(`  npm run recipe -- ${r.file.replace(/\/?README\.md$/, '') || 'root'} "${r.title}"`);
  process.exit(title ? 1 : 0);
}

const world = await createWorld({
  'e2e.yml': workflow(
    'E2E',
    { ...BUILD_IOS, test: { name: 'Tests', needs: ['build_ios'] } },
    { profile: { type: 'string' } },
  ),
  'release.yml': workflow('Release', { ...BUILD_IOS, ...BUILD_ANDROID }),
  'build-and-submit.yml': workflow('Build and submit', { ...BUILD_IOS, ...BUILD_ANDROID }),
  'build-ios-simulator.yml': workflow('Build for the simulator', BUILD_IOS),
});
console.log(
  `Recipe "${recipe.title}" (${recipe.file}) against the simulator at ${world.sim.url}; no-ops: ${NOOPS.join(', ')}`,
);
let failed: boolean;
const workspace = createUserProject();
try {
  const result = await runWorkflow(recipe.text, {
    secrets: { SVC_TOKEN: world.token },
    vars: { SVC_BASE_URL: world.sim.url, SVC_APP_ID: world.project.id },
    github: {
      event_name: 'pull_request',
      sha: world.repo.headSha,
      event: { pull_request: { number: 1, head: { sha: world.repo.headSha, ref: 'main' } } },
    },
    noops: NOOPS,
    workspace,
    log: (line) => console.log(line),
  });
  failed = Object.values(result.jobs).some((job) => job.result === 'failure');
} finally {
  for (const session of world.sim.activeSessions())
    await fetch(`${world.sim.url}/v2/device-run-sessions/${session.id}/stop`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.token}` },
    });
  await world.sim.close();
  removeUserProject(workspace);
}
process.exit(failed ? 1 : 0);
