/**
 * The recipes of the READMEs: every ```yaml block (outside the generated blocks) that is a workflow
 * (`jobs:`) or a job (`steps:`), in the root README, each sub-action's README and docs/. Step lists
 * (a snippet of `- uses:` lines) are not recipes: they are listed apart so a count shows them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './runner/step.js';

export interface Recipe {
  /** The README it is in, relative to the root. */
  file: string;
  /** The workflow's `name:`, or the heading above the block. */
  title: string;
  text: string;
  kind: 'workflow' | 'job' | 'steps';
}

function markdownFiles(): string[] {
  const commands = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, entry.name, 'action.yml')))
    .map((entry) => `${entry.name}/README.md`)
    .sort();
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(`${dir}/${entry.name}`)
        : entry.name.endsWith('.md')
          ? [`${dir}/${entry.name}`]
          : [],
    );
  return ['README.md', ...commands, ...(existsSync(join(ROOT, 'docs')) ? walk('docs') : [])];
}

/** Every yaml block of the READMEs and docs/ that is a workflow, a job or a list of steps. */
export function findBlocks(): Recipe[] {
  const recipes: Recipe[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(
      /<!-- generated:[^\n]*start -->[\s\S]*?<!-- generated:[^\n]*end -->/g,
      '',
    );
    let heading = '';
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const h = /^#+\s+(.*)$/.exec(lines[i]);
      if (h) heading = h[1].trim();
      if (!/^```ya?ml\s*$/.test(lines[i])) continue;
      const body: string[] = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
      const block = `${body.join('\n')}\n`;
      const doc = parse(block) as unknown;
      if (Array.isArray(doc)) recipes.push({ file, title: heading, text: block, kind: 'steps' });
      else if (doc && typeof doc === 'object') {
        const map = doc as Record<string, unknown>;
        const kind = 'jobs' in map ? 'workflow' : 'steps' in map ? 'job' : undefined;
        if (kind)
          recipes.push({ file, title: typeof map.name === 'string' ? map.name : heading, text: block, kind });
      }
    }
  }
  return recipes;
}

/** The recipes: the blocks that are a workflow or a job. */
export function findRecipes(): Recipe[] {
  return findBlocks().filter((recipe) => recipe.kind !== 'steps');
}

/** The `nth` recipe (from 1) titled `title` in `file`; undefined when there is none. */
export function findRecipe(file: string, title: string, nth = 1): Recipe | undefined {
  return findRecipes().filter((recipe) => recipe.file === file && recipe.title === title)[nth - 1];
}

/**
 * The one ```js block of `file` (relative to the root) that starts with `opening`: a script a recipe
 * tells the reader to save (the relay's `relay.mjs`, the Android recipe's `e2e/appium.mjs`), as written.
 */
export function findScript(file: string, opening: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const scripts = [...text.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .filter((block) => block.startsWith(opening));
  if (scripts.length !== 1) throw new Error(`${file}: ${scripts.length} js blocks start with ${opening}`);
  return scripts[0];
}
