/**
 * Making text from elsewhere (the service, a webhook, the pull request's workflow file, the user's
 * inputs) safe to print in the log. Markdown for the job summary and comments is in markdown.ts.
 */

/**
 * The one class of characters that have no place on a line of the log: C0 and C1 controls (line
 * breaks, ESC, DEL) and the Unicode line and paragraph separators. Tested (`CONTROL.test`) or
 * replaced (`new RegExp(CONTROL.source, 'g')`) wherever text from elsewhere is checked.
 */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_CHARS = new RegExp(`${CONTROL.source}+`, 'g');

/** A plain object (not null, not an array): the one test before reading fields of parsed JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A sentence's final dots removed, so that a message quoted inside another ends with one. */
export function withoutFinalDots(text: string): string {
  return text.replace(/\.+$/, '');
}

/** Where a cut may fall: white space as `trim()` sees it. */
const SPACE = /\s/;

/** What a shortened text ends with: after a space when words were kept, alone when none was. */
export const CUT_MARK = '…';

/**
 * One line of at most `max` characters: control characters and line breaks become one space.
 *
 * A longer text is cut between words, never inside one, and ends in ` …`: the runner masks a
 * secret only where it appears whole, so a cut through one (`ghp_abc…`) would leave a long prefix
 * of it in clear. A word that does not fit is dropped whole, however long (a token, a URL): a text
 * that starts with one shows as `…` alone. Only the first `max * 2 + 64` characters are looked at,
 * so a huge text costs no more than a short one.
 */
export function oneLine(text: string, max = 300): string {
  const scanLimit = max * 2 + 64;
  const more = text.length > scanLimit;
  const flat = (more ? text.slice(0, scanLimit) : text).replace(CONTROL_CHARS, ' ').trim();
  if (!more && flat.length <= max) return flat;
  return cutBetweenWords(flat, max, more);
}

/**
 * `flat` cut to whole words within `max` characters, marked with ` …`. `more`: text followed that
 * was not looked at, so the last word of `flat` may be incomplete and is never kept.
 */
function cutBetweenWords(flat: string, max: number, more: boolean): string {
  const room = max - CUT_MARK.length - 1;
  if (room <= 0) return CUT_MARK;
  let end = Math.min(room, flat.length);
  // The kept part ends where a space follows; otherwise the word it ends in is dropped.
  const followedBySpace = end < flat.length ? SPACE.test(flat[end]) : !more;
  if (!followedBySpace) while (end > 0 && !SPACE.test(flat[end - 1])) end--;
  const kept = flat.slice(0, end).trimEnd();
  return kept ? `${kept} ${CUT_MARK}` : CUT_MARK;
}

/**
 * Characters the runner does not see when it looks for a command: what .NET's TrimStart removes
 * (U+0085, U+00A0, U+3000, ... beyond JavaScript's `\s`) and what its ICU comparisons skip
 * (default-ignorable and control characters). A superset on purpose: a line is judged as the
 * most lenient reading would judge it.
 */
const UNSEEN = '\\s\\p{Z}\\p{Cc}\\p{Default_Ignorable_Code_Point}\\u0085\\u180e';
/** `::` at the start of a line, after unseen characters (and with any between the two colons). */
const COMMAND_START = new RegExp(`^[${UNSEEN}]*:[\\p{Cc}\\p{Default_Ignorable_Code_Point}]*:`, 'u');
const LEADING_UNSEEN = new RegExp(`^[${UNSEEN}]+`, 'u');
/** `##[` anywhere in a line (the legacy format), with or without ignorable characters inside. */
const LEGACY_PREFIX =
  /#([\p{Cc}\p{Default_Ignorable_Code_Point}]*)#([\p{Cc}\p{Default_Ignorable_Code_Point}]*)\[/gu;

/**
 * Every log line the action prints passes through here, so that no text, whatever it holds, can be
 * read by the runner as a workflow command (actions/runner reads `::name::data` at the start of a
 * line after .NET white space, and `##[name]data` ANYWHERE in it; lines end at CR as well as LF):
 * a line that starts like `::` gets a visible `» ` in front, and every `##[` becomes `## [`.
 *
 * Why a visible escape rather than the runner's own `::stop-commands::<token>` … `::<token>::`:
 * @actions/core has no function for it, so the action would hand-write that protocol; the runner
 * echoes both lines into the log around every such message; and while commands are stopped the
 * action's own `::add-mask::` and `::error::` are ignored, so a stop that is not resumed (a write cut
 * short, a crash in between) would let the next secret through in clear. The escape is stateless,
 * changes only lines that look like commands, and leaves them readable.
 */
export function neutraliseLines(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const safe = line.replace(LEGACY_PREFIX, '#$1#$2 [');
      return COMMAND_START.test(safe) ? `» ${safe.replace(LEADING_UNSEEN, '')}` : safe;
    })
    .join('\n');
}

/** Elapsed time for progress lines: `42s`, `3m05s`, `1h02m`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** More than any text of a summary shows; cut before redaction, which then costs little. */
const BOUND = 2000;

export function bounded(text: string): string {
  return text.length > BOUND ? oneLine(text, BOUND) : text;
}
