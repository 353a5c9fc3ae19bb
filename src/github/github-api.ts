/**
 * The one way this action reaches GitHub's API: an Octokit whose every request goes through an agent
 * of its own, never Node's global one. `@actions/github` gives Octokit a dispatcher only when it sees
 * a proxy, and otherwise leaves each request to the global dispatcher, which Node 24 builds at
 * start-up from `NODE_USE_ENV_PROXY` and the proxy variables as they were then: in a post step,
 * whatever a later step wrote to `$GITHUB_ENV`. Here every request goes through
 * `@actions/http-client` with keep-alive (its own `https.Agent`, or its tunnel to the proxy that the
 * environment names when the request is sent: the main step's, as sessions/state.ts put it back).
 *
 * `@actions/github` is loaded only here, and only when called, so a step that posts no comment
 * neither loads nor parses it.
 */
import { HttpClient } from '@actions/http-client';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import type { OutgoingHttpHeaders } from 'node:http';

export type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

/** Octokit for `token`, and what closes its connections. */
export async function gitHubApi(
  token: string,
  userAgent: string,
): Promise<{ octokit: Octokit; context: typeof import('@actions/github').context; dispose: () => void }> {
  const github = await import('@actions/github');
  // Keep-alive: without it @actions/http-client hands Node's global agent every request without a proxy.
  const client = new HttpClient(userAgent, [], {
    keepAlive: true,
    allowRedirects: false,
    allowRetries: false,
    socketTimeout: REQUEST_TIMEOUT_MS,
  });
  // `request` replaces @actions/github's defaults whole: no agent, no fetch of its own is left.
  const octokit = github.getOctokit(token, { request: { fetch: fetchThrough(client) } });
  return { octokit, context: github.context, dispose: () => client.dispose() };
}

/** A `fetch` for Octokit that sends each request with `client`, and honours its abort signal. */
function fetchThrough(client: HttpClient): typeof fetch {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: OutgoingHttpHeaders = Object.fromEntries(new Headers(init.headers).entries());
    const body =
      init.body === undefined || init.body === null
        ? null
        : typeof init.body === 'string'
          ? init.body
          : await new Response(init.body).text();
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const sent = client.request(init.method ?? 'GET', url, body, headers);
    const answer = await (signal
      ? Promise.race([
          sent,
          new Promise<never>((_, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
          ),
        ])
      : sent);
    const text = await answer.readBody();
    const status = answer.message.statusCode ?? 502;
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.message.headers))
      for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value])
        responseHeaders.append(name, each);
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : text, { status, headers: responseHeaders });
  };
}

/**
 * The login of the token's own account, from GraphQL's `viewer`: it answers for every kind of token,
 * a personal one (`octocat`) and an installation token such as GITHUB_TOKEN (`github-actions[bot]`),
 * whereas REST `GET /user` refuses installation tokens. Undefined when it cannot be told.
 */
export async function tokenLogin(
  octokit: Octokit,
  request: () => { signal: AbortSignal },
): Promise<string | undefined> {
  try {
    const answer = await octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }', {
      request: request(),
    });
    const login = answer.viewer?.login;
    return typeof login === 'string' && login ? login : undefined;
  } catch {
    return undefined;
  }
}
