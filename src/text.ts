/**
 * Making text from elsewhere (the service, a webhook, the user's inputs) safe to print.
 * The runner treats any log line that starts with `::` (or the legacy `##[`) after leading
 * white space as a workflow command, so text from outside must never start a line.
 */

const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line of at most `max` characters: control characters and line breaks become one space. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(CONTROL_CHARS, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const COMMAND_START = /^(\s*)(::|##\[)/;

/**
 * Every line the action logs passes through here: a line that would read as a workflow command
 * gets a visible marker in front, so it is printed as text instead of being obeyed.
 */
export function neutraliseLines(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => (COMMAND_START.test(line) ? `» ${line.trimStart()}` : line))
    .join('\n');
}

/** A value for a cell of a Markdown table in the job summary: one line, no HTML, no column breaks. */
export function markdownCell(text: string, max = 200): string {
  return oneLine(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, "'");
}

/** A link in the summary, only for http(s) URLs; anything else is shown as text. */
export function markdownLink(label: string, url: string | null | undefined): string {
  if (!url || !/^https?:\/\//i.test(url)) return markdownCell(label);
  return `[${markdownCell(label)}](${encodeURI(decodeURIComponentSafe(url)).replace(/\)/g, '%29')})`;
}

function decodeURIComponentSafe(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/** Elapsed time for progress lines: `42s`, `3m05s`, `1h02m`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
