/**
 * The browser tier (`npm run test:browser`): the simulator's pages in a real browser, Debian's
 * `chromium` driven by playwright-core. Its files end in `.browser.ts`, so `npm test` (which takes
 * `*.test.ts`) never needs a browser. `.ci/run` installs chromium when it is missing and runs this tier.
 */
import { base } from './jest.config.js';

export default {
  ...base,
  testTimeout: 60000,
  testMatch: ['**/__tests__/browser/**/*.browser.ts'],
  // One browser at a time on two cores.
  maxWorkers: 1,
};
