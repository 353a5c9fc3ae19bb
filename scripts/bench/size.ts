/**
 * 1. Size of what a step loads: its two-line dist/<entry>/index.js and the one bundle,
 *    dist/action/index.js, that every entry imports.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../testkit/runner/step.js';
import { mb, MB, note, row } from './table.js';

/** Smallest bundle among comparable dispatch-and-wait actions (field notes: 0.97–1.56 MB). */
const SMALLEST_COMPARABLE_MB = 0.97;

/**
 * Below the smallest comparable action. 0.9 MB until interface v6, whose GitHub side (one reader of
 * GitHub's answers, the sync's GraphQL listing, paced statuses, merge_group) brought 0.88 MB to 0.905 MB.
 */
const BUNDLE_BUDGET_MB = 0.95;

export function sizes(): void {
  const dist = join(ROOT, 'dist');
  const bundle = statSync(join(dist, 'action', 'index.js')).size;
  const entries = readdirSync(dist, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'action')
    .map((entry) => entry.name)
    .sort();
  for (const entry of entries) {
    const bytes = bundle + statSync(join(dist, entry, 'index.js')).size;
    const who =
      entry === 'main'
        ? 'root action, main step'
        : entry === 'post'
          ? 'the post step of the root action and of start-device-session'
          : `${entry} sub-action`;
    row(
      `what a step loads: dist/${entry}/index.js + dist/action/index.js (${who})`,
      mb(bytes),
      `< ${BUNDLE_BUDGET_MB.toFixed(2)} MB (comparable actions: ${SMALLEST_COMPARABLE_MB}–1.56 MB)`,
      bytes / MB < BUNDLE_BUDGET_MB,
    );
  }
  // Other .js files beside the bundle are chunks ncc split off; a step loads one only when it needs it.
  const chunks = readdirSync(join(dist, 'action')).filter(
    (file) => file.endsWith('.js') && file !== 'index.js',
  );
  if (chunks.length > 0)
    note(
      `dist/action: ${chunks.map((file) => `${file} ${(statSync(join(dist, 'action', file)).size / 1024).toFixed(0)} kB`).join(', ')} loaded only on demand (the pull-request comment).`,
    );
}
