/**
 * The workflow files test worlds are made of, each written once (`createWorld({ 'gate.yml': GATE })`).
 * A test that needs a shape of its own (inputs, approvals, hostile text, the documented examples) keeps
 * its file next to it.
 */

/** One build job, `build`: for tests that need a run, not a particular one. */
export const ONE_BUILD = `on: workflow_dispatch
jobs:
  build:
    type: build
`;

/** A pull-request gate: an iOS build, then tests. */
export const GATE = `name: Gate
on: workflow_dispatch
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  test:
    name: Tests
    needs: [build_ios]
`;

/** Builds for both platforms, then a store submission that needs both (and sets an output). */
export const STORE = `name: Store
on: workflow_dispatch
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  build_android:
    type: build
    params:
      platform: android
  submit:
    type: submit
    needs: [build_ios, build_android]
    params:
      platform: ios
    outputs:
      track: beta
`;

/** An iOS build and its submission: one build and one submission webhook per run. */
export const RELEASE = `name: Release
on: workflow_dispatch
jobs:
  build_ios:
    name: Build iOS
    type: build
    params:
      platform: ios
  submit_ios:
    name: Submit iOS
    type: submit
    needs: [build_ios]
    params:
      platform: ios
`;
