// Bundle entrypoint of the `stop-device-session` sub-action (dist/stop-device-session/index.js).
import { run } from '../main.js';

await run('stop-device-session');
