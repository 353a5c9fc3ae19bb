/**
 * The REST routes the stand-in serves, each with the permission GitHub's description says it needs
 * (permissions.ts reads it) and whether it is a write (limits.ts counts writes). A handler gets the
 * route's match and the request, and answers; the refusals common to every route (the token, the
 * limits, the knobs) are decided before it runs (stand-in.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { paginate } from './pages.js';
import {
  errorBody,
  json,
  nodeId,
  simpleUser,
  type Comment,
  type GitHubAnswer,
  type PostedStatus,
  type ReceivedDispatch,
} from './model.js';
import { restStatus, statusesOf } from './statuses.js';
import type { StandInState } from './state.js';
import type { Access } from './permissions.js';
import { CLIENT_PAYLOAD_LIMIT } from './model.js';
import { statusRefusal, refRefusal } from './status-rules.js';

export interface RestRequest {
  method: string;
  /** `owner/repo`, as the path spells it. */
  repository: string;
  match: RegExpExecArray;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
  headers: IncomingHttpHeaders;
  now: number;
  /** The account of the token (REST: a Bot's login with `[bot]`). */
  viewer: Comment['user'];
  /** The source a ruleset sees behind the token (permissions.ts, sourceOf). */
  source: string;
}

export interface RestRoute {
  method: string;
  /** Matched on the path without its query; its first two groups are the owner and the repository. */
  pattern: RegExp;
  /** What the token needs (permissions.ts), as GitHub's `x-accepted-github-permissions` names it. */
  access: Access;
  /** A write (a secondary limit's "content-creating request"). */
  write: boolean;
  /** Its page in GitHub's REST documentation (error bodies link it). */
  docs: string;
  /** Its path in GitHub's OpenAPI description (the tests hold its answers to it). */
  openapi: string;
  handle(github: StandInState, request: RestRequest): GitHubAnswer;
}

const REPO = '^/repos/([^/]+)/([^/]+)';
const DOCS = 'https://docs.github.com/rest';

/** A page of `all` with its `link` header; `path` is the route's path after the API's address. */
function page(
  github: StandInState,
  all: readonly unknown[],
  request: RestRequest,
  path: string,
): GitHubAnswer {
  const { items, link } = paginate(all, request.query, `${github.url}${path}`);
  return json(200, items, link ? { link } : {});
}

/** A comment as REST gives it (`issue-comment`), with the issue it belongs to. */
export function restComment(github: StandInState, comment: Comment): Record<string, unknown> {
  const place = github.placeOf(comment);
  const repository = place?.repository ?? 'acme/app';
  const api = `${github.url}/repos/${repository}`;
  return {
    id: comment.id,
    node_id: nodeId('IC', comment.id),
    url: `${api}/issues/comments/${comment.id}`,
    html_url: comment.html_url,
    body: comment.body,
    user: simpleUser(comment.user),
    created_at: place?.createdAt ?? new Date(0).toISOString(),
    updated_at: place?.updatedAt ?? place?.createdAt ?? new Date(0).toISOString(),
    issue_url: `${api}/issues/${place?.issue ?? 0}`,
    author_association: comment.user.type === 'Bot' ? 'NONE' : 'CONTRIBUTOR',
  };
}

export const REST_ROUTES: RestRoute[] = [
  {
    method: 'POST',
    pattern: new RegExp(`${REPO}/statuses/([^/]+)$`),
    access: { statuses: 'write' },
    write: true,
    docs: `${DOCS}/commits/statuses#create-a-commit-status`,
    openapi: '/repos/{owner}/{repo}/statuses/{sha}',
    handle(github, request) {
      const sha = request.match[3];
      const body = (request.body ?? {}) as Partial<PostedStatus>;
      const refused = statusRefusal(github, request.repository, sha, body);
      if (refused) return refused;
      const id = github.statuses.length + 1;
      const status: PostedStatus = {
        sha,
        context: typeof body.context === 'string' ? body.context : 'default',
        state: String(body.state ?? ''),
        ...(typeof body.description === 'string' ? { description: body.description } : {}),
        ...(typeof body.target_url === 'string' ? { target_url: body.target_url } : {}),
        creator: { login: request.viewer.login },
        source: request.source,
        repository: request.repository,
        id,
        node_id: nodeId('SC', id),
        created_at: new Date(request.now).toISOString(),
        receivedAt: request.now,
      };
      github.statuses.push(status);
      return json(201, restStatus(status, github.statuses, request.now, github.url, request.viewer.login));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${REPO}/commits/([^/]+)/statuses$`),
    access: { statuses: 'read' },
    write: false,
    docs: `${DOCS}/commits/statuses#list-commit-statuses-for-a-reference`,
    openapi: '/repos/{owner}/{repo}/commits/{ref}/statuses',
    handle(github, request) {
      const all = statusesOf(github.statuses, request.repository, request.match[3]).map((status) =>
        restStatus(status, github.statuses, request.now, github.url, request.viewer.login),
      );
      return page(github, all, request, `/repos/${request.repository}/commits/${request.match[3]}/statuses`);
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`${REPO}/dispatches$`),
    access: { contents: 'write' },
    write: true,
    docs: `${DOCS}/repos/repos#create-a-repository-dispatch-event`,
    openapi: '/repos/{owner}/{repo}/dispatches',
    handle(github, request) {
      if (github.failNextDispatches > 0) {
        github.failNextDispatches--;
        return json(503, { message: 'Service Unavailable' });
      }
      const dispatch = (request.body ?? {}) as unknown as ReceivedDispatch;
      if (JSON.stringify(dispatch.client_payload ?? {}).length >= CLIENT_PAYLOAD_LIMIT)
        return json(422, errorBody('client_payload is too large', this.docs));
      github.dispatches.push({ ...dispatch, authorization: request.headers.authorization });
      return { status: 204, headers: {}, body: '' };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${REPO}/issues/(\\d+)/comments$`),
    access: { issues: 'read', pull_requests: 'read' },
    write: false,
    docs: `${DOCS}/issues/comments#list-issue-comments`,
    openapi: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    handle(github, request) {
      const number = Number(request.match[3]);
      const all = github
        .commentsOn(number, request.repository)
        .map((comment) => restComment(github, comment));
      return page(github, all, request, `/repos/${request.repository}/issues/${number}/comments`);
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`${REPO}/issues/(\\d+)/comments$`),
    access: { issues: 'write', pull_requests: 'write' },
    write: true,
    docs: `${DOCS}/issues/comments#create-an-issue-comment`,
    openapi: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    handle(github, request) {
      const number = Number(request.match[3]);
      const body = request.body?.body;
      if (typeof body !== 'string')
        return json(422, {
          message: 'Invalid request.\n\n"body" wasn\'t supplied.',
          documentation_url: this.docs,
          status: '422',
        });
      const comment = github.addComment({
        repository: request.repository,
        issue: number,
        body,
        user: request.viewer,
      });
      return json(201, restComment(github, comment));
    },
  },
  {
    method: 'PATCH',
    pattern: new RegExp(`${REPO}/issues/comments/(\\d+)$`),
    access: { issues: 'write', pull_requests: 'write' },
    write: true,
    docs: `${DOCS}/issues/comments#update-an-issue-comment`,
    openapi: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    handle(github, request) {
      const comment = github.comments.find(
        (c) => c.id === Number(request.match[3]) && github.inRepository(c, request.repository),
      );
      if (!comment) return json(404, errorBody('Not Found', this.docs));
      comment.body = typeof request.body?.body === 'string' ? request.body.body : '';
      github.touch(comment, request.now);
      return json(200, restComment(github, comment));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${REPO}/pulls$`),
    access: { pull_requests: 'read' },
    write: false,
    docs: `${DOCS}/pulls/pulls#list-pull-requests`,
    openapi: '/repos/{owner}/{repo}/pulls',
    handle(github, request) {
      // REST's default order: created, newest first ("direction: Default: desc when sort is created").
      const state = request.query.get('state') ?? 'open';
      let all = state === 'closed' ? [] : github.openPullRequests(request.repository);
      if (request.query.get('direction') !== 'asc') all = [...all].reverse();
      return page(
        github,
        all.map((pr) => github.restPullRequest(pr)),
        request,
        `/repos/${request.repository}/pulls`,
      );
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${REPO}/pulls/(\\d+)$`),
    access: { pull_requests: 'read' },
    write: false,
    docs: `${DOCS}/pulls/pulls#get-a-pull-request`,
    openapi: '/repos/{owner}/{repo}/pulls/{pull_number}',
    handle(github, request) {
      const [owner, repo] = request.repository.split('/');
      const pr = github.pullRequest(owner, repo, Number(request.match[3]));
      return pr ? json(200, github.restPullRequest(pr, true)) : json(404, errorBody('Not Found', this.docs));
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`${REPO}/git/refs$`),
    access: { contents: 'write' },
    write: true,
    docs: `${DOCS}/git/refs#create-a-reference`,
    openapi: '/repos/{owner}/{repo}/git/refs',
    handle(github, request) {
      const { ref, sha } = (request.body ?? {}) as { ref?: unknown; sha?: unknown };
      const refused = refRefusal(github, request.repository, ref, sha, this.docs);
      if (refused) return refused;
      github.refs.push(ref as string);
      github.refShas.set(`${request.repository.toLowerCase()}:${ref as string}`, sha as string);
      return json(201, github.restRef(request.repository, ref as string));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${REPO}/git/ref/(.+)$`),
    access: { contents: 'read' },
    write: false,
    docs: `${DOCS}/git/refs#get-a-reference`,
    openapi: '/repos/{owner}/{repo}/git/ref/{ref}',
    handle(github, request) {
      const ref = `refs/${request.match[3]}`;
      return github.refShas.has(`${request.repository.toLowerCase()}:${ref}`)
        ? json(200, github.restRef(request.repository, ref))
        : json(404, errorBody('Not Found', this.docs));
    },
  },
];
