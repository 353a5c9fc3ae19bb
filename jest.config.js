/** Jest in ESM mode: ts-jest compiles the TypeScript sources as ES modules. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } },
    ],
  },
  testMatch: ['**/__tests__/**/*.test.ts'],
  // Three files at a time on two cores (Jest's default there is one): the end-to-end files spend
  // most of their time waiting on the bundles they spawn and on the simulator's timers, not in Jest.
  maxWorkers: 3,
  testTimeout: 60000,
};
