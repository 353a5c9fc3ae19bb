// The runner emulation lives in scripts/ so the demo, the benchmark and the fault campaign share it.
export * from '../../scripts/runner.js';
