/**
 * The recipes of the READMEs: every ```yaml block (outside the generated blocks) that is a workflow
 * (`jobs:`) or a job (`steps:`), in the root README, each sub-action's README and docs/. Step lists
 * (a snippet of `- uses:` lines) are not recipes: they are listed apart so a count shows them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../runner/step.js';

export interface Recipe {
  /** The README it is in, relative to the root. */
  file: string;
  /** The workflow's `name:`, or the heading above the block. */
  title: string;
  /** The heading above the block, as the README shows it. */
  heading: string;
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
      if (Array.isArray(doc)) recipes.push({ file, title: heading, heading, text: block, kind: 'steps' });
      else if (doc && typeof doc === 'object') {
        const map = doc as Record<string, unknown>;
        const kind = 'jobs' in map ? 'workflow' : 'steps' in map ? 'job' : undefined;
        if (kind)
          recipes.push({
            file,
            title: typeof map.name === 'string' ? map.name : heading,
            heading,
            text: block,
            kind,
          });
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

/** Where `npm run recipe` finds a recipe: `root` (README.md) or a sub-action (its README). */
function placeOf(file: string): string {
  return file === 'README.md' ? 'root' : file.replace(/\/README\.md$/, '');
}

/** The sub-actions and `root`, in the order of their READMEs. */
function places(): string[] {
  return markdownFiles()
    .filter((file) => file === 'README.md' || /^[^/]+\/README\.md$/.test(file))
    .map(placeOf);
}

/** The command that runs each recipe of `recipes`, one a line (a number after the title when it repeats). */
export function recipeCommands(recipes: Recipe[]): string[] {
  const seen = new Map<string, number>();
  return recipes.map((recipe) => {
    const key = `${recipe.file} › ${recipe.title}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const heading = recipe.heading && recipe.heading !== recipe.title ? `   # ${recipe.heading}` : '';
    return `  npm run recipe -- ${placeOf(recipe.file)} "${recipe.title}"${n > 1 ? ` ${n}` : ''}${heading}`;
  });
}

/** Edit distance of two names, case aside. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++)
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[y.length];
}

/** The (at most three) names of `names` closest to `name`, quoted. */
function closest(name: string, names: string[]): string {
  return [...new Set(names)]
    .map((candidate) => ({ candidate, far: distance(name, candidate) }))
    .sort((a, b) => a.far - b.far)
    .slice(0, 3)
    .map(({ candidate }) => `"${candidate}"`)
    .join(', ');
}

/**
 * What `npm run recipe -- <sub-action> "<title>" [n]` runs: the `n`th recipe (from 1) of that
 * sub-action's README (`root`: README.md) whose workflow `name:` or README heading is `title`, case
 * aside. Otherwise the lines it says instead, and it runs nothing (and exits 1): the recipes, a name
 * that does not exist with the closest ones, or a snippet of steps that does not run alone.
 */
export function chooseRecipe(args: string[]): { recipe: Recipe } | { lines: string[] } {
  const [where, title, nth = '1'] = args;
  const blocks = findBlocks();
  const recipes = blocks.filter((block) => block.kind !== 'steps');
  const usage = 'npm run recipe -- <sub-action> "<recipe title or heading>" [n]';
  if (where === undefined)
    return {
      lines: [`${usage} runs one recipe; this call ran none. The recipes:`, ...recipeCommands(recipes)],
    };
  const known = places();
  if (!known.includes(where))
    return {
      lines: [
        `No such sub-action "${where}": the closest are ${closest(where, known)}. ${usage} runs one recipe; the sub-actions: ${known.join(', ')}.`,
      ],
    };
  const file = where === 'root' ? 'README.md' : `${where}/README.md`;
  const own = recipes.filter((recipe) => recipe.file === file);
  const listed = ['Its recipes:', ...recipeCommands(own)];
  if (title === undefined)
    return {
      lines:
        own.length > 0
          ? [`Name a recipe of ${where} to run; this call ran none.`, ...recipeCommands(own)]
          : [`${where} has no recipe that runs; this call ran none. \`npm run recipe\` lists them all.`],
    };
  const named = (block: Recipe) =>
    [block.title, block.heading].some((name) => name.toLowerCase() === title.trim().toLowerCase());
  const matches = own.filter(named);
  const n = Number(nth);
  if (matches.length > 0) {
    if (Number.isInteger(n) && n >= 1 && n <= matches.length) return { recipe: matches[n - 1] };
    return {
      lines: [
        `${file} has ${matches.length} recipe${matches.length > 1 ? 's' : ''} named "${title}": give a number from 1 to ${matches.length}, not ${nth}.`,
      ],
    };
  }
  const snippet = blocks.find((block) => block.file === file && block.kind === 'steps' && named(block));
  if (snippet)
    return {
      lines: [
        `"${snippet.heading}" in ${file} is a snippet of steps, not a workflow or a job, so it does not run alone: ` +
          "put its steps in a job's `steps:` of a workflow of yours to try them" +
          (own.length > 0 ? `, or run a recipe of ${where}:` : '.'),
        ...(own.length > 0 ? recipeCommands(own) : []),
      ],
    };
  if (own.length === 0)
    return {
      lines: [
        `No recipe "${title}" in ${file}, which has no recipe that runs; \`npm run recipe\` lists them all.`,
      ],
    };
  const names = own.flatMap((recipe) => [recipe.title, recipe.heading]).filter(Boolean);
  return { lines: [`No recipe "${title}" in ${file}: the closest are ${closest(title, names)}.`, ...listed] };
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
