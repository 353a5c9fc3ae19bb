// Bundles every entrypoint with ncc, as it is: one output directory per entry under dist/
// (index.js, its package.json with "type":"module", licenses.txt of what it bundles, and the
// chunk of any dynamic import). action.yml files point at dist/<entry>/index.js.
//
// ncc runs with --transpile-only: `npm run typecheck` type-checks the whole project once, instead
// of ncc doing it again for each of the eight entries.
import { execFile } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const ENTRIES = {
  main: 'src/index.ts',
  post: 'src/index-post.ts',
  'run-workflow': 'src/entries/run-workflow.ts',
  'wait-for-run': 'src/entries/wait-for-run.ts',
  'start-device-session': 'src/entries/start-device-session.ts',
  'wait-for-device-session': 'src/entries/wait-for-device-session.ts',
  'stop-device-session': 'src/entries/stop-device-session.ts',
  'verify-webhook': 'src/entries/verify-webhook.ts',
};
const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');
const run = promisify(execFile);

// Everything is built into a temporary directory first and dist/ replaced only at the end, so a
// test running meanwhile never finds dist/ half-written. Two builds at a time: one per core.
// Beside dist/, on the same file system, so that the final rename is atomic.
const staging = mkdtempSync('.dist-staging-');
try {
  const queue = Object.entries(ENTRIES);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, entry] = next;
      await run(process.execPath, [
        ncc,
        'build',
        entry,
        '-o',
        join(staging, name),
        '--minify',
        '--transpile-only',
        '--no-source-map-register',
        '--license',
        'licenses.txt',
        '--quiet',
        '--target',
        'es2022',
      ]).catch((error) => {
        throw new Error(`ncc failed for ${entry}:\n${error.stderr || error.message}`);
      });
    }
  };
  await Promise.all([worker(), worker()]);
  rmSync('dist', { recursive: true, force: true });
  renameSync(staging, 'dist');
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  console.error(error.message);
  process.exit(1);
}
