/**
 * What a message about a bad input may say: the problem itself (InputProblem), a bad value shown
 * only when it cannot be a credential, and a "did you mean" for a near miss.
 */
import { CONTROL } from '../text/plain.js';

/** One problem with one input; the reader collects them all before failing. */
export class InputProblem extends Error {}

/** A remark on a valid input: `warning` when the value may not be what was meant, else `notice`. */
export interface InputNote {
  level: 'warning' | 'notice';
  text: string;
}

export type Parser<T> = (value: string, name: string) => T;

/**
 * A short, printable rendering of a bad value for an error message. A value that looks like it
 * could be a credential (long, no spaces, high entropy) is not quoted at all: a token pasted into
 * the wrong input must not land in the log.
 */
export function shown(value: string): string {
  if (looksLikeSecret(value)) return 'a value that looks like a credential (not shown)';
  const flat = value.replace(new RegExp(CONTROL.source, 'g'), '?');
  return `\`${flat.length > 60 ? `${flat.slice(0, 57)}...` : flat}\``;
}

function looksLikeSecret(value: string): boolean {
  // user:password@ of a URL, with or without a scheme (`admin:pw@host` parses as a URL too).
  if (/:[^/@]+@/.test(value)) return true;
  // A token pasted beside other words (`Bearer <token>`) is still a token.
  return value.split(/\s+/).some(looksLikeToken);
}

function looksLikeToken(word: string): boolean {
  // Paths (`.github/workflows/e2e.yml`) and URLs are not tokens.
  if (word.length < 20 || word.includes('/')) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(word)).length;
  return classes >= 2 && !/^[a-z0-9.-]+\.(ya?ml)$/i.test(word) && !/^https?:\/\/[^@]*$/i.test(word);
}

/** "did you mean" for a near miss: the same word in another case, or one or two letters off. */
export function didYouMean(value: string, allowed: readonly string[]): string {
  const lower = value.toLowerCase();
  const match =
    allowed.find((candidate) => candidate.toLowerCase() === lower) ??
    allowed.find((candidate) => editDistance(candidate.toLowerCase(), lower) <= 2);
  return match ? ` Did you mean \`${match}\`?` : '';
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length];
}
