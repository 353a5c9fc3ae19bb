/** The recipes of stop-device-session/README.md, run as written and checked with their RECIPES entries (testkit/docs/recipe-table.ts). */
import { describeRecipes } from '../../testkit/docs/recipe-tests.js';

describeRecipes('stop-device-session');
