// Bundle entrypoint of the `start-device-session` sub-action (dist/start-device-session/index.js).
import { run } from '../main.js';

await run('start-device-session');
