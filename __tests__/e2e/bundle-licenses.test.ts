/**
 * dist/action/licenses.txt names every package the bundle holds, each with its licence text.
 *
 * scripts/build/main.mjs writes that file from the ncc build's module list (scripts/build/licenses.mjs), and CI's
 * check-dist fails when the committed file differs from what a rebuild writes. This test derives the
 * list a second way, without ncc and without scripts/build/licenses.mjs: from package-lock.json, every
 * production package (not a devDependency) that is installed and ships JavaScript; the type-only
 * packages (@octokit/types, @octokit/openapi-types) cannot add code to a bundle. A package that is
 * bundled but missing from the file, or listed without its licence, fails here; so does a listed
 * package that is not a production dependency (a devDependency that src/ started to import).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const licensesFile = join(root, 'dist', 'action', 'licenses.txt');

interface LockEntry {
  name?: string;
  version?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
}

/** Whether a package directory holds a .js, .cjs or .mjs file (nested node_modules/ left out). */
function shipsJavaScript(directory: string): boolean {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && shipsJavaScript(join(directory, entry.name))) return true;
    } else if (/\.[cm]?js$/.test(entry.name)) {
      return true;
    }
  }
  return false;
}

/** The production packages of the lock file that can be in the bundle, by their place in node_modules/. */
function productionPackages(): Map<string, { name: string; version: string; license?: string }> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages = new Map<string, { name: string; version: string; license?: string }>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || entry.dev || entry.devOptional || entry.link) continue;
    const directory = join(root, path);
    // An optional package for another platform is in the lock file but not installed.
    if (!existsSync(join(directory, 'package.json')) || !shipsJavaScript(directory)) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    packages.set(path, { name, version: entry.version ?? '', license: entry.license });
  }
  return packages;
}

interface Listed {
  heading: string;
  license: string;
  path: string;
  text: string;
}

/** licenses.txt's entries: `<name> <version>`, `License: <id>`, `Path: <path>`, then the licence files. */
function listedPackages(): Listed[] {
  const [, ...entries] = readFileSync(licensesFile, 'utf8').split(/^={80}$/m);
  return entries.map((entry) => {
    const [heading = '', license = '', path = '', ...rest] = entry.trim().split('\n');
    return {
      heading,
      license: license.replace(/^License: /, ''),
      path: path.replace(/^Path: /, ''),
      text: rest.join('\n'),
    };
  });
}

describe('dist/action/licenses.txt', () => {
  const expected = productionPackages();
  const listed = listedPackages();
  const byPath = new Map(listed.map((entry) => [entry.path, entry]));

  it('finds the production packages in the lock file (the derivation itself works)', () => {
    const names = [...expected.values()].map((pkg) => pkg.name);
    for (const name of ['@actions/core', 'undici', 'zod', 'yaml', 'tunnel', '@octokit/core']) {
      expect(names).toContain(name);
    }
    expect(names).not.toContain('@octokit/types'); // types only
    expect(names).not.toContain('jest'); // a devDependency
  });

  it('lists every production package that ships code, under its name and version', () => {
    const missing = [...expected]
      .filter(([path, pkg]) => byPath.get(path)?.heading !== `${pkg.name} ${pkg.version}`)
      .map(([path, pkg]) => `${pkg.name} ${pkg.version} (${path})`);
    expect(missing).toEqual([]);
  });

  it('gives each package its licence id and the full text of its licence', () => {
    const incomplete = listed
      .filter((entry) => {
        const pkg = expected.get(entry.path);
        const id = pkg?.license ?? entry.license;
        return (
          !entry.license ||
          entry.license === 'UNKNOWN' ||
          entry.license !== id ||
          !/^--- \S/m.test(entry.text) ||
          // A licence text, not a heading: MIT's is about 1,000 characters, ISC's about 700.
          entry.text.replace(/^--- .*$/gm, '').trim().length < 300 ||
          !/licen[cs]e|permission/i.test(entry.text)
        );
      })
      .map((entry) => entry.heading);
    expect(incomplete).toEqual([]);
  });

  it('lists only production dependencies (a bundled devDependency belongs in dependencies)', () => {
    const extra = listed.filter((entry) => !expected.has(entry.path)).map((entry) => entry.heading);
    expect(extra).toEqual([]);
  });
});
