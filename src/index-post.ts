// Bundle entrypoint of the post step (dist/post/index.js), shared by the root action and the
// start-device-session sub-action: both save the same state.
import { run } from './post.js';

await run();
