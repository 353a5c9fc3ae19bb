/**
 * The icon every summary, comment and log table puts before a run's, a job's, a session's or a
 * webhook delivery's status, so that one status reads the same everywhere. A status the service
 * added later gets ❔.
 */
import { markdownText } from './markdown.js';

const STATUS_ICON: Record<string, string> = {
  success: '✅',
  failure: '❌',
  canceled: '⏹️',
  skipped: '⏭️',
  'in-progress': '⏳',
  new: '🕒',
  'action-required': '✋',
  'pending-cancel': '⏹️',
  stopped: '⏹️',
  errored: '❌',
  // A commit status's own states (github/statuses.ts), where they differ from the service's words.
  pending: '⏳',
  error: '⚠️',
  // A build's or a submission's, in a webhook payload.
  finished: '✅',
};

/** A status with its icon, for a table cell or a list. */
export function status(value: string): string {
  return `${STATUS_ICON[value] ?? '❔'} ${markdownText(value, 40)}`;
}
