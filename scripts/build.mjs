// Bundles the two entrypoints that action.yml names (main and post) with ncc into dist/.
// Each ncc run writes index.js (+ package.json with "type":"module") into its own folder;
// we keep them side by side as dist/main.js and dist/post.js with a single dist/package.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // Besides index.js, ncc emits one `<id>.index.js` chunk per dynamic import() (the lazily loaded
  // @actions/github of the pull-request comment). The bundle loads it relative to itself, so it is
  // copied beside main.js / post.js under its own name.
  const chunks = files.filter((f) => /^\d+\.index\.js$/.test(f));
  if (!files.includes('index.js') || files.length !== chunks.length + 1)
    throw new Error(`ncc produced unexpected files for ${name}: ${files.join(', ')}`);
  built.push([name, out, chunks]);
}
// Chunks are renamed `<entry>.<id>.js` (main.119.js): two entrypoints may number different chunks
// alike. The bundle finds a chunk by one function, `__nccwpck_require__.u = (id) => "" + id +
// ".index.js"`, patched to match; ncc minifies only index.js, so chunks are minified here.
const esbuild = await import('esbuild');
const outputs = new Map();
for (const [name, out, chunks] of built) {
  let main = readFileSync(join(out, 'index.js'), 'utf8');
  if (chunks.length > 0) {
    const loader = /(\w+)=>""\+\1\+"\.index\.js"/g;
    const found = main.match(loader) ?? [];
    if (found.length !== 1)
      throw new Error(`${name}: expected one chunk loader in ncc's output, found ${found.length}`);
    main = main.replace(loader, (_, id) => `${id}=>"${name}."+${id}+".js"`);
  }
  outputs.set(`${name}.js`, main);
  for (const chunk of chunks) {
    const code = readFileSync(join(out, chunk), 'utf8');
    const minified = esbuild.transformSync(code, {
      minify: true,
      keepNames: true,
      format: 'esm',
      target: 'es2022',
      legalComments: 'none',
    }).code;
    outputs.set(`${name}.${chunk.replace(/\.index\.js$/, '')}.js`, minified);
  }
  rmSync(out, { recursive: true, force: true });
}
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
for (const [file, content] of outputs) writeFileSync(join('dist', file), content);
writeFileSync(join('dist', 'package.json'), '{ "type": "module" }\n');
