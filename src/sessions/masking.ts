/**
 * Which values of a session's `remoteConfig` are credentials, so they are registered as secrets
 * (`io.mask`) before anything is written: the fields the service documents as secret, any field at
 * any depth whose name is a credential word, credentials inside URLs (user info, query or fragment
 * parameters such as `token=`, `key=`, `sig=`), and every string value of `capabilities` (below).
 *
 * A registered value is hidden everywhere in the job's log, so registering a common word would
 * garble it ("success" shown as `***` in every later step). Hence names are matched by words
 * (`keyboardLayout` is not a key, `authorName` not an auth) and values found by name or in a URL
 * must look like a secret.
 *
 * `capabilities` (Appium) are different: they are handed to a controller as they are, and a service
 * or a device farm may put a credential under any name (`pass`, `apitoken`, `vendor:opaque`, a
 * `Basic …` header). So every string value of them is taken for a secret, except:
 * - a boolean-like or common word (`true`, `no`, `none`, `default`, …), whatever its name;
 * - a value shorter than 8 characters, or than 4 under a credential-like name: `iOS`, `Android`,
 *   `18.2`, `en_US` or `pixel_8` would otherwise be hidden in every later line of the job's log.
 * Values of 8 characters or more are hidden even when they are plain settings (`XCUITest`,
 * `iPhone 16`): a word hidden in the log costs less than a credential shown. Numbers and booleans
 * are settings, not credentials, unless their name says otherwise. The log shows the keys of
 * `capabilities` only (capabilities.ts), never their values.
 */
import { secretParts, type ActionIO } from '../runner/io.js';
import { DOCUMENTED_SECRETS } from './connection.js';
import { unmaskedValuesWarning } from './report/warnings.js';

/** Words that make a field or parameter name a credential, matched against whole words of the name. */
const CREDENTIAL_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'bearer',
  'key',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'authtoken',
  'accesstoken',
  'sessiontoken',
  'clientsecret',
  'sig',
  'signature',
  'cookie',
  'jwt',
  'pass',
  'pem',
]);

/**
 * Parts that make a word of a name a credential wherever they are in it: names written in one
 * lower-case word (`apitoken`, `authkey`, `refreshtoken`, `privatekeypem`, `userpassword`). Only
 * parts that are credential words whatever surrounds them (`key` alone would make `monkey` one).
 */
const CREDENTIAL_PARTS = [
  'token',
  'secret',
  'passw',
  'passphrase',
  'passcode',
  'pwd',
  'credential',
  'apikey',
  'authkey',
  'accesskey',
  'privatekey',
  'signingkey',
  'signature',
  'cookie',
  'bearer',
  'jwt',
];

/** Values never registered: the runner would hide them in every line of the job's log. */
const COMMON_WORDS = new Set([
  'basic',
  'bearer',
  'true',
  'false',
  'null',
  'undefined',
  'none',
  'yes',
  'no',
  'on',
  'off',
  'success',
  'failure',
  'error',
  'enabled',
  'disabled',
  'default',
  'secret',
  'token',
  'password',
]);

const MAX_DEPTH = 64;
/** The shortest string value of `capabilities` taken for a secret, and under a credential-like name. */
const MIN_CAPABILITY = 8;
const MIN_NAMED_CAPABILITY = 4;
/** An HTTP authorization value: its credential is masked on its own too (a header may be logged without its scheme). */
const AUTH_SCHEME = /^\s*(?:basic|bearer|token|digest|negotiate)\s+(\S{4,})\s*$/i;
/**
 * The most values (each line of a multi-line value counting as one) registered from one
 * `remoteConfig`: every registered value is looked for in every later log line, by the runner and by
 * the action, so an answer with a hundred thousand of them would slow every step of the job.
 */
export const MAX_MASKED = 1024;

/** Registers every credential of `remoteConfig` (see above) with `io.mask`, at most MAX_MASKED. */
export function maskRemoteConfig(io: Pick<ActionIO, 'mask' | 'warning'>, remoteConfig: unknown): void {
  let budget = MAX_MASKED;
  let skipped = 0;
  for (const value of remoteConfigSecrets(remoteConfig)) {
    const parts = new Set(secretParts(value)).size;
    if (parts > budget) skipped++;
    else {
      budget -= parts;
      io.mask(value);
    }
  }
  if (skipped > 0) io.warning(unmaskedValuesWarning(MAX_MASKED, skipped));
}

/** The remoteConfigs already registered, per step's IO: a poll reads the same one again and again. */
const alreadyMasked = new WeakMap<object, Set<string>>();

/**
 * Registers the credentials of a session's `remoteConfig` the moment it is read, whatever the
 * session's status: a session that is `queued` or `starting` with its connection details, and then
 * times out, must not show them in the job summary. Each distinct remoteConfig once per step.
 */
export function maskSession(
  io: Pick<ActionIO, 'mask' | 'warning'>,
  session: { remoteConfig?: unknown } | undefined,
): void {
  const config = session?.remoteConfig;
  if (config === null || config === undefined) return;
  let seen = alreadyMasked.get(io);
  if (!seen) alreadyMasked.set(io, (seen = new Set()));
  const key = JSON.stringify(config);
  if (seen.has(key)) return;
  seen.add(key);
  maskRemoteConfig(io, config);
}

/** The values maskRemoteConfig registers, each once: the documented secrets first. */
export function remoteConfigSecrets(remoteConfig: unknown): string[] {
  const found = new Set<string>();
  if (typeof remoteConfig === 'object' && remoteConfig !== null)
    for (const name of DOCUMENTED_SECRETS) {
      const value = (remoteConfig as Record<string, unknown>)[name];
      const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
      if (text.trim() && !COMMON_WORDS.has(text.trim().toLowerCase())) found.add(text);
    }
  const add = (secret: string): void => {
    found.add(secret);
    const credential = AUTH_SCHEME.exec(secret)?.[1];
    if (credential) found.add(credential);
  };
  const visit = (value: unknown, name: string | undefined, depth: number, capability: boolean): void => {
    if (depth > MAX_DEPTH || value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, name, depth + 1, capability);
      return;
    }
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value as Record<string, unknown>))
        visit(item, key, depth + 1, capability || (depth === 0 && key === 'capabilities'));
      return;
    }
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = String(value);
    const named = name !== undefined && isCredentialName(name);
    // The documented secrets are added first, above, whatever they look like.
    const documented = depth === 1 && name !== undefined && DOCUMENTED_SECRETS.has(name);
    if (capability && typeof value === 'string') {
      if (isCapabilitySecret(value, named)) add(value);
    } else if (!documented && named && looksSecret(text)) add(text);
    if (typeof value === 'string') for (const secret of urlSecrets(value)) found.add(secret);
  };
  visit(remoteConfig, undefined, 0, false);
  return [...found];
}

/**
 * The words of a name: camelCase (`accessKey`, `HTTPHeader` → HTTP, Header), snake, kebab, dots,
 * colons. One regular expression that never backtracks far, so a huge name costs linear time.
 */
const NAME_WORDS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/**
 * Whether a field or parameter name is a credential: one of its words (camelCase, snake, kebab,
 * dots, colons) is a credential word, or holds a credential part.
 */
export function isCredentialName(name: string): boolean {
  for (const [match] of name.matchAll(NAME_WORDS)) {
    const word = match.toLowerCase();
    if (CREDENTIAL_WORDS.has(word) || CREDENTIAL_PARTS.some((part) => word.includes(part))) return true;
  }
  return false;
}

/** A string value of `capabilities` taken for a secret: see the rule at the top. */
function isCapabilitySecret(value: string, named: boolean): boolean {
  const text = value.trim();
  if (COMMON_WORDS.has(text.toLowerCase())) return false;
  return text.length >= (named ? MIN_NAMED_CAPABILITY : MIN_CAPABILITY);
}

/**
 * Whether a value found by its name (or in a URL) can be registered: at least 8 characters, not a
 * common word, and either long (16+) or mixed (a digit, both cases or a sign), as generated
 * credentials are; "true", "success" and "en-US" are not.
 */
export function looksSecret(value: string): boolean {
  const text = value.trim();
  if (text.length < 8 || COMMON_WORDS.has(text.toLowerCase())) return false;
  if (text.length >= 16) return true;
  return /\d/.test(text) || (/[a-z]/.test(text) && /[A-Z]/.test(text)) || /[^A-Za-z0-9\s-]/.test(text);
}

/** Credentials inside the URLs of a text: user info, and query or fragment parameters with a credential name. */
export function urlSecrets(text: string): string[] {
  const found: string[] = [];
  for (const candidate of urlsIn(text)) {
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      continue;
    }
    // `https://TOKEN@host` carries a token as the user name; with a password, the password is the secret.
    const userInfo = url.password ? [url.password] : url.username ? [url.username] : [];
    // Parameters as written (URLSearchParams would decode them): the log shows them as written.
    const parameters = [url.search.slice(1), url.hash.slice(1)]
      .flatMap((part) => part.split('&'))
      .map((pair) => pair.split('='))
      .filter(([name, ...value]) => value.length > 0 && isCredentialName(safeDecode(name)))
      .map(([, ...value]) => value.join('='));
    for (const value of [...userInfo, ...parameters]) {
      // A consumer may print the decoded form too.
      for (const form of new Set([value, safeDecode(value.replace(/\+/g, ' '))]))
        if (looksSecret(form)) found.push(form);
    }
  }
  return found;
}

/** The longest scheme looked at before `://`. */
const MAX_SCHEME = 32;
const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
/** The rest of a URL: up to white space, a quote, `<`, `>` or a backtick. */
const URL_REST = /[^\s"'<>`]+/y;

/**
 * Each `scheme://rest` in a text. Found from each `://` (the scheme a few letters back, the rest up
 * to where a URL ends), so every character is looked at a bounded number of times: a regular
 * expression that tries a scheme at every letter would take quadratic time on `a.a.a.…`.
 */
function* urlsIn(text: string): Generator<string> {
  for (let from = 0; ;) {
    const at = text.indexOf('://', from);
    if (at < 0) return;
    let start = at;
    while (start > 0 && at - start < MAX_SCHEME && SCHEME_CHAR.test(text[start - 1])) start--;
    while (start < at && !LETTER.test(text[start])) start++;
    URL_REST.lastIndex = at + 3;
    const rest = URL_REST.exec(text);
    const end = rest ? URL_REST.lastIndex : at + 3;
    if (start < at && rest) yield text.slice(start, end);
    from = end;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
