// Bundle entrypoint of the root action's main step (dist/main/index.js): the `command` input picks
// the command. main.ts only exports run() so that tools (local-action, tests) can import it.
import { run } from './main.js';

await run();
