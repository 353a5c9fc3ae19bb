/** The service's ISO 8601 timestamps, for summaries: shown in a fixed form, and the time between two. */

/** `2025-01-31 12:34:56 UTC`; undefined when the value is absent or not a date. */
export function formatTimestamp(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Milliseconds from `from` to `to`; undefined when either is unknown or they are in the wrong order. */
export function msBetween(
  from: string | null | undefined,
  to: string | null | undefined,
): number | undefined {
  if (!from || !to) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** Elapsed time for progress lines: `42s`, `3m05s`, `1h02m`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
