/**
 * The small pure parsers the input tables are made of. Each takes the trimmed, non-empty value of
 * one input and returns what the command needs, or throws an InputProblem whose message names the
 * input, what is wrong and what is allowed. Values of inputs that may hold secrets are never
 * echoed: `shown()` decides what a message may quote.
 */
import { isMap, isScalar, LineCounter, parseDocument, visit, type Scalar, type YAMLError } from 'yaml';

/** One problem with one input; the reader collects them all before failing. */
export class InputProblem extends Error {}

export type Parser<T> = (value: string, name: string) => T;

import { UUID } from '../service/contract.js';

export { UUID };
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** The shortest poll interval allowed: fast tests against the simulator, never a busy loop. */
export const MIN_POLL_INTERVAL_SECONDS = 0.05;

/**
 * A short, printable rendering of a bad value for an error message. A value that looks like it
 * could be a credential (long, no spaces, high entropy) is not quoted at all: a token pasted into
 * the wrong input must not land in the log.
 */
export function shown(value: string): string {
  if (looksLikeSecret(value)) return 'a value that looks like a credential (not shown)';
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
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

export const text =
  (max: number): Parser<string> =>
  (value, name) => {
    if (value.length > max)
      throw new InputProblem(`\`${name}\` is ${value.length} characters long; at most ${max} are allowed.`);
    if (CONTROL.test(value))
      throw new InputProblem(`\`${name}\` must be a single line without control characters.`);
    return value;
  };

export const uuid: Parser<string> = (value, name) => {
  if (!UUID.test(value))
    throw new InputProblem(
      `\`${name}\` must be a UUID (8-4-4-4-12 hexadecimal digits); got ${uuidTypo(value) ?? shown(value)}.`,
    );
  return value.toLowerCase();
};

/**
 * A value shaped like a UUID but for its length or a stray character is a typo, not a credential:
 * it is shown whole, with what is wrong. Undefined for anything else (shown() decides then).
 */
function uuidTypo(value: string): string | undefined {
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

export const boolean: Parser<boolean> = (value, name) => {
  // The YAML 1.2 core schema's spellings, as @actions/core's getBooleanInput accepts them.
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new InputProblem(
    `\`${name}\` must be \`true\` or \`false\`; got ${shown(value)}.${didYouMean(value, ['true', 'false'])}`,
  );
};

export const oneOf =
  <T extends string>(allowed: readonly T[]): Parser<T> =>
  (value, name) => {
    if ((allowed as readonly string[]).includes(value)) return value as T;
    throw new InputProblem(
      `\`${name}\` is ${shown(value)}; allowed: ${allowed.join(', ')}.${didYouMean(value, allowed)}`,
    );
  };

/**
 * A list of allowed words separated by commas or line breaks (`errored, canceled`), duplicates
 * dropped. Each word that is not allowed is named, with a "did you mean" for a near miss.
 */
export const oneOfList =
  <T extends string>(allowed: readonly T[]): Parser<T[]> =>
  (value, name) => {
    const items = [
      ...new Set(
        value
          .split(/[,\n\r]+/)
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      ),
    ];
    const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
    const allowedText = `Allowed, separated by commas or line breaks: ${allowed.join(', ')}.`;
    if (items.length === 0) throw new InputProblem(`\`${name}\` lists nothing. ${allowedText}`);
    if (unknown.length > 0) {
      const named = unknown.map((item) => {
        const hint = didYouMean(item, allowed).trim();
        return hint ? `${shown(item)} (${hint[0].toLowerCase()}${hint.slice(1)})` : shown(item);
      });
      const what = unknown.length === 1 ? 'a value that is not allowed' : 'values that are not allowed';
      throw new InputProblem(`\`${name}\` has ${what}: ${named.join(', ')}. ${allowedText}`);
    }
    return items as T[];
  };

/** Whole minutes in [min, max]: "30" yes; "30.5", "-1", "1e2" no. */
export const integer =
  (min: number, max: number): Parser<number> =>
  (value, name) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InputProblem(
        `\`${name}\` must be a whole number from ${min} to ${max}; got ${shown(value)}.`,
      );
    return Number(value);
  };

/** A positive decimal number (fractions allowed) in [min, max]. */
export const positiveNumber =
  (max: number, min = 0): Parser<number> =>
  (value, name) => {
    const number = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || !(number > 0) || number < min || number > max) {
      const range = min > 0 ? `from ${min} to ${max}` : `up to ${max}`;
      throw new InputProblem(
        `\`${name}\` must be a positive number (fractions allowed) ${range}; got ${shown(value)}.`,
      );
    }
    return number;
  };

/** A token goes into an HTTP header: printable ASCII, one word. Never echoes the value. */
export const credential: Parser<string> = (value, name) => {
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new InputProblem(
      `\`${name}\` must be a single word of printable ASCII characters (no spaces, line breaks or other characters an HTTP header cannot carry).`,
    );
  return value;
};

export const httpUrl =
  (maxLength: number): Parser<string> =>
  (value, name) => {
    if (value.length > maxLength)
      throw new InputProblem(
        `\`${name}\` is ${value.length} characters long; at most ${maxLength} are allowed.`,
      );
    const url = parseUrl(value);
    if (!url || !['http:', 'https:'].includes(url.protocol) || /\s/.test(value))
      throw new InputProblem(`\`${name}\` must be an http or https URL; got ${shown(value)}.`);
    return value;
  };

/** The service's base URL, normalised without a trailing slash. */
export const baseUrl: Parser<string> = (value, name) => {
  const url = parseUrl(value);
  if (!url || !['http:', 'https:'].includes(url.protocol))
    throw new InputProblem(
      `\`${name}\` must be an http or https URL, optionally with a path prefix; got ${shown(value)}.`,
    );
  if (url.username || url.password)
    throw new InputProblem(`\`${name}\` must not contain credentials; pass the token in \`token\`.`);
  if (url.search || url.hash) throw new InputProblem(`\`${name}\` must not have a query or fragment.`);
  if (/\/v\d+\/*$/.test(url.pathname))
    throw new InputProblem(
      `\`${name}\` must not include the API version (${url.pathname.replace(/\/+$/, '')}): give the service's base URL, such as https://api.example.com; the action adds /v2 itself.`,
    );
  return url.toString().replace(/\/+$/, '');
};

export const workflowFileName: Parser<string> = (value, name) => {
  if (/[/\\]/.test(value) || value === '..' || value.startsWith('.'))
    throw new InputProblem(
      `\`${name}\` must be a file name only, such as \`e2e.yml\`, with no directory (the service looks in the workflows folder); got ${shown(value)}.`,
    );
  if (CONTROL.test(value) || !/\.ya?ml$/i.test(value) || value.length > 255)
    throw new InputProblem(
      `\`${name}\` must be a .yml or .yaml file name of at most 255 characters; got ${shown(value)}.`,
    );
  return value;
};

export const gitRef: Parser<string> = (value, name) => {
  if (
    value.startsWith('-') ||
    value.includes('..') ||
    /[\s~^:?*[\\\u0000-\u001f\u007f]/.test(value) ||
    value.length > 255
  )
    throw new InputProblem(
      `\`${name}\` must be a branch, tag, commit SHA or full ref such as refs/heads/main; got ${shown(value)}.`,
    );
  return value;
};

/** `expected-commit`: a commit SHA, whole or its first 7 or more hexadecimal digits; lower-cased. */
export const commitSha: Parser<string> = (value, name) => {
  if (!/^[0-9a-f]{7,64}$/i.test(value))
    throw new InputProblem(
      `\`${name}\` must be a commit SHA (at least its first 7 hexadecimal digits), or '' to follow a run of any commit; got ${shown(value)}.`,
    );
  return value.toLowerCase();
};

/** `sdk-version`: a major version, such as `52`. */
export const majorVersion: Parser<string> = (value, name) => {
  if (!/^[1-9]\d{0,3}$/.test(value))
    throw new InputProblem(`\`${name}\` must be a major version number such as \`52\`; got ${shown(value)}.`);
  return value;
};

/** `open-url`: a URL with a scheme (`myapp://path`, `https://…`). */
export const schemeUrl: Parser<string> = (value, name) => {
  text(2048)(value, name);
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(value))
    throw new InputProblem(
      `\`${name}\` must be a URL with a scheme, such as \`myapp://path\` or \`https://…\`.`,
    );
  return value;
};

/** `launch-args`: a JSON array of strings, or one argument per line. */
export const launchArgs: Parser<string[]> = (value, name) => {
  if (!value.startsWith('['))
    return value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && parsed.every((arg) => typeof arg === 'string')) return parsed;
  } catch {
    // reported below
  }
  throw new InputProblem(
    `\`${name}\` starts with \`[\` but is not a JSON array of strings; use a JSON array or one argument per line.`,
  );
};

/**
 * `jobs`: job keys, or `type:<job type>` selectors (`type:build`), separated by commas or line
 * breaks; `type: build` is read as `type:build`.
 */
export const jobKeys: Parser<string[]> = (value, name) => {
  const selectors = [
    ...new Set(
      value
        .split(/[,\n\r]+/)
        .map((selector) => selector.trim().replace(/^type:\s+/, 'type:'))
        .filter((selector) => selector !== ''),
    ),
  ];
  const bad = selectors.find(
    (selector) =>
      CONTROL.test(selector) || selector.length > 255 || /\s/.test(selector) || selector === 'type:',
  );
  if (bad !== undefined || selectors.length === 0)
    throw new InputProblem(
      `\`${name}\` must list job keys (as in the workflow file) or job types (\`type:build\`) separated by commas or line breaks; got ${shown(bad ?? value)}.`,
    );
  return selectors;
};

export type DispatchInputs = Record<string, string | number | boolean>;

const YAML_PROBLEMS: Partial<Record<YAMLError['code'], string>> = {
  BAD_INDENT: 'the indentation is not consistent',
  TAB_AS_INDENT: 'a tab is used for indentation (use spaces)',
  MISSING_CHAR: 'a closing quote or bracket is missing',
  BAD_DQ_ESCAPE: 'a double-quoted string has an invalid escape',
  MULTILINE_IMPLICIT_KEY: 'a key spans more than one line (is a `:` missing?)',
  UNEXPECTED_TOKEN: 'something unexpected is there',
  BLOCK_AS_IMPLICIT_KEY: 'a block is used as a key',
  MULTIPLE_DOCS: 'there is more than one document (`---`)',
  BAD_SCALAR_START: 'a value starts with a character that needs quoting',
};

/**
 * `inputs`: a mapping written as YAML or JSON; scalar values only; no anchors, aliases or tags.
 * YAML would silently change some numbers (`1.10` → 1.1, `0x1F` → 31, digits lost past 2^53):
 * those are refused with a message that says to quote them, never sent changed, and that repeats
 * the value in neither form.
 */
export const dispatchInputs: Parser<DispatchInputs> = (value, name) => {
  const lineCounter = new LineCounter();
  const document = parseDocument(value, { uniqueKeys: true, prettyErrors: false, lineCounter });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const { line, col } = lineCounter.linePos(first.pos[0]);
    const what =
      first.code === 'DUPLICATE_KEY'
        ? `the key \`${keyAt(value, first.pos[0])}\` appears more than once`
        : (YAML_PROBLEMS[first.code] ?? 'it cannot be read');
    throw new InputProblem(`\`${name}\` is not valid YAML or JSON: at line ${line}, column ${col}, ${what}.`);
  }
  let special: string | undefined;
  visit(document, {
    Alias: () => {
      special = 'aliases (*name)';
      return visit.BREAK;
    },
    Node: (_key, node) => {
      if ('anchor' in node && node.anchor) special = 'anchors (&name)';
      else if ('tag' in node && node.tag) special = 'tags (!tag)';
      return special ? visit.BREAK : undefined;
    },
  });
  if (special)
    throw new InputProblem(`\`${name}\` must be a plain mapping; YAML ${special} are not allowed.`);
  if (!isMap(document.contents))
    throw new InputProblem(
      `\`${name}\` must be a mapping of input names to values, such as \`profile: preview\`.`,
    );

  const entries: [string, string | number | boolean][] = [];
  const problems: string[] = [];
  for (const pair of document.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const where = () => `\`${name}.${shown(key).replace(/`/g, '')}\``;
    if (key.trim() === '' || CONTROL.test(key)) {
      problems.push(`\`${name}\` has an empty or unprintable key.`);
      continue;
    }
    const node = pair.value;
    if (!isScalar(node) || !['string', 'number', 'boolean'].includes(typeof node.value)) {
      problems.push(`${where()} must be a string, number or boolean (workflow_dispatch inputs are scalars).`);
      continue;
    }
    // Neither the value as written nor as read is repeated: either may be a secret, and the runner
    // masks a secret only in the form it knows.
    if (typeof node.value === 'number' && numberChanged(node as Scalar<number>, value)) {
      problems.push(
        `${where()} is a number that YAML would change (it reads \`1.10\` as 1.1, \`0x1F\` as 31, and long numbers with lost digits); quote it to send it as written.`,
      );
      continue;
    }
    entries.push([key, node.value as string | number | boolean]);
  }
  if (problems.length > 0) throw new InputProblem(problems.join(' '));
  // fromEntries defines own properties: a `__proto__` key is kept as a key, not swallowed.
  return Object.fromEntries(entries);
};

/** The source text of a number when YAML's reading of it differs from what was written. */
function numberChanged(node: Scalar<number>, source: string): string | undefined {
  const written = node.range ? source.slice(node.range[0], node.range[1]).trim() : String(node.value);
  if (!Number.isSafeInteger(node.value) && Number.isInteger(node.value)) return written;
  return String(node.value) === written ? undefined : written;
}

function keyAt(source: string, offset: number): string {
  const match = /^\s*["']?([^"':\n]*)/.exec(source.slice(offset));
  return (match?.[1] ?? '').trim().slice(0, 60);
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
