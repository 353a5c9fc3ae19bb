/**
 * The one-line rule for text from elsewhere (the service, a webhook, the pull request's workflow file,
 * the user's inputs) printed in the log or a message: no control characters, a bounded length, cut
 * between words so that a cut never leaves part of a secret in clear. Markdown for the job summary and
 * comments is in markdown.ts; what keeps a line from acting as a workflow command is in neutralise.ts.
 */

/**
 * The one class of characters that have no place on a line of the log: C0 and C1 controls (line
 * breaks, ESC, DEL) and the Unicode line and paragraph separators. Tested (`CONTROL.test`) or
 * replaced (`new RegExp(CONTROL.source, 'g')`) wherever text from elsewhere is checked.
 */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_CHARS = new RegExp(`${CONTROL.source}+`, 'g');

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

/** More than any text of a summary shows; cut before redaction, which then costs little. */
const BOUND = 2000;

export function bounded(text: string): string {
  return text.length > BOUND ? oneLine(text, BOUND) : text;
}
