/**
 * The GitHub stand-in served by the simulator under `/_github`: its API routes (stand-in.ts) and, for
 * a browser, the pull request's page at `/_github/<owner>/<repo>/pull/<number>` (pr-page.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { errorPage, wantsHtml, type PageResponse } from '../pages/html.js';
import { badRequest, notFound } from '../errors.js';
import { ok, parseJsonBody, type Route } from '../server.js';
import { pullRequestPage } from './pr-page.js';
import type { GitHubAnswer, GitHubStandIn } from './stand-in.js';

export * from './stand-in.js';
export { renderComment } from './pr-page.js';

export const GITHUB_PREFIX = '/_github';

/** The answer to a request under GITHUB_PREFIX (`target` with its query), or null for any other path. */
export function githubAnswer(
  github: GitHubStandIn,
  method: string,
  target: string,
  headers: IncomingHttpHeaders,
  raw: string,
): GitHubAnswer | PageResponse | null {
  if (target !== GITHUB_PREFIX && !target.startsWith(`${GITHUB_PREFIX}/`)) return null;
  const path = target.slice(GITHUB_PREFIX.length);
  const page = /^\/([^/?]+)\/([^/?]+)\/pull\/(\d+)\/?(\?.*)?$/.exec(path);
  if (page && method === 'GET' && wantsHtml(headers.accept)) {
    const pr = github.pullRequest(decodeURIComponent(page[1]), decodeURIComponent(page[2]), Number(page[3]));
    return pr
      ? pullRequestPage(github, pr)
      : errorPage(notFound(`No pull request #${page[3]} in ${page[1]}/${page[2]}`));
  }
  return github.answer(method, path, headers, raw);
}

/** `POST /_sim/github/pull-requests`: opens a pull request on the stand-in (a user trying the comment by hand). */
export function githubControlRoutes(github: GitHubStandIn): Route[] {
  return [
    {
      method: 'POST',
      pattern: /^\/_sim\/github\/pull-requests\/?$/,
      handler(ctx) {
        const body = parseJsonBody(ctx) as Record<string, unknown> | undefined;
        const { owner = 'acme', repo = 'app', number, head, title } = body ?? {};
        if (!Number.isInteger(number) || (number as number) < 1)
          throw badRequest('number must be a positive integer');
        if (typeof head !== 'string' || !/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(head))
          throw badRequest('head must be a commit SHA (40 or 64 lower-case hex digits)');
        if (
          typeof owner !== 'string' ||
          typeof repo !== 'string' ||
          (title !== undefined && typeof title !== 'string')
        )
          throw badRequest('owner, repo and title must be strings');
        const pr = github.addPullRequest({
          owner,
          repo,
          number: number as number,
          head,
          ...(title ? { title } : {}),
        });
        return ok({
          ...pr,
          page: `${github.url}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pull/${pr.number}`,
        });
      },
    },
  ];
}
