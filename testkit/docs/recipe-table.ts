/**
 * What each recipe of the READMEs claims, checked on its run (issue 23 part B): RECIPES, by README and
 * title. testkit/docs/recipe-tests.ts runs the recipes of one README against a world of its own and
 * checks each with its entry here; __tests__/recipes/recipe-table.test.ts fails for a recipe of any
 * README without an entry (a new recipe must be run to land), and for an entry without its recipe.
 */
import { expect } from '@jest/globals';
import type { DeviceSession, GitHubStandIn } from '../../simulator/index.js';
import type { Json } from '../runner/expressions.js';
import type { WorkflowResult } from '../runner/workflow.js';
import { until, type World } from '../world/world.js';
import { relayEvent, type Delivery } from '../world/deliveries.js';
import { findRecipe, findRecipes, type Recipe } from './recipes.js';
import { runRecipe, RECIPE_WEBHOOK_SECRET } from './recipe-run.js';
import type { QueuedEntry } from './merge-queue.js';
import { receiveBuildWebhooks, deliveriesOf } from '../world/deliveries.js';
import { parseMarker } from '../../src/github/status-marker.js';

const CHECKOUT = 'actions/checkout';
const SETUP_NODE = 'actions/setup-node';

/** A run with a finished iOS build and an errored Android build: the deliveries the simulator signed. */
export interface Deliveries {
  finished: Delivery;
  errored: Delivery;
}

/** What a recipe's check sees besides its result: the world the recipes of its README share. */
export interface RecipeWorld {
  world: World;
  /** GitHub's stand-in (the simulator's): the statuses, pull requests and refs the recipes meet. */
  github: GitHubStandIn;
  /** The user project the recipes' `run:` steps start in. */
  workspace: string;
  deliveries: Deliveries;
  /** The sessions created since the current recipe began (the world is shared by the recipes). */
  newSessions(): DeviceSession[];
  /** The github context of a recipe run as a pull request's, each a GitHub run of its own (run_id). */
  pullRequestContext(): Record<string, Json>;
  /** Pull request 7 enters the merge queue: the queue's commit, and its merge_group event's context (a GitHub run of its own). */
  enqueue(): Promise<QueuedEntry>;
  /** Every line a runner would print of the current recipe's runs, for the message of a failure. */
  log(line: string): void;
}

/** Runs the recipe with the github context of `github` (a scenario runs it as often as its prose needs). */
export type RunAs = (github: Record<string, Json>) => Promise<WorkflowResult>;

export type Expectation = {
  /** Third-party actions replaced by a no-op in this recipe. */
  noops: string[];
} & (
  | {
      /** What the recipe's prose claims, checked on its one run as a pull request's workflow. */
      check: (result: WorkflowResult, recipes: RecipeWorld) => void;
      scenario?: never;
    }
  | {
      /**
       * Instead of one run as a pull request: the recipe run as many times as its prose needs, each
       * with its own github context (a repository_dispatch event, for the webhook receiver).
       */
      scenario: (run: RunAs, recipes: RecipeWorld) => Promise<void>;
      check?: never;
    }
);

/** Recipes by file and title (a title may repeat within a file: then by order). */
export const RECIPES: Record<string, Expectation[]> = {
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
      check: (result, { world, github }) => {
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
  'run-workflow/README.md › Required on pull requests and in the merge queue': [
    {
      // The workflow on each of its events: the pull request's head, then the queue's commit.
      noops: [],
      scenario: async (run, recipes) => {
        const { world, github } = recipes;
        const onPullRequest = await run(recipes.pullRequestContext());
        expect(onPullRequest.jobs.e2e.result).toBe('success');
        const { queue, context } = await recipes.enqueue();
        const inQueue = await run(context);
        expect(inQueue.jobs.e2e.result).toBe('success');
        expect(inQueue.jobs.e2e.steps[0].outputs['git-commit-hash']).toBe(queue);
        const contexts = ['svc/e2e', 'svc/e2e/build_ios', 'svc/e2e/test'];
        for (const sha of [world.repo.headSha, queue])
          expect(pick(github.states(sha), contexts)).toEqual(
            Object.fromEntries(contexts.map((name) => [name, 'success'])),
          );
        expect(inQueue.jobs.e2e.steps[0].log).toContain(
          `Merge queue: Commit \`${queue}\` was built by the merge queue of \`main\` to test the entry of pull request #7`,
        );
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
      check: (result, recipes) => {
        // agent-device, installed by `npm ci`, drives the session's daemon with what the step exported.
        expect(logOf(result)).toMatch(/^iPhone 16 \(ios simulator target=mobile\) booted=true$/m);
        expect(logOf(result)).toMatch(/\/e2e-ios\.png$/m);
        expect(logOf(result)).toMatch(/^Session http\S+, browser preview http\S+$/m);
        expect(recipes.newSessions().map((session) => session.name)).toEqual(['pr-7-ios']);
        deviceStopped(result, recipes.world);
      },
    },
  ],
  'start-device-session/README.md › Android end-to-end': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, recipes) => {
        // e2e/appium.mjs as the README writes it, with webdriverio, against the session's Appium URL.
        expect(logOf(result)).toMatch(/^The screen has \d+ characters of page source\.$/m);
        expect(recipes.newSessions().map((session) => [session.platform, session.type])).toEqual([
          ['android', 'appium'],
        ]);
        deviceStopped(result, recipes.world);
      },
    },
  ],
  'start-device-session/README.md › argent end-to-end': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, { world }) => {
        expect(logOf(result)).toMatch(/^argent tools: list-devices, screenshot, gesture-tap$/m);
        expect(logOf(result)).toMatch(/^argent e2e: screenshot of \S+ taken, tapped$/m);
        deviceStopped(result, world);
      },
    },
  ],
  'start-device-session/README.md › Device matrix': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, recipes) => {
        // One session per matrix entry, each named after its device and stopped by its own post step.
        expect(recipes.newSessions().map((session) => session.name)).toEqual([
          'ios iPhone 16',
          'ios iPad Air 13-inch (M2)',
          'android pixel_7',
        ]);
        for (const device of ['iPhone 16', 'iPad Air 13-inch (M2)', 'pixel_7'])
          expect(logOf(result)).toContain(`e2e passed on ${device}`);
        deviceStopped(result, recipes.world);
      },
    },
  ],
  'start-device-session/README.md › Build, then test on a device': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, recipes) => {
        // The build job's build id crosses to the next job and becomes the session's app.
        const buildId = result.jobs.build.outputs['build-id'];
        expect(buildId).toMatch(/^[0-9a-f-]{36}$/);
        expect(recipes.newSessions().map((session) => session.buildId)).toEqual([buildId]);
        expect(logOf(result)).toMatch(/\/e2e-ios\.png$/m);
        deviceStopped(result, recipes.world);
      },
    },
  ],
  'stop-device-session/README.md › One device, three jobs': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, recipes) => {
        // Started in one job, used in the next, stopped by the third: one session for all three.
        const sessionId = result.jobs.start.outputs['session-id'];
        expect(recipes.newSessions().map((session) => session.id)).toEqual([sessionId]);
        expect(result.jobs.e2e.result).toBe('success');
        expect(logOf(result, 'e2e')).toMatch(/\/e2e-ios\.png$/m);
        expect(result.jobs.stop.steps.at(-1)?.outputs.status).toBe('stopped');
        deviceStopped(result, recipes.world);
      },
    },
  ],
  'verify-webhook/README.md › Service webhook': [
    {
      // The first workflow: fail the relay on a failed build, and pass the reason on in a file.
      noops: [],
      scenario: async (run, { github, deliveries }) => {
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
        for (const result of [finished, errored]) expectNothingOfThePayloadRead(result, deliveries);
      },
    },
    {
      // The second workflow: branch on the verified outputs, release once; an altered body is rejected.
      noops: [],
      scenario: async (run, { github, deliveries }) => {
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
        for (const result of [finished, replayed, rejected, errored])
          expectNothingOfThePayloadRead(result, deliveries);
      },
    },
  ],
  'sync-statuses/README.md › PR gate that holds no runner': [
    {
      noops: [],
      check: (result, { world, github }) => {
        expect(result.jobs.dispatch.result).toBe('success');
        expect(result.jobs.dispatch.steps[0].outputs.outcome).toBe('dispatched');
        // This gate's statuses: those that name its run (an earlier recipe posted svc/e2e too).
        const runId = result.jobs.dispatch.steps[0].outputs['run-id'];
        const left = github.statuses.filter(
          (status) => parseMarker(status.description)?.serviceRunId === runId,
        );
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
      scenario: async (run, recipes) => {
        const { world, github, deliveries } = recipes;
        const head = world.repo.headSha;
        github.addPullRequest({ number: 7, head });
        const gate = findRecipe('sync-statuses/README.md', 'PR gate that holds no runner')!;
        const leaveStatuses = async (): Promise<void> => {
          github.statuses.length = 0;
          const left = await runRecipe(gate.text, world, {
            github: recipes.pullRequestContext(),
            noops: [],
            workspace: recipes.workspace,
            log: recipes.log,
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
  'sync-statuses/README.md › Required on pull requests and in the merge queue, holding no runner': [
    {
      // Pending on the head and on the queue's commit; the relay's trigger settles that commit, and the schedule
      // finds the next entry's commit itself.
      noops: [],
      scenario: async (run, recipes) => {
        const { world, github } = recipes;
        const contexts = ['svc/e2e', 'svc/e2e/build_ios'];
        const receiver = await receiveBuildWebhooks(world.sim, world.project, RECIPE_WEBHOOK_SECRET);
        let queue: string;
        try {
          const onPullRequest = await run(recipes.pullRequestContext());
          expect(onPullRequest.jobs.dispatch.steps[0].outputs.outcome).toBe('dispatched');
          const entry = await recipes.enqueue();
          queue = entry.queue;
          const inQueue = await run(entry.context);
          expect(inQueue.jobs.dispatch.steps[0].outputs.outcome).toBe('dispatched');
          expect(pick(github.states(queue), contexts)).toEqual({
            'svc/e2e': 'pending',
            'svc/e2e/build_ios': 'pending',
          });
          const runId = inQueue.jobs.dispatch.steps[0].outputs['run-id'];
          await until(() => world.sim.runs().find((r) => r.id === runId && r.status === 'success'));
          await world.sim.webhooks.idle();
        } finally {
          for (const webhook of world.sim.webhooks.list(world.project.id))
            world.sim.webhooks.remove(webhook.id);
          await receiver.close();
        }
        // The build delivery of the queue's run, relayed: the sync settles the queue's commit at once.
        const ofQueue = deliveriesOf(receiver).find((delivery) =>
          delivery.body.toString('utf8').includes(queue),
        );
        expect(ofQueue).toBeDefined();
        const sync = findRecipe('sync-statuses/README.md', 'Settle svc commit statuses')!;
        const relayed = await runRecipe(sync.text, world, {
          github: { repository: 'acme/app', api_url: github.url, ...relayEvent(ofQueue!, github.url) },
          noops: [],
          workspace: recipes.workspace,
          log: recipes.log,
        });
        expect(relayed.jobs.sync.steps[0].outputs.commit).toBe(queue);
        expect(Number(relayed.jobs.sync.steps[1].outputs.settled)).toBeGreaterThan(0);
        expect(pick(github.states(queue), contexts)).toEqual({
          'svc/e2e': 'success',
          'svc/e2e/build_ios': 'success',
        });

        // The schedule finds a queue entry's commit itself (its merge-queue entry) and settles it.
        const again = await recipes.enqueue();
        const left = await run(again.context);
        const runId = left.jobs.dispatch.steps[0].outputs['run-id'];
        await until(() => world.sim.runs().find((r) => r.id === runId && r.status === 'success'));
        const scheduled = await runRecipe(sync.text, world, {
          github: { repository: 'acme/app', api_url: github.url, event_name: 'schedule', event: {} },
          noops: [],
          workspace: recipes.workspace,
          log: recipes.log,
        });
        expect(Number(scheduled.jobs.sync.steps[1].outputs.settled)).toBeGreaterThan(0);
        expect(pick(github.states(again.queue), contexts)).toEqual({
          'svc/e2e': 'success',
          'svc/e2e/build_ios': 'success',
        });
      },
    },
  ],
  'wait-for-device-session/README.md › iOS end-to-end, device started early': [
    {
      noops: [CHECKOUT, SETUP_NODE],
      check: (result, recipes) => {
        // The build ran while the device was provisioned; the tests ran once it was ready.
        const log = logOf(result);
        expect(log.indexOf('e2e build: done')).toBeGreaterThan(-1);
        expect(log.indexOf('e2e build: done')).toBeLessThan(log.indexOf('e2e-ios.png'));
        expect(recipes.newSessions()).toHaveLength(1);
        deviceStopped(result, recipes.world);
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
function expectNothingOfThePayloadRead(result: WorkflowResult, deliveries: Deliveries): void {
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

/** The states of `contexts` among `states` (other recipes of the file post other contexts on the same commit). */
function pick(states: Record<string, string>, contexts: string[]): Record<string, string> {
  return Object.fromEntries(contexts.filter((name) => name in states).map((name) => [name, states[name]]));
}

/** Every step's log of every job (or of `only` that job), as one text. */
function logOf(result: WorkflowResult, only?: string): string {
  return Object.entries(result.jobs)
    .filter(([id]) => only === undefined || id === only)
    .flatMap(([, job]) => job.steps.map((step) => step.log))
    .join('\n');
}

function deviceStopped(result: WorkflowResult, world: World): void {
  for (const job of Object.values(result.jobs)) expect(job.result).toBe('success');
  expect(world.sim.activeSessions()).toEqual([]);
}

/**
 * The test files of __tests__/recipes/ that run the recipes, by name (the file of that name calls
 * `describeRecipes` with it), and the recipes each runs: those of a README, or only those `titles`
 * of it. The files run side by side in Jest's workers, so a README whose recipes take long is split
 * (start-device-session's, each recipe an `npm ci` and a device or three): no one file holds the
 * suite's critical path.
 */
export const RECIPE_TEST_FILES: Record<string, { readme: string; titles?: string[] }> = {
  'run-workflow': { readme: 'run-workflow/README.md' },
  'start-device-session': {
    readme: 'start-device-session/README.md',
    titles: ['iOS end-to-end', 'Android end-to-end', 'argent end-to-end'],
  },
  'start-device-session-matrix': {
    readme: 'start-device-session/README.md',
    titles: ['Device matrix', 'Build, then test on a device'],
  },
  'stop-device-session': { readme: 'stop-device-session/README.md' },
  'sync-statuses': { readme: 'sync-statuses/README.md' },
  'verify-webhook': { readme: 'verify-webhook/README.md' },
  'wait-for-device-session': { readme: 'wait-for-device-session/README.md' },
  'wait-for-run': { readme: 'wait-for-run/README.md' },
};

/** Whether the test file `name` of RECIPE_TEST_FILES runs `recipe`. */
export function runsIn(name: string, recipe: Recipe): boolean {
  const { readme, titles } = RECIPE_TEST_FILES[name];
  return recipe.file === readme && (titles === undefined || titles.includes(recipe.title));
}

export interface PlannedRecipe {
  recipe: Recipe;
  /** `file › title`, with ` (n)` for the nth recipe of a title that repeats in its file. */
  key: string;
  /** Its entry in RECIPES; undefined when it has none. */
  expectation: Expectation | undefined;
}

/** Every recipe of the READMEs with its entry in RECIPES. */
export function plannedRecipes(): PlannedRecipe[] {
  const seen: Record<string, number> = {};
  return findRecipes().map((recipe) => {
    const key = `${recipe.file} › ${recipe.title}`;
    const index = (seen[key] = (seen[key] ?? -1) + 1);
    return { recipe, key: index > 0 ? `${key} (${index + 1})` : key, expectation: RECIPES[key]?.[index] };
  });
}
