// Bundle entrypoint of the main step (dist/main.js); main.ts only exports run() so tools can import it.
import { run } from './main.js';

await run();
