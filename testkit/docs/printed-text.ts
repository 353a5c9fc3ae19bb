/**
 * A documented message held to the source that prints it (`__tests__/docs/claims.test.ts`): the
 * source as the text it prints, each `${…}` a placeholder, and whether a message the documents quote
 * (its words between the `…` the documents write for what varies) is in it.
 */

import { JOB_STATUSES, RUN_STATUSES, SESSION_STATUSES } from '../../src/service/contract.js';

/** A placeholder of the printed text: what a `${…}` of a template literal prints. */
const SLOT = '\u0000';

/**
 * Source text as it prints: each `${…}` a placeholder, and beside the text each of its placeholders
 * filled with a text it holds (a condition's words); escapes undone, literals joined by `+` one
 * text, line breaks and indentation one space.
 */
export function asPrinted(source: string): string {
  const { out, variants } = slotted(source);
  return [out, ...variants]
    .map((text) =>
      text
        .replace(/\\([`'"])/g, '$1')
        .replace(/(['"`])\s*\+\s*(['"`])/g, '')
        .replace(/\s+/g, ' '),
    )
    .join('\n');
}

/** `source` with a placeholder for each `${…}`, and the variants of it filled with their texts. */
function slotted(source: string): { out: string; variants: string[] } {
  let out = '';
  const inner: string[] = [];
  const filled: { at: number; texts: string[] }[] = [];
  for (let at = 0; at < source.length; at++) {
    // `${{ github.sha }}` is an expression of a workflow's, as text (written `\${{` in a template).
    if (source.startsWith('${', at) && source[at - 1] !== '\\' && source[at + 2] !== '{') {
      const from = at + 2;
      let depth = 0;
      for (; at < source.length; at++) {
        if (source[at] === '{') depth++;
        else if (source[at] === '}' && --depth === 0) break;
      }
      const within = slotted(source.slice(from, at));
      inner.push(within.out, ...within.variants);
      const texts = [...within.out.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map((match) => match[2]);
      filled.push({ at: out.length, texts });
      out += SLOT;
    } else out += source[at];
  }
  const variants = filled.flatMap(({ at, texts }) =>
    texts.map((text) => out.slice(Math.max(0, at - 300), at) + text + out.slice(at + 1, at + 300)),
  );
  return { out, variants: [...variants, ...inner] };
}

/** A fragment's words: a closing mark (`;`, `.`, `)`…) is a word of its own, written without a space. */
const wordsOf = (fragment: string): string[] =>
  fragment
    .replace(/\s+/g, ' ')
    .trim()
    .split(/ |(?=[.:,;)]+(?: |$))/)
    .filter(Boolean);

/** Words as written: a space before each, but none before a closing mark. */
const joined = (words: string[]): string =>
  words.map((word, index) => (index === 0 || /^[.:,;)]+$/.test(word) ? word : ` ${word}`)).join('');

/**
 * The plain words a row writes for what a placeholder prints: the service's statuses (`status
 * failure`, `it is errored`) and the job type the table shows (`(type build)`).
 */
const EXAMPLE_WORDS = new Set<string>([...RUN_STATUSES, ...JOB_STATUSES, ...SESSION_STATUSES, 'build']);

/**
 * Whether a word of a row can stand for what a placeholder prints: an example value, as ids, numbers
 * and names are written (a digit, `_`, `.`, `/`, a hyphen inside it: `build_ios`, `1.1`, `/api`,
 * `stop-device-session`, `<number>`), or one of the example words. Any other word is as written, so
 * that a changed word of a row (`end` for `finish`, `false` for `fail`) is not taken for a placeholder.
 */
const exampleLike = (word: string): boolean => /[\d_./]|\w-\w|^<.*>$/.test(word) || EXAMPLE_WORDS.has(word);

/**
 * Words of a documented message as a pattern of the printed text: each word is itself, or a
 * placeholder where the table shows an example value (`build_ios`, `1.1`, `failure`); a plain word
 * at a `literal` end is itself.
 */
function pattern(words: string[], literal: { first: boolean; last: boolean }): string {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A quoted value (`` `pull-requests: write` ``) is one example, whatever it holds.
  const parts = joined(words).split(/(`[^`]+`|\.?[^\s`(),;'".:]+(?:[.:][^\s`(),;'".:]+)*)/);
  const count = (parts.length - 1) / 2;
  return parts
    .map((part, index) => {
      if (index % 2 === 0) return escape(part);
      if (part.startsWith('`')) return `(?:${escape(part)}|\`?${SLOT}\`?)`;
      const word = (index - 1) / 2;
      const end = (word === 0 && literal.first) || (word === count - 1 && literal.last);
      return (end && /^[a-z]+$/i.test(part)) || !exampleLike(part)
        ? escape(part)
        : `(?:${escape(part)}|${SLOT})`;
    })
    .join('');
}

/**
 * Whether the printed text holds `fragment`: in one text, or in texts where one function's words go
 * into another's: a text that ends in a placeholder, then the text that fills it (`Invalid input:
 * ${problem}`, then the problem), or a text that is a placeholder's value, then the words after the
 * placeholder (`'Creating the device session'`, then `${operation} failed`). The fragment's first
 * plain word, which follows the table's `…`, and the plain words beside a join are as written, but
 * for a placeholder's example before a closing mark (`status failure`, then `. Failed jobs`).
 */
export function holds(corpus: string, fragment: string): boolean {
  const words = wordsOf(fragment);
  const quote = `['"\`]`;
  const found = (regex: string) => new RegExp(regex).test(corpus);
  const tried = new Map<string, boolean>();
  const heldFrom = (from: number, opening: string): boolean => {
    const key = `${from}${opening}`;
    if (!tried.has(key)) {
      const part = (to: number) =>
        opening +
        pattern(words.slice(from, to), {
          first: true,
          last: to < words.length && !/^[.:,;)]+$/.test(words[to]) && !/^[.:,;)]+$/.test(words[to - 1]),
        });
      let held = found(part(words.length));
      for (let to = from + 1; !held && to < words.length; to++)
        held =
          (found(`${part(to)} ?${SLOT}(?:[.:,;]?${SLOT})*${quote}`) && heldFrom(to, `${quote} ?`)) ||
          (found(`${quote}${part(to)}${quote}`) && heldFrom(to, `${SLOT} ?`));
      tried.set(key, held);
    }
    return tried.get(key)!;
  };
  return heldFrom(0, '');
}
