// Bundle entrypoint of the `verify-webhook` sub-action (dist/verify-webhook/index.js).
import { run } from '../main.js';

await run('verify-webhook');
