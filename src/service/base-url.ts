/**
 * What a 404 says of the base URL. The spec gives the service's 404s meanings (a dispatch: no such
 * Git ref or workflow file; a session: no such project or session; a run: no such run), so a 404 in
 * the service's own shape is about what was asked, never about the address. Only an answer that is
 * not the service's (no error shape of it), or a base URL whose path cannot be the service's (an API
 * version the action adds itself, a page of the dashboard), points at the base URL.
 */

/** The advice for a 404, or undefined when the 404 is the service's own and means what the spec says. */
export function baseUrlAdvice(base: URL, serviceShape: boolean): string | undefined {
  const path = base.pathname.replace(/\/+$/, '');
  if (/\/v\d+$/.test(path))
    return `The base URL ${path} ends in an API version: give the service's base URL without it (the action adds /v2 itself).`;
  if (dashboardPage(path) || !serviceShape) return wrongBaseUrl(base, path);
  return undefined;
}

/**
 * The dashboard's pages sit under an account (`/accounts/<name>/projects/<name>/…`): such a path is
 * a link copied from the browser, not a prefix of the service's API.
 */
function dashboardPage(path: string): boolean {
  return /(?:^|\/)(?:accounts|projects)\/[^/]+/.test(path);
}

/** What the base URL is and what it should be. */
function wrongBaseUrl(base: URL, path: string): string {
  const what = path
    ? `its path ${path} may be a page of the dashboard or a prefix the service does not have`
    : 'it may point at something other than the service';
  return `The base URL ${base.origin}${path} is probably wrong: ${what}. Give the service's API address, such as https://api.example.com, without /v2 or a page path.`;
}

/** The base URL's path without its final slashes; '' for none or an address that does not parse. */
export function basePathOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/** The host a step talks to, for the first log line ("… at api.example.com"). */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
