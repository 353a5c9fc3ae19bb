// Preloaded with `node --import` by tests that need a step caught while its bundle loads, which
// otherwise takes a few tens of milliseconds and cannot be aimed at. When HOLD_BUNDLE_DIR is set,
// the load of dist/action/index.js waits: `loading` is written in that folder when it starts, and
// it goes on once the test has written `go` there. Without HOLD_BUNDLE_DIR it changes nothing.
import { register } from 'node:module';

register('./hold-bundle-hooks.mjs', import.meta.url);
