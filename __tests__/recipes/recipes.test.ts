/**
 * Every recipe of the READMEs runs as written (issue 23 part B): each ```yaml block that is a workflow
 * or a job runs through the engine (GitHub's parser and expression evaluator, this checkout's bundles
 * for `uses:` of this repository, bash for `run:`) against the simulator, with the simulator's token,
 * URL and project id as `secrets`/`vars`. Third-party steps that cannot run here are no-ops named per
 * recipe. A block the table below does not name fails the suite: a new recipe must be run to land.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { findBlocks, findRecipe, findRecipes, type Recipe } from '../../testkit/docs/recipes.js';
import { runWorkflow, type WorkflowResult } from '../../testkit/runner/workflow.js';
import { createWorld, stopLeftSessions, until, type World } from '../../testkit/world/world.js';
import { GitHubStandIn } from '../../simulator/index.js';
import {
  deliveriesOf,
  receiveBuildWebhooks,
  relayEvent,
  runAndDeliver,
  type Delivery,
} from '../../testkit/world/deliveries.js';
import { createUserProject, removeUserProject } from '../../testkit/docs/user-project.js';
import { RECIPE_WORKFLOWS } from '../../testkit/docs/workflows.js';

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
}

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
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        // agent-device, installed by `npm ci`, drives the session's daemon with what the step exported.
        expect(logOf(result)).toMatch(/^iPhone 16 \(ios simulator target=mobile\) booted=true$/m);
        expect(logOf(result)).toMatch(/\/e2e-ios\.png$/m);
        expect(logOf(result)).toMatch(/^Session http\S+, browser preview http\S+$/m);
        expect(newSessions(world).map((session) => session.name)).toEqual(['pr-7-ios']);
        deviceStopped(result, world);
      },
    },
  ],
  'start-device-session/README.md › Android end-to-end': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        // e2e/appium.mjs as the README writes it, with webdriverio, against the session's Appium URL.
        expect(logOf(result)).toMatch(/^The screen has \d+ characters of page source\.$/m);
        expect(newSessions(world).map((session) => [session.platform, session.type])).toEqual([
          ['android', 'appium'],
        ]);
        deviceStopped(result, world);
      },
    },
  ],
  'start-device-session/README.md › argent end-to-end': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        expect(logOf(result)).toMatch(/^argent tools: list-devices, screenshot, gesture-tap$/m);
        expect(logOf(result)).toMatch(/^argent e2e: screenshot of \S+ taken, tapped$/m);
        deviceStopped(result, world);
      },
    },
  ],
  'start-device-session/README.md › Device matrix': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        // One session per matrix entry, each named after its device and stopped by its own post step.
        expect(newSessions(world).map((session) => session.name)).toEqual([
          'ios iPhone 16',
          'ios iPad Air 13-inch (M2)',
          'android pixel_7',
        ]);
        for (const device of ['iPhone 16', 'iPad Air 13-inch (M2)', 'pixel_7'])
          expect(logOf(result)).toContain(`e2e passed on ${device}`);
        deviceStopped(result, world);
      },
    },
  ],
  'start-device-session/README.md › Build, then test on a device': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        // The build job's build id crosses to the next job and becomes the session's app.
        const buildId = result.jobs.build.outputs['build-id'];
        expect(buildId).toMatch(/^[0-9a-f-]{36}$/);
        expect(newSessions(world).map((session) => session.buildId)).toEqual([buildId]);
        expect(logOf(result)).toMatch(/\/e2e-ios\.png$/m);
        deviceStopped(result, world);
      },
    },
  ],
  'stop-device-session/README.md › One device, three jobs': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        // Started in one job, used in the next, stopped by the third: one session for all three.
        const sessionId = result.jobs.start.outputs['session-id'];
        expect(newSessions(world).map((session) => session.id)).toEqual([sessionId]);
        expect(result.jobs.e2e.result).toBe('success');
        expect(logOf(result, 'e2e')).toMatch(/\/e2e-ios\.png$/m);
        expect(result.jobs.stop.steps.at(-1)?.outputs.status).toBe('stopped');
        deviceStopped(result, world);
      },
    },
  ],
  'verify-webhook/README.md › Service webhook': [
    {
      // The first workflow: fail the relay on a failed build, and pass the reason on in a file.
      noops: [],
      check: () => undefined,
      scenario: async (run) => {
        const finished = await run(relayEvent(deliveries.finished, github.url));
        expect(finished.jobs.handle.result).toBe('success');
        expect(finished.jobs.handle.steps[1].outputs.status).toBe('finished');
        expect(finished.jobs.handle.steps[2].outcome).toBe('skipped');
        const errored = await run(relayEvent(deliveries.errored, github.url));
        expect(errored.jobs.handle.result).toBe('failure');
        expect(errored.jobs.handle.steps[1].outcome).toBe('failure');
        expect(errored.jobs.handle.steps[2].log).toMatch(
          /^The reason why BUILD [0-9a-f-]{36} failed is in svc-failure\.json\.$/m,
        );
        for (const result of [finished, errored]) expectNothingOfThePayloadRead(result);
      },
    },
    {
      // The second workflow: branch on the verified outputs, release once; an altered body is rejected.
      noops: [],
      check: () => undefined,
      scenario: async (run) => {
        const finished = await run(relayEvent(deliveries.finished, github.url));
        expect(finished.jobs.handle.result).toBe('success');
        expect(finished.jobs.handle.steps[2].log).toMatch(/^Build \S+ \(ios\) finished$/m);
        const key = finished.jobs.handle.outputs['delivery-key'];
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        // The release job claims the delivery with its tag first, then releases.
        expect(finished.jobs.release.result).toBe('success');
        expect(github.refs).toContain(`refs/tags/svc-delivery/${key}`);
        expect(finished.jobs.release.steps[1].log).toBe(`Releasing what delivery ${key} announced`);

        // The same signed body again, after the relay's window (it no longer remembers the event): it
        // verifies, as a signed body does for ever, but the tag exists and nothing is released.
        const replayed = await run(relayEvent(deliveries.finished, github.url));
        expect(replayed.jobs.handle.result).toBe('success');
        expect(replayed.jobs.handle.outputs['delivery-key']).toBe(key);
        expect(replayed.jobs.release.result).toBe('success');
        expect(replayed.jobs.release.steps[0].log).toBe(
          `Delivery ${key} was claimed before (its tag exists): nothing to release.`,
        );
        expect(replayed.jobs.release.steps[1].outcome).toBe('skipped');

        const altered = {
          ...deliveries.finished,
          body: Buffer.concat([deliveries.finished.body, Buffer.from(' ')]),
        };
        const rejected = await run(relayEvent(altered, github.url));
        expect(rejected.jobs.handle.steps[1].outcome).toBe('failure');
        expect(rejected.jobs.handle.steps[1].outputs.status ?? '').toBe('');
        expect(rejected.jobs.handle.steps[2].outcome).toBe('skipped');
        expect(rejected.jobs.handle.result).toBe('failure');
        expect(rejected.jobs.release.result).toBe('skipped');
        const errored = await run(relayEvent(deliveries.errored, github.url));
        expect(errored.jobs.handle.steps[3].outcome).toBe('failure');
        for (const result of [finished, replayed, rejected, errored]) expectNothingOfThePayloadRead(result);
      },
    },
  ],
  'sync-statuses/README.md › PR gate that holds no runner': [
    {
      noops: [],
      check: (result, world) => {
        expect(result.jobs.dispatch.result).toBe('success');
        expect(result.jobs.dispatch.steps[0].outputs.outcome).toBe('dispatched');
        // This gate's statuses: those that name its run (an earlier recipe posted svc/e2e too).
        const runId = result.jobs.dispatch.steps[0].outputs['run-id'];
        const left = github.statuses.filter((status) => status.description?.includes(`[svc:${runId}`));
        expect(left.length).toBeGreaterThan(0);
        for (const status of left) {
          expect(status.sha).toBe(world.repo.headSha);
          expect(status.state).toBe('pending');
          expect(status.description).toContain('sync-statuses settles it');
        }
      },
    },
  ],
  'sync-statuses/README.md › Settle svc commit statuses': [
    {
      // A gate that left its statuses pending, then the sync on each of its three triggers.
      noops: [],
      check: () => undefined,
      scenario: async (run) => {
        const head = world.repo.headSha;
        github.addPullRequest({ number: 7, head });
        const gate = findRecipe('sync-statuses/README.md', 'PR gate that holds no runner')!;
        const leaveStatuses = async (): Promise<void> => {
          github.statuses.length = 0;
          const left = await runWorkflow(gate.text, {
            secrets: { SVC_TOKEN: world.token },
            vars: { SVC_BASE_URL: world.sim.url, SVC_APP_ID: world.project.id },
            github: pullRequestContext() as Record<string, never>,
            workspace,
          });
          const runId = left.jobs.dispatch.steps[0].outputs['run-id'];
          await until(() => world.sim.runs().find((r) => r.id === runId && r.status === 'success'));
        };
        const on = { repository: 'acme/app', api_url: github.url };
        const settled = () =>
          Object.fromEntries(
            github.statuses.filter((status) => status.sha === head).map((s) => [s.context, s.state]),
          );

        await leaveStatuses();
        const scheduled = await run({ ...on, event_name: 'schedule', event: {} });
        expect(scheduled.jobs.sync.result).toBe('success');
        expect(scheduled.jobs.sync.steps[0].outcome).toBe('skipped');
        expect(Number(scheduled.jobs.sync.steps[1].outputs.settled)).toBeGreaterThan(0);
        expect(Object.values(settled()).every((state) => state === 'success')).toBe(true);
        // By hand, after the schedule: nothing left to settle.
        const byHand = await run({ ...on, event_name: 'workflow_dispatch', event: {} });
        expect(byHand.jobs.sync.steps[1].outputs).toMatchObject({ settled: '0', pending: '0', refused: '0' });

        // The relay's repository_dispatch of a build delivery: that build's commit, at once.
        await leaveStatuses();
        const relayed = await run({ ...on, ...relayEvent(deliveries.finished, github.url) });
        expect(relayed.jobs.sync.steps[0].outputs.commit).toBe(head);
        expect(Number(relayed.jobs.sync.steps[1].outputs.settled)).toBeGreaterThan(0);
        expect(Object.values(settled()).every((state) => state === 'success')).toBe(true);
        // The sync read the one commit it was given, not the pull requests.
        expect(relayed.jobs.sync.steps[1].log).not.toContain('Open pull requests');
      },
    },
  ],
  'wait-for-device-session/README.md › iOS end-to-end, device started early': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, world) => {
        // The build ran while the device was provisioned; the tests ran once it was ready.
        const log = logOf(result);
        expect(log.indexOf('e2e build: done')).toBeGreaterThan(-1);
        expect(log.indexOf('e2e build: done')).toBeLessThan(log.indexOf('e2e-ios.png'));
        expect(newSessions(world)).toHaveLength(1);
        deviceStopped(result, world);
      },
    },
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

/**
 * What the relay workflows show of a delivery: neither the body nor the signature appears in any step's
 * header (`env:`, `with:`) or log, the verify step receives the signature masked, and no text of the
 * payload becomes a workflow command (the errored delivery's message carries a `##[warning]`).
 */
function expectNothingOfThePayloadRead(result: WorkflowResult): void {
  const bodies = [deliveries.finished, deliveries.errored].flatMap((delivery) => [
    delivery.body.toString('base64'),
    delivery.body.toString('utf8'),
    delivery.signature,
  ]);
  for (const job of Object.values(result.jobs))
    for (const step of job.steps) {
      for (const shown of bodies) expect(`${step.header}\n${step.log}`).not.toContain(shown);
      expect(step.annotations.filter((annotation) => annotation.kind === 'warning')).toEqual([]);
    }
  const verify = result.jobs.handle.steps[1];
  expect(verify.header).toMatch(/^ {2}signature: \*\*\*$/m);
}

/** Every step's log of every job (or of `only` that job), as one text. */
function logOf(result: WorkflowResult, only?: string): string {
  return Object.entries(result.jobs)
    .filter(([id]) => only === undefined || id === only)
    .flatMap(([, job]) => job.steps.map((step) => step.log))
    .join('\n');
}

/** The sessions created since the current test began (the world is shared by the recipes). */
let sessionsBefore = 0;
function newSessions(world: World): ReturnType<World['sim']['sessions']> {
  return world.sim.sessions().slice(sessionsBefore);
}

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

const WEBHOOK_SECRET = 'recipe-webhook-secret-0123456789';
/** Deliveries the simulator signed and sent for a run with a finished and an errored build. */
const deliveries: { finished: Delivery; errored: Delivery } = {
  finished: { body: Buffer.alloc(0), signature: '' },
  errored: { body: Buffer.alloc(0), signature: '' },
};

let world: World;
let workspace: string;
/** GitHub's stand-in (the simulator's): the statuses, pull requests and refs the recipes meet. */
const github = new GitHubStandIn();
beforeAll(async () => {
  workspace = createUserProject();
  await github.start();
  world = await createWorld(RECIPE_WORKFLOWS);
  // The simulator signs and sends real deliveries: a finished iOS build, an errored Android build.
  const receiver = await receiveBuildWebhooks(world.sim, world.project, WEBHOOK_SECRET);
  // The service echoes text from elsewhere in an error message: here, a workflow command.
  world.sim.setJobBehaviour('build_android', {
    outcome: 'failure',
    errorMessage: 'Gradle failed ##[warning]forged by the payload',
  });
  await runAndDeliver(world.sim, world.project, world.token, 'webhook.yml');
  world.sim.setJobBehaviour('build_android', { outcome: 'success' });
  for (const delivery of deliveriesOf(receiver)) {
    const status = (JSON.parse(delivery.body.toString('utf8')) as { status: string }).status;
    if (status === 'finished') deliveries.finished = delivery;
    if (status === 'errored') deliveries.errored = delivery;
  }
  await receiver.close();
});
afterAll(async () => {
  await stopLeftSessions(world);
  await world.sim.close();
  removeUserProject(workspace);
  await github.close();
});

/** GitHub run ids: each recipe run is a workflow run of its own (the statuses tell runs apart by it). */
let githubRuns = 100;

/** The github context of a recipe run as a pull request's. */
function pullRequestContext(): Record<string, never> {
  return {
    run_id: String(++githubRuns),
    event_name: 'pull_request',
    sha: world.repo.headSha,
    repository: 'acme/app',
    api_url: github.url,
    ref: 'refs/pull/7/merge',
    event: { pull_request: { number: 7, head: { sha: world.repo.headSha, ref: 'main' } } },
  } as unknown as Record<string, never>;
}

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
    test(`${key} runs as written`, async () => {
      sessionsBefore = world.sim.sessions().length;
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
        github: pullRequestContext(),
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
    }, 120_000);
  }
});
