/** The device matrix and build-then-test recipes of start-device-session/README.md, run as written and checked with their RECIPES entries (testkit/docs/recipe-table.ts). */
import { describeRecipes } from '../../testkit/docs/recipe-tests.js';

describeRecipes('start-device-session-matrix');
