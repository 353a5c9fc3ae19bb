// Bundle entrypoint of the post step (dist/post.js).
import { run } from './post.js';

await run();
