/** Jest in ESM mode: ts-jest compiles the TypeScript sources as ES modules. */

// ESM mode runs on Node's VM modules (`--experimental-vm-modules`, which `npm test` puts in
// NODE_OPTIONS), and every process that uses them prints "ExperimentalWarning: VM Modules is an
// experimental feature". The warning is about Jest's machinery, not this project, so it is silenced:
// - in Jest's workers, which start after this file is read and inherit NODE_OPTIONS, by
//   --disable-warning=ExperimentalWarning (that warning type only; `--no-warnings=ExperimentalWarning`
//   would silence every warning, since --no-warnings takes no value);
// - in this process, which runs the tests itself when there is one test file or --runInBand, by
//   dropping that one warning, by its text, when Node emits it.
const VM_MODULES_WARNING = /^VM Modules is an experimental feature/;
const nodeOptions = process.env.NODE_OPTIONS ?? '';
if (
  nodeOptions.includes('--experimental-vm-modules') &&
  !nodeOptions.includes('--disable-warning=ExperimentalWarning')
) {
  process.env.NODE_OPTIONS = `${nodeOptions} --disable-warning=ExperimentalWarning`;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    if (type === 'ExperimentalWarning' && VM_MODULES_WARNING.test(String(warning))) return;
    return emitWarning.call(this, warning, ...rest);
  };
}

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
  // Rebuilds dist/ first when src/ changed: the end-to-end tests never run a stale bundle.
  globalSetup: '<rootDir>/__tests__/harness/fresh-bundles.mjs',
  // Three files at a time on two cores (Jest's default there is one): the end-to-end files spend
  // most of their time waiting on the bundles they spawn and on the simulator's timers, not in Jest.
  maxWorkers: 3,
  testTimeout: 60000,
};
