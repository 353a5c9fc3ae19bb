// Jest's global set-up: the end-to-end tests run the bundles in dist/, so before any test runs,
// dist/ is rebuilt when what it is built from changed since the last build this set-up made or saw
// (src/, the build script, the lock file, tsconfig.json). After an edit of src/, `npm test` (or one
// test file) runs what src/ builds to, never a stale bundle; with nothing changed it costs a hash.
// The stamp lives in node_modules/.cache, outside the repository: a fresh clone builds once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = ['src', 'scripts/build', 'package-lock.json', 'tsconfig.json'];
const STAMP = join(ROOT, 'node_modules', '.cache', 'svc-action', 'bundle-sources.sha256');

function filesOf(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesOf(join(path, name)));
}

/** One hash of every source file's path and content. */
export function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((source) => filesOf(join(ROOT, source)))) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export default function freshBundles() {
  const hash = sourcesHash();
  const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
  if (built === hash && existsSync(join(ROOT, 'dist', 'action', 'index.js'))) return;
  process.stdout.write('\nBuilding dist/ from src/ (the end-to-end tests run the bundles) …\n');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build', 'main.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, hash);
}
