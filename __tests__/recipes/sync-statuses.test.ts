/** The recipes of sync-statuses/README.md, run as written and checked with their RECIPES entries (testkit/docs/recipe-table.ts). */
import { describeRecipes } from '../../testkit/docs/recipe-tests.js';

describeRecipes('sync-statuses');
