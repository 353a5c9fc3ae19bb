/**
 * Text from elsewhere printed in the log never acts as a workflow command: the runner's reading of a
 * line, and the visible escape every line the action prints goes through (runner/io.ts calls it).
 */

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
