// The module hooks of hold-bundle.mjs (they run on Node's loader thread, so the step's own thread
// stays free to receive signals while its bundle's load waits).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function load(url, context, nextLoad) {
  const dir = process.env.HOLD_BUNDLE_DIR;
  if (dir && url.endsWith('/dist/action/index.js')) {
    writeFileSync(join(dir, 'loading'), '');
    while (!existsSync(join(dir, 'go'))) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return nextLoad(url, context);
}
