/**
 * The one module ncc bundles (dist/action/index.js): the main step of every command and the post
 * step. Each action.yml points at a small entry under dist/<entry>/ that the build writes beside
 * it, which loads this bundle (catching signals meanwhile: runner/signals.ts) and calls `run('<command>')`, `run()` (the root action: the
 * `command` input chooses) or `runPost()`. One bundle instead of eight: the commands share all
 * their code, and building it once keeps `npm run build` short.
 */
export { run } from './main.js';
export { run as runPost } from './post.js';
export { signalsBeforeLoad } from './runner/signals.js';
