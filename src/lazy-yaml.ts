/**
 * `yaml` (about 125 kB of bundle, ~9 ms of start-up on Node 24) is needed only when the `inputs`
 * input is set. The entrypoint preloads it then (`preloadYaml`, a chunk of its own in the bundle);
 * readSettings stays synchronous and takes it from here. Outside the bundle (tests, tools) it is
 * loaded on first use.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

export async function preloadYaml(): Promise<void> {
  yaml ??= await import('yaml');
}

export function loadedYaml(): typeof Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml;
}
