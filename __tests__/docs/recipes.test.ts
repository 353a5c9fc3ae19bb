/**
 * Every recipe of the READMEs runs as written (issue 23 part B): each ```yaml block that is a workflow
 * or a job runs through the engine (GitHub's parser and expression evaluator, this checkout's bundles
 * for `uses:` of this repository, bash for `run:`) against the simulator, with the simulator's token,
 * URL and project id as `secrets`/`vars`. Third-party steps that cannot run here are no-ops named per
 * recipe. A block the table below does not name fails the suite: a new recipe must be run to land.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { findBlocks, findRecipes, type Recipe } from '../harness/recipes.js';
import { runWorkflow, type WorkflowResult } from '../harness/runner/workflow.js';
import { createWorld, stopLeftSessions, until, type World } from '../harness/world.js';
import { FakeGitHub } from '../harness/fake-github.js';
import { startReceiver } from '../harness/webhook-receiver.js';
import { call } from '../simulator/helpers.js';
import { BUILD_ANDROID, BUILD_IOS, workflow } from '../harness/workflows.js';

const CHECKOUT = 'actions/checkout';
const SETUP_NODE = 'actions/setup-node';

interface Expectation {
  /** Third-party actions replaced by a no-op in this recipe. */
  noops: string[];
  /** What the recipe's prose claims, checked on the result. */
  check: (result: WorkflowResult, world: World) => void;
  /**
   * Instead of one run as a pull request: the recipe run as many times as its prose needs, each with
   * its own github context (a repository_dispatch event, for the webhook receiver).
   */
  scenario?: (run: (github: Record<string, unknown>) => Promise<WorkflowResult>) => Promise<void>;
  /** Set when the recipe cannot pass for a reason outside the engine: the reason. */
  failing?: string;
}

const DEVICE_REASON =
  'its run: steps are the user project (npm ci, npx agent-device / Appium / argent, npm run test:e2e:*): ' +
  'they need a user-project fixture and the simulator device controllers of issue 25 item 11 (polish)';

/** Recipes by file and title (a title may repeat within a file: then by order). */
const RECIPES: Record<string, Expectation[]> = {
  'run-workflow/README.md › PR gate': [
    {
      noops: [],
      check: (result) => {
        const job = result.jobs.e2e;
        expect(job.result).toBe('success');
        expect(job.steps[0].outputs.status).toBe('success');
        expect(job.steps[0].outputs['run-id']).not.toBe('');
        expect(job.steps[1].log).toMatch(/^Run http\S+ ended success; builds /m);
      },
    },
  ],
  'run-workflow/README.md › PR gate with a status per remote job': [
    {
      noops: [],
      check: (result, world) => {
        expect(result.jobs.e2e.result).toBe('success');
        const final: Record<string, string> = {};
        for (const status of github.statuses) {
          expect(status.sha).toBe(world.repo.headSha);
          final[status.context] = status.state;
        }
        expect(final).toEqual({
          'svc/e2e': 'success',
          'svc/e2e/build_ios': 'success',
          'svc/e2e/test': 'success',
        });
      },
    },
  ],
  'run-workflow/README.md › PR gate on the builds': [
    {
      noops: [],
      check: (result) => {
        const job = result.jobs.builds;
        expect(job.result).toBe('success');
        expect(job.steps[1].log).toMatch(/^Builds \S+ passed; the submission goes on\.$/m);
      },
    },
  ],
  'start-device-session/README.md › iOS end-to-end': [
    { noops: [CHECKOUT, SETUP_NODE], check: deviceStopped, failing: DEVICE_REASON },
  ],
  'start-device-session/README.md › Android end-to-end': [
    { noops: [CHECKOUT, SETUP_NODE], check: deviceStopped, failing: DEVICE_REASON },
  ],
  'start-device-session/README.md › argent end-to-end': [
    { noops: [CHECKOUT, SETUP_NODE], check: deviceStopped, failing: DEVICE_REASON },
  ],
  'start-device-session/README.md › Device matrix': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: deviceStopped,
      failing: `${DEVICE_REASON}; and strategy.matrix is not expanded by the engine yet`,
    },
  ],
  'start-device-session/README.md › Build, then test on a device': [
    { noops: [CHECKOUT, SETUP_NODE], check: deviceStopped, failing: DEVICE_REASON },
  ],
  'stop-device-session/README.md › One device, three jobs': [
    { noops: [CHECKOUT, SETUP_NODE], check: deviceStopped, failing: DEVICE_REASON },
  ],
  'verify-webhook/README.md › Service webhook': [
    {
      // The first receiver: fail the relay on a failed build, and pass the reason on.
      noops: [],
      check: () => undefined,
      scenario: async (run) => {
        const finished = await run(dispatchEvent(deliveries.finished));
        expect(finished.jobs.handle.result).toBe('success');
        expect(finished.jobs.handle.steps[1].outputs.status).toBe('finished');
        expect(finished.jobs.handle.steps[2].outcome).toBe('skipped');
        const errored = await run(dispatchEvent(deliveries.errored));
        expect(errored.jobs.handle.result).toBe('failure');
        expect(errored.jobs.handle.steps[1].outcome).toBe('failure');
        expect(errored.jobs.handle.steps[2].log).toMatch(/^BUILD \S+ ended errored: \S*: Gradle failed/m);
      },
    },
    {
      // The second receiver: branch on the verified outputs; an altered body is rejected.
      noops: [],
      check: () => undefined,
      scenario: async (run) => {
        const finished = await run(dispatchEvent(deliveries.finished));
        expect(finished.jobs.handle.result).toBe('success');
        expect(finished.jobs.handle.steps[2].log).toMatch(/^Build \S+ \(ios\) finished$/m);
        // The release job, once per delivery: keyed by the delivery (webhook-relay.test.ts repeats one).
        expect(finished.jobs.handle.outputs['delivery-key']).toMatch(/^[0-9a-f]{64}$/);
        expect(finished.jobs.release.result).toBe('success');
        const altered = { ...deliveries.finished, body: `${deliveries.finished.body} ` };
        const rejected = await run(dispatchEvent(altered));
        expect(rejected.jobs.handle.steps[1].outcome).toBe('failure');
        expect(rejected.jobs.handle.steps[1].outputs.status ?? '').toBe('');
        expect(rejected.jobs.handle.steps[2].outcome).toBe('skipped');
        expect(rejected.jobs.handle.result).toBe('failure');
        expect(rejected.jobs.release.result).toBe('skipped');
      },
    },
  ],
  'wait-for-device-session/README.md › iOS end-to-end, device started early': [
    { noops: [CHECKOUT, SETUP_NODE], check: deviceStopped, failing: DEVICE_REASON },
  ],
  'wait-for-run/README.md › Dispatch early, wait later': [
    {
      noops: [CHECKOUT],
      check: (result) => {
        expect(result.jobs['unit-tests'].steps[1].log).toMatch(/unit tests: 3 passed/);
        const runId = result.jobs.dispatch.outputs['run-id'];
        expect(runId).toMatch(/^[0-9a-f-]{36}$/);
        expect(result.jobs.dispatch.steps[0].outputs.status).toBe('new');
        expect(result.jobs.e2e.steps[0].outputs['run-id']).toBe(runId);
        expect(result.jobs.e2e.steps[0].outputs.status).toBe('success');
        expect(result.jobs.e2e.result).toBe('success');
      },
    },
  ],
};

function deviceStopped(result: WorkflowResult, world: World): void {
  for (const job of Object.values(result.jobs)) expect(job.result).toBe('success');
  expect(world.sim.activeSessions()).toEqual([]);
}

const recipes = findRecipes();
const keyOf = (recipe: Recipe): string => `${recipe.file} › ${recipe.title}`;
const seen: Record<string, number> = {};
const planned = recipes.map((recipe) => {
  const key = keyOf(recipe);
  const index = (seen[key] = (seen[key] ?? -1) + 1);
  return { recipe, key: index > 0 ? `${key} (${index + 1})` : key, expectation: RECIPES[key]?.[index] };
});

/**
 * The user's checkout the recipes' run: steps start in: a project with no dependencies whose `npm test`
 * passes (what `npm ci && npm test` of a recipe stands for), so those steps run as written.
 */
function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-recipe-project-'));
  const pkg = {
    name: 'user-app',
    version: '1.0.0',
    private: true,
    scripts: { test: 'echo "unit tests: 3 passed"' },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  // Offline: a recipe step that would fetch a package (npx agent-device) fails at once, never downloads.
  writeFileSync(join(dir, '.npmrc'), 'offline=true\n');
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({
      name: 'user-app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': pkg },
    }),
  );
  return dir;
}

const WEBHOOK_SECRET = 'recipe-webhook-secret-0123456789';
interface Delivery {
  body: string;
  signature: string;
}
/** Deliveries the simulator signed and sent for a run with a finished and an errored build. */
const deliveries: { finished: Delivery; errored: Delivery } = {
  finished: { body: '', signature: '' },
  errored: { body: '', signature: '' },
};

/** The repository_dispatch event the relay sends for `delivery` (the README's client_payload). */
function dispatchEvent(delivery: Delivery): Record<string, unknown> {
  return {
    event_name: 'repository_dispatch',
    event: {
      action: 'svc-webhook',
      client_payload: {
        body_base64: Buffer.from(delivery.body).toString('base64'),
        signature: delivery.signature,
      },
    },
  };
}

let world: World;
let workspace: string;
/** A fake of GitHub's API: the statuses the commit-statuses recipe posts. */
const github = new FakeGitHub();
beforeAll(async () => {
  workspace = userProject();
  await github.start();
  world = await createWorld({
    'e2e.yml': workflow(
      'E2E',
      { ...BUILD_IOS, test: { name: 'Tests', needs: ['build_ios'] } },
      { profile: { type: 'string' } },
    ),
    'release.yml': workflow('Release', { ...BUILD_IOS, ...BUILD_ANDROID }),
    'build-and-submit.yml': workflow('Build and submit', {
      ...BUILD_IOS,
      ...BUILD_ANDROID,
      submit: { type: 'submit', needs: ['build_ios', 'build_android'], params: { platform: 'ios' } },
    }),
    'build-ios-simulator.yml': workflow('Build for the simulator', BUILD_IOS),
    'webhook.yml': workflow('Webhook', { ...BUILD_IOS, ...BUILD_ANDROID }),
  });
  // The simulator signs and sends real deliveries: a finished iOS build, an errored Android build.
  const receiver = await startReceiver(() => 200);
  world.sim.webhooks.add({
    projectId: world.project.id,
    event: 'BUILD',
    url: receiver.url,
    secret: WEBHOOK_SECRET,
  });
  world.sim.setJobBehaviour('build_android', { outcome: 'failure', errorMessage: 'Gradle failed' });
  const reply = await call(world.sim, 'POST', '/v2/workflows/dispatch', {
    token: world.token,
    body: { appId: world.project.id, gitRef: 'main', fileName: 'webhook.yml' },
  });
  await until(() => ['failure', 'success'].includes(world.sim.getRun(reply.json.data.id)?.status ?? ''));
  await world.sim.webhooks.idle();
  world.sim.setJobBehaviour('build_android', { outcome: 'success' });
  for (const request of receiver.received) {
    const delivery = {
      body: request.body.toString('utf8'),
      signature: request.headers['svc-signature'] as string,
    };
    const status = (JSON.parse(delivery.body) as { status: string }).status;
    if (status === 'finished') deliveries.finished = delivery;
    if (status === 'errored') deliveries.errored = delivery;
  }
  await receiver.close();
});
afterAll(async () => {
  await stopLeftSessions(world);
  await world.sim.close();
  rmSync(workspace, { recursive: true, force: true });
  await github.close();
});

describe('the README recipes', () => {
  test('every workflow or job block of the READMEs is a recipe this file runs', () => {
    const blocks = findBlocks();
    const workflowsAndJobs = blocks.filter((block) => block.kind !== 'steps');
    console.log(
      `${blocks.length} yaml blocks: ${workflowsAndJobs.length} workflows or jobs (recipes), ` +
        `${blocks.length - workflowsAndJobs.length} step snippets; ${planned.filter((p) => p.expectation).length} recipes run`,
    );
    expect(planned.filter((p) => !p.expectation).map((p) => p.key)).toEqual([]);
    expect(planned.filter((p) => p.expectation)).toHaveLength(workflowsAndJobs.length);
  });

  for (const { recipe, key, expectation } of planned) {
    if (!expectation) continue;
    const run = expectation.failing ? test.failing : test;
    run(
      `${key} runs as written`,
      async () => {
        const lines: string[] = [];
        const runAs = (github: Record<string, unknown>): Promise<WorkflowResult> =>
          runWorkflow(recipe.text, {
            secrets: { SVC_TOKEN: world.token, SVC_WEBHOOK_SECRET: WEBHOOK_SECRET },
            vars: { SVC_BASE_URL: world.sim.url, SVC_APP_ID: world.project.id },
            github: github as Record<string, never>,
            noops: expectation.noops,
            workspace,
            log: (line) => lines.push(line),
          });
        if (expectation.scenario) {
          try {
            return await expectation.scenario(runAs);
          } catch (error) {
            throw new Error(`${(error as Error).message}\n--- the runs ---\n${lines.join('\n')}`, {
              cause: error,
            });
          }
        }
        const result = await runWorkflow(recipe.text, {
          secrets: { SVC_TOKEN: world.token, SVC_WEBHOOK_SECRET: WEBHOOK_SECRET },
          vars: { SVC_BASE_URL: world.sim.url, SVC_APP_ID: world.project.id },
          github: {
            event_name: 'pull_request',
            sha: world.repo.headSha,
            repository: 'acme/app',
            api_url: github.url,
            ref: 'refs/pull/7/merge',
            event: { pull_request: { number: 7, head: { sha: world.repo.headSha, ref: 'main' } } },
          },
          noops: expectation.noops,
          workspace,
          log: (line) => lines.push(line),
        });
        try {
          expectation.check(result, world);
        } catch (error) {
          // The steps as a runner prints them, so a failing recipe says which step did what.
          throw new Error(`${(error as Error).message}\n--- the run ---\n${lines.join('\n')}`, {
            cause: error,
          });
        }
        expect(result.noopsRun.every((name) => expectation.noops.includes(name))).toBe(true);
      },
      120_000,
    );
  }
});
