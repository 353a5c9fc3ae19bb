/**
 * Every recipe of the READMEs runs (issue 23 part B): each ```yaml block of every README that is a
 * workflow or a job has its entry in RECIPES (testkit/docs/recipe-table.ts: what its prose claims),
 * each entry has its recipe, and each recipe runs in one test file of this folder (RECIPE_TEST_FILES
 * says which; each calls `describeRecipes`, testkit/docs/recipe-tests.ts). A recipe added to a README without its entry fails
 * here: a new recipe must be run to land.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { findBlocks, type Recipe } from '../../testkit/docs/recipes.js';
import { plannedRecipes, RECIPE_TEST_FILES, RECIPES, runsIn } from '../../testkit/docs/recipe-table.js';
import { ROOT } from '../../testkit/runner/step.js';

const planned = plannedRecipes();

describe('the README recipes', () => {
  test('every workflow or job block of the READMEs is a recipe the suite runs', () => {
    const blocks = findBlocks();
    const workflowsAndJobs = blocks.filter((block) => block.kind !== 'steps');
    console.log(
      `${blocks.length} yaml blocks: ${workflowsAndJobs.length} workflows or jobs (recipes), ` +
        `${blocks.length - workflowsAndJobs.length} step snippets; ${planned.filter((p) => p.expectation).length} recipes run`,
    );
    expect(planned.filter((p) => !p.expectation).map((p) => p.key)).toEqual([]);
    expect(planned.filter((p) => p.expectation)).toHaveLength(workflowsAndJobs.length);
  });

  test('every entry of RECIPES is a recipe of its README', () => {
    const count = (key: string): number =>
      planned.filter(({ recipe }) => `${recipe.file} › ${recipe.title}` === key).length;
    expect(
      Object.entries(RECIPES)
        .filter(([key, entries]) => count(key) !== entries.length)
        .map(([key, entries]) => `${key}: ${entries.length} entries, ${count(key)} recipes`),
    ).toEqual([]);
  });

  test('each recipe runs in one test file of RECIPE_TEST_FILES, and each of those files runs its share', () => {
    const runners = (recipe: Recipe): string[] =>
      Object.keys(RECIPE_TEST_FILES).filter((name) => runsIn(name, recipe));
    expect(
      planned
        .filter(({ recipe }) => runners(recipe).length !== 1)
        .map(({ key, recipe }) => `${key}: run by ${runners(recipe).join(', ') || 'no test file'}`),
    ).toEqual([]);
    // Each name of the table is a test file that runs its share, and no other file runs recipes.
    const dir = join(ROOT, '__tests__', 'recipes');
    const callers = readdirSync(dir)
      .filter((file) => file.endsWith('.test.ts'))
      .flatMap((file) =>
        [...readFileSync(join(dir, file), 'utf8').matchAll(/^describeRecipes\('([^']+)'\);$/gm)].map(
          (match) => `${file} runs ${match[1]}`,
        ),
      );
    expect(callers.sort()).toEqual(
      Object.keys(RECIPE_TEST_FILES)
        .map((name) => `${name}.test.ts runs ${name}`)
        .sort(),
    );
  });
});
