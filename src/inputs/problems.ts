/**
 * What a message about a bad input may say: the problem itself (InputProblem), a bad value shown
 * only when it cannot be a credential, a "did you mean" for a near miss, and what is wrong with a
 * value that is nearly an id (a typo, or the link to the page the id belongs to).
 */
import { UUID } from '../service/contract.js';
import { CONTROL } from '../text/one-line.js';

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

/** The near miss of `value` among `allowed`: the same word in another case, or one or two letters off. */
export function nearMiss(value: string, allowed: readonly string[]): string | undefined {
  const lower = value.toLowerCase();
  return (
    allowed.find((candidate) => candidate.toLowerCase() === lower) ??
    allowed.find((candidate) => editDistance(candidate.toLowerCase(), lower) <= 2)
  );
}

/** "did you mean" for a near miss (nearMiss), or ''. */
export function didYouMean(value: string, allowed: readonly string[]): string {
  return didYouMeanWords(nearMiss(value, allowed));
}

/** The words of a near miss already found, or '' for none. */
export function didYouMeanWords(match: string | undefined): string {
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

/**
 * The service's pages of a run and of a session end in its id (`…/workflows/<id>`,
 * `…/device-sessions/<id>`): a link pasted where the id belongs names the id to give instead.
 */
export function pageOf(value: string): { id: string; what: string } | undefined {
  const url = parseUrl(value);
  if (!url || !['http:', 'https:'].includes(url.protocol)) return undefined;
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const id = segments.at(-1) ?? '';
  if (!UUID.test(id)) return undefined;
  const parent = segments.at(-2);
  const what =
    parent === 'workflows' || parent === 'runs'
      ? 'a workflow run'
      : parent === 'device-sessions'
        ? 'a device session'
        : 'a dashboard';
  return { id: id.toLowerCase(), what };
}

/**
 * A value shaped like a UUID but for its length or a stray character is a typo, not a credential:
 * it is shown whole, with what is wrong. Undefined for anything else (shown() decides then).
 */
export function uuidTypo(value: string): string | undefined {
  if (value.length < 30 || value.length > 42 || value.split('-').length !== 5) return undefined;
  const stray = [...value].findIndex((char) => !/[0-9a-f-]/i.test(char));
  const strays = [...value].filter((char) => !/[0-9a-f-]/i.test(char)).length;
  if (strays > 1) return undefined;
  const groups = value.split('-').map((group) => group.length);
  const problem =
    stray >= 0
      ? `\`${value[stray]}\` at position ${stray + 1} is not a hexadecimal digit`
      : value.length !== 36
        ? `${value.length} characters instead of 36 (groups of ${groups.join('-')} digits)`
        : `groups of ${groups.join('-')} digits`;
  return `\`${value}\` (${problem})`;
}

export function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
