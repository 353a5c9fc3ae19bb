/** The recipes of run-workflow/README.md, run as written and checked with their RECIPES entries (testkit/docs/recipe-table.ts). */
import { describeRecipes } from '../../testkit/docs/recipe-tests.js';

describeRecipes('run-workflow');
