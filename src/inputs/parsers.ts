/**
 * The small pure parsers the input tables are made of. Each takes the trimmed, non-empty value of
 * one input and returns what the command needs, or throws an InputProblem whose message names the
 * input, what is wrong and what is allowed. Values of inputs that may hold secrets are never
 * echoed: `shown()` decides what a message may quote.
 */
import {
  InputProblem,
  didYouMean,
  pageOf,
  parseUrl,
  shown,
  uuidTypo,
  type InputNote,
  type Parser,
} from './problems.js';
import { UUID } from '../service/contract.js';
import { CONTROL } from '../text/one-line.js';

export { InputProblem, didYouMean, shown, type InputNote, type Parser } from './problems.js';
export { dispatchInputs, type DispatchInputs } from './dispatch-inputs.js';

/** The shortest poll interval allowed: fast tests against the simulator, never a busy loop. */
export const MIN_POLL_INTERVAL_SECONDS = 0.05;

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
  const page = pageOf(value);
  if (page)
    throw new InputProblem(
      `\`${name}\` is the link to ${page.what}'s page, not an id: give the id it ends in, ${page.id}.`,
    );
  if (!UUID.test(value))
    throw new InputProblem(
      `\`${name}\` must be a UUID (8-4-4-4-12 hexadecimal digits); got ${uuidTypo(value) ?? shown(value)}.`,
    );
  return value.toLowerCase();
};

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

/** What YAML 1.2 reads as a number: `1.10`, `1e3`, `0x1F`, `0o17`, `.5`, `-2`. */
const YAML_NUMBER = /^[-+]?(\.\d+|\d+(\.\d*)?)([eE][-+]?\d+)?$|^0x[0-9a-f]+$|^0o[0-7]+$/i;

/**
 * A ref that reads as a number reached the action after the runner's YAML: unquoted, `1.10` arrives
 * as `1.1` and is dispatched as that other tag, and nothing later can tell. Said, not refused: the
 * ref may be exactly what was written (`git-ref: '2.0'`).
 */
export const gitRefAdvice = (value: string, name: string): InputNote | undefined =>
  YAML_NUMBER.test(value)
    ? {
        level: 'warning',
        text:
          `\`${name}\` is \`${value}\`, which YAML reads as a number: unquoted in the workflow, ` +
          '`1.10` arrives as `1.1` and `1e3` as `1000`. ' +
          `If it was written unquoted, quote it (\`${name}: '1.10'\`) so the ref is dispatched as written.`,
      }
    : undefined;

/** `expected-commit`: a commit SHA, 7 to 40 hexadecimal digits (SHA-1, whole or a prefix) or 64 (SHA-256); lower-cased. */
export const commitSha: Parser<string> = (value, name) => {
  // SHA-1 commits are 40 digits (a prefix of 7 or more names one), SHA-256 commits 64.
  if (!/^(?:[0-9a-f]{7,40}|[0-9a-f]{64})$/i.test(value)) {
    const digits = /^[0-9a-f]+$/i.test(value);
    throw new InputProblem(
      `\`${name}\` must be a commit SHA: 7 to 40 hexadecimal digits (a SHA-1 commit or its first digits) or exactly 64 (a SHA-256 commit), or '' to follow a run of any commit; got ${
        digits ? `${value.length} hexadecimal digits` : shown(value)
      }.`,
    );
  }
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
