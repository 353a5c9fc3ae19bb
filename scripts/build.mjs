// Bundles the two entrypoints that action.yml names (main and post) with ncc into dist/.
// Each ncc run writes index.js (+ package.json with "type":"module") into its own folder;
// we keep them side by side as dist/main.js and dist/post.js with a single dist/package.json.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const entries = { main: 'src/index.ts', post: 'src/index-post.ts' };
const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');

// Everything is built first and dist/ replaced only at the end, so a test running meanwhile
// never finds dist/ half-written.
const built = [];
for (const [name, entry] of Object.entries(entries)) {
  const out = mkdtempSync(join(tmpdir(), `ncc-${name}-`));
  execFileSync(
    process.execPath,
    [ncc, 'build', entry, '-o', out, '--minify', '--no-source-map-register', '--quiet', '--target', 'es2022'],
    { stdio: 'inherit' },
  );
  const files = readdirSync(out).filter((f) => f !== 'package.json');
  if (files.length !== 1) throw new Error(`ncc produced unexpected files for ${name}: ${files.join(', ')}`);
  built.push([name, out]);
}
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
for (const [name, out] of built) {
  copyFileSync(join(out, 'index.js'), join('dist', `${name}.js`));
  rmSync(out, { recursive: true, force: true });
}
writeFileSync(join('dist', 'package.json'), '{ "type": "module" }\n');
