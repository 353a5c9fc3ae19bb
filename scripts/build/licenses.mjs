// The licences of what an ncc bundle holds, written by scripts/build/main.mjs as dist/action/licenses.txt.
//
// ncc's own --license lists only the packages whose code its license plugin happens to see (two of
// them here); this reads the webpack stats of the build instead (ncc --stats-out), where every module
// that went into the bundle or one of its chunks is named by its file, and lists every package of
// node_modules/ that one of those files belongs to: name, version, licence id and the full text of
// its licence files. Two versions of a package (a nested node_modules/) are two entries. The order
// (name, then version, then place) and the text (no absolute path, no date) depend only on what is
// bundled, so a rebuild writes the same file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** LICENSE, LICENSE.md, LICENCE-MIT, COPYING.txt, NOTICE...: the files that carry a licence or its notices. */
const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;
const RULE = '='.repeat(80);

/** The module files webpack stats name, with the modules concatenated into others. */
function moduleFiles(stats) {
  const files = new Set();
  const walk = (modules) => {
    for (const module of modules ?? []) {
      // nameForCondition is the module's file (externals such as node:fs and webpack's runtime have none).
      if (typeof module.nameForCondition === 'string') files.add(module.nameForCondition);
      walk(module.modules);
    }
  };
  walk(stats.modules);
  for (const child of stats.children ?? []) walk(child.modules);
  return files;
}

/** The package directory (…/node_modules/<name> or …/node_modules/@scope/<name>) a file belongs to, or undefined. */
function packageDirectory(file) {
  const marker = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  if (at < 0) return undefined;
  const parts = file.slice(at + marker.length).split(sep);
  const depth = parts[0].startsWith('@') ? 2 : 1;
  return file.slice(0, at + marker.length) + parts.slice(0, depth).join(sep);
}

function licenceId(manifest) {
  if (typeof manifest.license === 'string') return manifest.license;
  if (manifest.license?.type) return manifest.license.type;
  if (Array.isArray(manifest.licenses) && manifest.licenses.length > 0) {
    return manifest.licenses.map((licence) => licence.type ?? licence).join(' OR ');
  }
  return 'UNKNOWN';
}

const normalise = (text) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();

/**
 * The packages a build holds, from its webpack stats: { name, version, license, path, files: [{ name, text }] },
 * path relative to root (node_modules/...), sorted.
 */
export function bundledPackages(stats, root) {
  const directories = new Set();
  for (const file of moduleFiles(stats)) {
    const directory = packageDirectory(file);
    if (directory) directories.add(directory);
  }
  const packages = [...directories].map((directory) => {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    const files = readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isFile() && LICENCE_FILE.test(entry.name))
      .map((entry) => entry.name)
      .sort()
      .map((name) => ({ name, text: normalise(readFileSync(join(directory, name), 'utf8')) }));
    return {
      name: manifest.name,
      version: manifest.version,
      license: licenceId(manifest),
      path: relative(root, directory).split(sep).join('/'),
      files,
    };
  });
  const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return packages.sort(
    (a, b) =>
      compare(a.name, b.name) ||
      a.version.localeCompare(b.version, 'en', { numeric: true }) ||
      compare(a.path, b.path),
  );
}

/** licenses.txt: a header, then per package its name and version, licence id, and licence text. */
export function licensesText(packages) {
  const entries = packages.map((pkg) => {
    const head = [`${pkg.name} ${pkg.version}`, `License: ${pkg.license}`, `Path: ${pkg.path}`];
    const body =
      pkg.files.length > 0
        ? pkg.files.map((file) => `--- ${file.name}\n\n${file.text}`).join('\n\n')
        : `--- (no licence file)\n\nThe package ships no licence file; its package.json declares the licence ${pkg.license}.`;
    return `${RULE}\n${head.join('\n')}\n${body}\n`;
  });
  return (
    `Third-party software bundled in this directory (index.js and its chunks): ${packages.length} packages,\n` +
    'each with its version, its licence and the text of its licence files. Written by scripts/build/main.mjs\n' +
    "from the modules of the ncc build; the project's own licence is LICENSE at the repository root.\n\n" +
    entries.join('\n')
  );
}

/** Reads the stats ncc wrote (--stats-out) and returns licenses.txt for that build. */
export function licensesFromStats(statsFile, root = process.cwd()) {
  if (!existsSync(statsFile)) throw new Error(`no webpack stats at ${statsFile}`);
  const packages = bundledPackages(JSON.parse(readFileSync(statsFile, 'utf8')), root);
  return licensesText(packages);
}
