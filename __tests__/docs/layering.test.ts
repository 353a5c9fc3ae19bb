/**
 * The floor plan of the code, checked (CONTRIBUTING.md draws it): src/'s folders import downwards
 * only, in the order of LAYERS; runs/, sessions/ and webhook/ are rooms side by side that do not
 * import each other; nothing outside commands/ imports commands/ but the entrypoints; no circle of
 * imports in src/, simulator/, scripts/ or the test kit; and neither the tests nor the test kit import
 * anything from scripts/ (what tests, the demo, the bench and the campaign share lives in testkit/).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../../testkit/runner/step.js';

/** src/'s folders from the lowest up; a folder may import its own and any lower one. */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ['text'],
  ['service'],
  ['inputs'],
  ['runner'],
  ['github'],
  ['runs', 'sessions', 'webhook'],
  ['commands'],
];
/** The root: the entrypoints (above everything) and the error family (below everything). */
const ENTRYPOINTS = new Set(['action.ts', 'main.ts', 'post.ts']);
const ERRORS = 'errors.ts';

const SOURCE = /\.(ts|mts|mjs|js)$/;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The relative modules a file imports (static, re-exports and dynamic), as repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]);
  return specifiers.map((specifier) => resolveModule(dirname(file), specifier));
}

/** `./x.js` is `./x.ts` in the sources (TypeScript's ESM convention). */
function resolveModule(from: string, specifier: string): string {
  const path = resolve(from, specifier);
  for (const candidate of [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts')])
    if (existsFile(candidate)) return relative(ROOT, candidate);
  return relative(ROOT, path);
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function graphOf(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesUnder(join(ROOT, dir))) graph.set(relative(ROOT, file), importsOf(file));
  return graph;
}

/** Every circle of imports (Tarjan's strongly connected components of more than one module, or a self-import). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

/** A src/ module's place: its layer's rank, and its folder ('' at the root). */
function placeOf(path: string): { rank: number; folder: string } {
  const parts = relative('src', path).split('/');
  if (parts.length === 1)
    return { rank: ENTRYPOINTS.has(parts[0]) ? LAYERS.length : parts[0] === ERRORS ? -1 : NaN, folder: '' };
  const rank = LAYERS.findIndex((layer) => layer.includes(parts[0]));
  return { rank: rank === -1 ? NaN : rank, folder: parts[0] };
}

describe('the floor plan', () => {
  const src = graphOf('src');

  test('every src/ module sits in a known room (a folder of LAYERS, or an entrypoint or errors.ts at the root)', () => {
    const unplaced = [...src.keys()].filter((path) => Number.isNaN(placeOf(path).rank));
    expect(unplaced).toEqual([]);
  });

  test('src/ imports only downwards, and runs/, sessions/ and webhook/ do not import each other', () => {
    const upwards: string[] = [];
    for (const [file, imports] of src) {
      const from = placeOf(file);
      for (const target of imports.filter((path) => path.startsWith('src/'))) {
        const to = placeOf(target);
        const sideways = from.rank === to.rank && from.folder !== to.folder;
        if (to.rank > from.rank || sideways) upwards.push(`${file} → ${target}`);
      }
    }
    expect(upwards).toEqual([]);
  });

  test.each(['src', 'simulator', 'scripts', 'testkit'])('no circle of imports in %s/', (dir) => {
    expect(circles(graphOf(dir))).toEqual([]);
  });

  test('the tests and the test kit import nothing from scripts/', () => {
    const fromScripts = [...graphOf('__tests__'), ...graphOf('testkit')].flatMap(([file, imports]) =>
      imports.filter((path) => path.startsWith('scripts/')).map((path) => `${file} → ${path}`),
    );
    expect(fromScripts).toEqual([]);
  });

  test('no test redefines a function or class the test kit exports: it imports it', () => {
    const exported = new Map<string, string>();
    for (const file of filesUnder(join(ROOT, 'testkit')))
      for (const [, name] of readFileSync(file, 'utf8').matchAll(
        /^export (?:async )?(?:function|class) (\w+)/gm,
      ))
        exported.set(name, relative(ROOT, file));
    const redefined: string[] = [];
    for (const file of filesUnder(join(ROOT, '__tests__')))
      for (const [, ...names] of readFileSync(file, 'utf8').matchAll(
        /^\s*(?:export )?(?:(?:async )?function (\w+)|class (\w+)|const (\w+) = (?:async )?(?:\(|function\b))/gm,
      ))
        for (const name of names.filter((found) => found !== undefined && exported.has(found)))
          redefined.push(`${relative(ROOT, file)}: ${name} (testkit exports it from ${exported.get(name)})`);
    expect(exported.size).toBeGreaterThan(50);
    expect(redefined).toEqual([]);
  });

  test('the check reads imports: it finds the ones it must (a check that sees nothing passes everything)', () => {
    expect(src.get('src/main.ts')).toEqual(
      expect.arrayContaining(['src/commands/index.ts', 'src/errors.ts']),
    );
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
  });
});
