/**
 * The workflow files of test worlds (`createWorld({ 'gate.yml': GATE })`), each written once, and the
 * jobs they share. A test that needs a shape of its own builds it with `workflow()` from these jobs;
 * one whose point is the file's text (parsing, expressions, hostile names) keeps that text next to it.
 */
import { stringify } from 'yaml';

interface Job {
  name?: string;
  type?: string;
  needs?: string[];
  params?: Record<string, string>;
  outputs?: Record<string, string>;
  steps?: Array<Record<string, string>>;
}

/** A `.eas/workflows/` file: `jobs` in order, dispatchable with `inputs` when given. */
export function workflow(name: string, jobs: Record<string, Job>, inputs?: Record<string, unknown>): string {
  return stringify({ name, on: inputs ? { workflow_dispatch: { inputs } } : 'workflow_dispatch', jobs });
}

export const BUILD_IOS = { build_ios: { name: 'Build iOS', type: 'build', params: { platform: 'ios' } } };
export const BUILD_ANDROID = { build_android: { type: 'build', params: { platform: 'android' } } };

/** One build job, `build`: for tests that need a run, not a particular one. */
export const ONE_BUILD = workflow('Build', { build: { type: 'build' } });

/** A pull-request gate: the iOS build, then tests. */
export const GATE = workflow('Gate', { ...BUILD_IOS, test: { name: 'Tests', needs: ['build_ios'] } });

/** Builds for both platforms, then a store submission that needs both (and sets an output). */
export const STORE = workflow('Store', {
  ...BUILD_IOS,
  ...BUILD_ANDROID,
  submit: {
    type: 'submit',
    needs: ['build_ios', 'build_android'],
    params: { platform: 'ios' },
    outputs: { track: 'beta' },
  },
});

/** The iOS build and its submission: one build and one submission webhook per run. */
export const RELEASE = workflow('Release', {
  ...BUILD_IOS,
  submit_ios: { name: 'Submit iOS', type: 'submit', needs: ['build_ios'], params: { platform: 'ios' } },
});

/**
 * The workflow files the README recipes dispatch (`workflow:`), for the recipe tests and
 * `npm run recipe`, and `webhook.yml`, whose builds make the deliveries the webhook recipes verify.
 */
export const RECIPE_WORKFLOWS: Record<string, string> = {
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
};
