// Bundle entrypoint of the `wait-for-run` sub-action (dist/wait-for-run/index.js).
import { run } from '../main.js';

await run('wait-for-run');
