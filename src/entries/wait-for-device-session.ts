// Bundle entrypoint of the `wait-for-device-session` sub-action (dist/wait-for-device-session/index.js).
import { run } from '../main.js';

await run('wait-for-device-session');
