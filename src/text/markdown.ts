/**
 * Markdown for the job summary and the pull-request comment, which GitHub renders: text from
 * elsewhere (commit messages, job names, error messages, session names) must show as the text it
 * is. Rendered as it came, it could add links, images fetched from any host when the page is
 * viewed, `@mentions` that notify people, issue back-references, emphasis, headings, lists and
 * HTML, close a link label early with `]`, split a table row with `|` or a trailing `\`, or
 * reorder what is shown around it with bidirectional control characters.
 *
 * Three renderings:
 * - markdownVerbatim / markdownCode: an inline code span, for free-form text from the service
 *   (commit messages) and for ids and keys; markdownMessage: a quoted fenced code block, for
 *   messages (job errors, why a step failed). Their characters are written as they came, so a
 *   secret in them stays whole and the runner, which masks secrets in the uploaded job summary by
 *   exact match only, still finds it. Inside code GitHub renders nothing: no emphasis, links,
 *   autolinks, HTML (`<img>` is shown as text), entities (`&amp;` is shown as written), mentions or
 *   references. The only characters changed are line breaks (flattened in a span) and
 *   bidirectional controls (shown as `<U+202E>`), and in a table cell `|` (written `\|`, which
 *   GitHub shows as `|`: GFM splits table rows before it reads code spans).
 * - markdownText: escaped plain text, for short labels (job names, statuses): reads better, but
 *   escaping changes characters (`_` is written `\_`), so it is never used for text that may carry
 *   a secret.
 */
import { oneLine } from './one-line.js';

/**
 * The zero-width space, as an entity so the source shows it. GitHub finds `@name` mentions and
 * `#123` / `GH-123` references in the text AFTER Markdown is rendered (a backslash escape is gone
 * by then), so the only way to keep them as text is to put something between the sign and the name.
 * (Inside a code span GitHub looks for neither, and an entity would show as written.)
 */
const ZERO_WIDTH = '&#8203;';

/**
 * Bidirectional control characters (embeddings, overrides, isolates, marks): they reorder how the
 * text around them is displayed ("Trojan Source"), in code spans too. Each is shown as its code point.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function showBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (sign) => `<U+${sign.charCodeAt(0).toString(16).toUpperCase()}>`);
}

/**
 * ASCII punctuation that means something in (GitHub-flavoured) Markdown: emphasis, code, links,
 * images, headings, ordered lists (`.`), tables, strikethrough, math (`$`), autolinks (`:` and
 * `.` are escaped so that `https://…` and `www.…` in text are not turned into links). CommonMark lets any ASCII
 * punctuation be escaped with a backslash, and GFM reads `\|` inside a table cell as a pipe.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#.!|~:$]/g;
/** `-` and `+` only start a list (and `- - -` a rule) at the start of a line; elsewhere they are text. */
const LIST_START = /^[-+]/;
/** `GH-123` is an issue reference on GitHub, in any case, unless a letter or digit comes before it. */
const GH_REFERENCE = /(?<![A-Za-z0-9])(gh-)(?=\d)/gi;

/**
 * Text from elsewhere as one line of Markdown text, safe in a paragraph, a quote, a heading, a
 * link label or a table cell: at most `max` characters of the original, line breaks flattened.
 * Escaping changes characters: use markdownVerbatim for text that may hold a secret.
 */
export function markdownText(text: string, max = 200): string {
  return showBidi(oneLine(text, max))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MARKDOWN_PUNCTUATION, (sign) => `\\${sign}`)
    .replace(LIST_START, (sign) => `\\${sign}`)
    .replace(/@/g, `@${ZERO_WIDTH}`)
    .replace(/\\#(?=\d)/g, `\\#${ZERO_WIDTH}`)
    .replace(GH_REFERENCE, `$1${ZERO_WIDTH}`);
}

/**
 * One of the action's own sentences, in which `…` marks an input's name or a value (as in the log):
 * those parts become code spans, the rest escaped text, so the reader sees no literal backticks.
 * The values inside may come from elsewhere: each part is rendered as safely as markdownText and
 * markdownCode render theirs.
 */
export function markdownSentence(text: string, max = 1000): string {
  return oneLine(text, max)
    .split(/(`[^`]+`)/)
    .map((part) => {
      if (/^`[^`]+`$/.test(part)) return markdownCode(part.slice(1, -1), max);
      // markdownText trims: the spaces around a code span stay.
      const [lead, trail] = [/^\s*/.exec(part)?.[0] ?? '', /\s*$/.exec(part)?.[0] ?? ''];
      return part.trim() === '' ? part : `${lead}${markdownText(part, max)}${trail}`;
    })
    .join('');
}

/**
 * Free-form text from elsewhere (an error message, a commit message) as an inline code span, its
 * characters as they came (see above), outside table cells: in a paragraph, a list item, a quote
 * or a heading. At most `max` characters, cut between words (oneLine), never inside one.
 */
export function markdownVerbatim(text: string, max = 200): string {
  return codeSpan(showBidi(oneLine(text, max)));
}

/**
 * A message from elsewhere (a job's error, the step's failure) as a quoted block of its own, its
 * lines as they came (a long one as its sentences) (at most `maxLines`, each at most `max` characters) inside a fenced code block:
 * the characters are written unchanged, so a secret in it is still masked by the runner, and nothing
 * in it is rendered (no link, mention, emphasis or HTML). It reads as one message, not as fragments:
 * its URLs are shown once, as text (the summary links the pages that matter itself). A block of
 * its own lines: never inside a paragraph or a table cell.
 */
export function markdownMessage(text: string, max = 1000, maxLines = 10): string {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const shown = lines.slice(0, maxLines).flatMap((line) => sentences(showBidi(oneLine(line, max))));
  if (lines.length > maxLines) shown.push(`… (${lines.length - maxLines} more lines)`);
  // The fence is longer than any run of backticks in the text, so no line of it can close the block.
  let longestRun = 2;
  for (const line of shown)
    for (const [run] of line.matchAll(/`+/g)) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(longestRun + 1);
  return [`${fence}text`, ...shown, fence].map((line) => `> ${line}`).join('\n');
}

/**
 * A long line of a message as its sentences, one a line: a code block does not wrap, and one line of
 * several hundred characters runs off the page where the log would have wrapped it. A sentence ends
 * in `.`, `!` or `?` before a space and a capital or a backtick; nothing else is cut, so no word
 * (and no secret, which has no such space in it) is split.
 */
function sentences(line: string): string[] {
  return line.length <= WRAP_AFTER ? [line] : line.split(/(?<=[.!?])\s+(?=[A-Z`])/);
}

/** The length up to which a message's line stays whole. */
const WRAP_AFTER = 100;

/**
 * Text from elsewhere as an inline code span that is also safe in a table cell (for ids, refs,
 * keys, and free-form text that a table shows): `|` is written `\|`, which GitHub shows as `|`.
 */
export function markdownCode(text: string, max = 200): string {
  return codeSpan(showBidi(oneLine(text, max))).replace(/\|/g, '\\|');
}

/** A code span of one flat line: the fence is one backtick longer than any run in the text. */
function codeSpan(flat: string): string {
  if (flat === '') return '';
  let longestRun = 0;
  for (const [run] of flat.matchAll(/`+/g)) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(longestRun + 1);
  // A space on each side is stripped by the renderer: it keeps a backtick at either end apart from the fence.
  const padded = flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat;
  return `${fence}${padded}${fence}`;
}

/**
 * A link whose target is a URL the service gave for that purpose, only when it is http(s); any
 * other URL (javascript:, data:, relative, malformed) leaves the label as plain text.
 */
export function markdownLink(label: string, url: string | null | undefined, max = 200): string {
  const href = httpUrl(url);
  const text = markdownText(label, max);
  return href ? `[${text}](<${href}>)` : text;
}

/** The URL normalised by the WHATWG parser, with what could end or split the link encoded; else undefined. */
export function httpUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  // `<` `>` end the bracketed destination, `\` escapes, `|` splits a table row, the rest are
  // encoded for good measure; all are safe to percent-encode in a URL.
  return parsed.href.replace(
    /[<>\\|()`'" ]/g,
    (sign) => `%${sign.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
