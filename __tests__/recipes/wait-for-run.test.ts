/** The recipes of wait-for-run/README.md, run as written and checked with their RECIPES entries (testkit/docs/recipe-table.ts). */
import { describeRecipes } from '../../testkit/docs/recipe-tests.js';

describeRecipes('wait-for-run');
