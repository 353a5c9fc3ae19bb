/** Jest in ESM mode: ts-jest compiles the TypeScript sources as ES modules. */

// ESM mode runs on Node's VM modules (`--experimental-vm-modules`), a flag Node reads as it starts.
// `npm test` and `npm run test:<tier>` put it in NODE_OPTIONS. Plain `npx jest <file>` starts without
// it, too late for this process; its workers start after this file is read, so the flag goes into
// NODE_OPTIONS for them, and `workerIdleMemoryLimit` (set below only then) makes Jest run even one
// file in a worker instead of in this process (its rule: a memory limit means workers).
const VM_MODULES = '--experimental-vm-modules';
const startedWithVmModules = (process.env.NODE_OPTIONS ?? '').includes(VM_MODULES);
if (!startedWithVmModules)
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${VM_MODULES}`.trim();

// Every process that uses VM modules prints "ExperimentalWarning: VM Modules is an experimental
// feature". The warning is about Jest's machinery, not this project, so it is silenced:
// - in Jest's workers, which start after this file is read and inherit NODE_OPTIONS, by
//   --disable-warning=ExperimentalWarning (that warning type only; `--no-warnings=ExperimentalWarning`
//   would silence every warning, since --no-warnings takes no value);
// - in this process, which runs the tests itself when there is one test file or --runInBand, by
//   dropping that one warning, by its text, when Node emits it.
const VM_MODULES_WARNING = /^VM Modules is an experimental feature/;
if (!process.env.NODE_OPTIONS.includes('--disable-warning=ExperimentalWarning')) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS} --disable-warning=ExperimentalWarning`;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    if (type === 'ExperimentalWarning' && VM_MODULES_WARNING.test(String(warning))) return;
    return emitWarning.call(this, warning, ...rest);
  };
}

/** How every tier compiles and runs a test file. */
export const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } },
    ],
  },
};

/** The tiers that run the bundles: dist/ is rebuilt first when src/ changed, never a stale bundle. */
const bundles = { globalSetup: '<rootDir>/testkit/runner/fresh-bundles.mjs' };

/**
 * The tiers, one Jest project each (CONTRIBUTING.md, "Tests: which tier when"):
 * - unit: the sources in this process (modules, the simulator, each command and step run in process
 *   against it): the edit loop, no bundle build;
 * - e2e: the bundles run as the runner runs them: exit codes, signals, the post step's process,
 *   the files the runner reads, the secret audit, the sub-actions, licences;
 * - recipes: the READMEs' workflows and scripts, run as written.
 * `npm test` runs the three; `npm run test:<tier>` one (`-- <file>` one file of it, or any of Jest's
 * options): the tier comes in TEST_TIER, not `--selectProjects`, whose list would swallow the file.
 */
const TIERS = [
  {
    ...base,
    displayName: 'unit',
    testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '<rootDir>/__tests__/e2e/', '<rootDir>/__tests__/recipes/'],
  },
  { ...base, ...bundles, displayName: 'e2e', testMatch: ['<rootDir>/__tests__/e2e/**/*.test.ts'] },
  { ...base, ...bundles, displayName: 'recipes', testMatch: ['<rootDir>/__tests__/recipes/**/*.test.ts'] },
];
const tier = process.env.TEST_TIER;
if (tier && !TIERS.some(({ displayName }) => displayName === tier))
  throw new Error(
    `TEST_TIER=${tier}: the tiers are ${TIERS.map(({ displayName }) => displayName).join(', ')}`,
  );

export default {
  projects: tier ? TIERS.filter(({ displayName }) => displayName === tier) : TIERS,
  // More files at a time than cores (Jest's default on two is one): the files spend much of their
  // time waiting on the simulator's timers and, end to end, on the bundles they spawn, not in Jest.
  // The unit tier alone takes six: its files wait on the simulator's timers as much as they compute
  // (in band: 28 s of CPU in 60 s), so more of them at once fill the cores (measured on two cores:
  // 23.9 s with three, 20.4 s with four, 18.4 s with six, 19.0 s with eight). With the bundles'
  // processes beside them, three.
  maxWorkers: tier === 'unit' ? 6 : 3,
  testTimeout: 60000,
  // Started without VM modules (`npx jest <file>`): every file in a worker, which has them (above).
  ...(startedWithVmModules ? {} : { workerIdleMemoryLimit: '2GB' }),
};
