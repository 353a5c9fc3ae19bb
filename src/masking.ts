/**
 * Which values of a session's `remoteConfig` are credentials, so they are registered as secrets
 * (`io.mask`) before anything is written: the fields the service documents as secret, any field at
 * any depth (nested objects and `capabilities` included) whose name is a credential word, and
 * credentials inside URLs (user info, query or fragment parameters such as `token=`, `key=`, `sig=`).
 *
 * A registered value is hidden everywhere in the job's log, so registering a common word would
 * garble it ("success" shown as `***` in every later step). Hence names are matched by whole words
 * (`keyboardLayout` is not a key) and values found by name or in a URL must look like a secret.
 */
import type { ActionIO } from './io.js';

/** remoteConfig fields that service-interface.md marks as secret: masked whatever they look like. */
const DOCUMENTED_SECRETS = new Set(['agentDeviceRemoteSessionToken', 'toolsAuthToken']);

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
]);

/** Values never registered: the runner would hide them in every line of the job's log. */
const COMMON_WORDS = new Set([
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

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const MAX_DEPTH = 64;

/** Registers every credential of `remoteConfig` (see above) with `io.mask`. */
export function maskRemoteConfig(io: Pick<ActionIO, 'mask'>, remoteConfig: unknown): void {
  for (const value of remoteConfigSecrets(remoteConfig)) io.mask(value);
}

/** The values maskRemoteConfig registers, each once. */
export function remoteConfigSecrets(remoteConfig: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, name: string | undefined, depth: number): void => {
    if (depth > MAX_DEPTH || value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, name, depth + 1);
      return;
    }
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) visit(item, key, depth + 1);
      return;
    }
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = String(value);
    if (depth === 1 && name && DOCUMENTED_SECRETS.has(name)) {
      if (text.trim() && !COMMON_WORDS.has(text.trim().toLowerCase())) found.add(text);
    } else if (name && isCredentialName(name) && looksSecret(text)) {
      found.add(text);
    }
    if (typeof value === 'string') for (const secret of urlSecrets(value)) found.add(secret);
  };
  visit(remoteConfig, undefined, 0);
  return [...found];
}

/** Whether a field or parameter name is a credential: one of its words (camelCase, snake, kebab, dots, colons) is. */
export function isCredentialName(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => CREDENTIAL_WORDS.has(word));
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
  for (const [candidate] of text.matchAll(URL_IN_TEXT)) {
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

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
