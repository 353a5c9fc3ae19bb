/**
 * `npm run format:changed`: Prettier on the files this checkout changed (against HEAD, and the
 * untracked files git does not ignore), not the whole tree: the edit loop's formatting in well
 * under a second. `npm run format` still formats everything; CI checks everything (`lint:full`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const files = [
  ...new Set([
    ...git('diff', '--name-only', '--diff-filter=ACMR', 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]),
].filter((file) => existsSync(file));

if (files.length === 0) {
  console.log('format:changed: no changed files.');
} else {
  const prettier = spawnSync('npx', ['prettier', '--cache', '--write', '--ignore-unknown', ...files], {
    stdio: 'inherit',
  });
  process.exitCode = prettier.status ?? 1;
}
