// Bundle entrypoint of the `run-workflow` sub-action (dist/run-workflow/index.js).
import { run } from '../main.js';

await run('run-workflow');
