/**
 * GitHub's side, locally: the GitHub routes the action uses (commit statuses: create and list, newest
 * first, in pages with a `link` header, each with its id and creator; issue comments: list, create,
 * update; GraphQL's `viewer`; open pull requests: list and get; the repository dispatch the webhook
 * relay sends; creating a reference, the relay workflow's marker tag), the pull requests a demo or a
 * recipe opened (number, head commit), and failure knobs for tests (a token without a permission, a
 * 502, a rate limit).
 *
 * One implementation: the simulator serves it under `/_github` (`sim.github`, its `url` is the
 * `GITHUB_API_URL` to give the action), and a test that needs GitHub alone starts it on a port of its
 * own (`start()`). Every request is recorded in `requests` with the token it carried, so a test can
 * say what reached GitHub; it is not in `sim.requests` (the service's) and the log never shows a token.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Comment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string; type: 'User' | 'Bot' };
}

export const BOT = { login: 'github-actions[bot]', type: 'Bot' } as const;
export const AUTHOR = { login: 'pr-author', type: 'User' } as const;

/** A commit status as GitHub received it (`POST /repos/:owner/:repo/statuses/:sha`). */
export interface PostedStatus {
  sha: string;
  context: string;
  state: string;
  description?: string;
  target_url?: string;
  /** Who posted it: the viewer at the time (a test may seed another account's). */
  creator?: { login: string };
}

/** A repository_dispatch event as GitHub accepted it (`POST /repos/:owner/:repo/dispatches`). */
export interface ReceivedDispatch {
  event_type: string;
  client_payload: Record<string, unknown>;
  authorization?: string;
}

/** A pull request the stand-in holds: what the action reads of one (its number and head commit). */
export interface PullRequest {
  owner: string;
  repo: string;
  number: number;
  /** The head commit (`pull_request.head.sha`), whose statuses the pull request shows. */
  head: string;
  title: string;
}

/**
 * GitHub's limit on a dispatch's `client_payload`: "The total size of the JSON payload must be less
 * than 64KB" (REST API description, repos/create-dispatch-event).
 */
export const CLIENT_PAYLOAD_LIMIT = 64 * 1024;

/** An answer of the stand-in, before it is written. */
export interface GitHubAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

export class GitHubStandIn {
  comments: Comment[] = [];
  statuses: PostedStatus[] = [];
  dispatches: ReceivedDispatch[] = [];
  /** The open pull requests (`GET /repos/:owner/:repo/pulls?state=open`); see addPullRequest(). */
  pullRequests: PullRequest[] = [];
  /** The refs created (`POST /repos/:owner/:repo/git/refs`), by name: a second create of one is 422. */
  refs: string[] = [];
  /** Answers this many of the next dispatch requests with 503 (GitHub unreachable for a while). */
  failNextDispatches = 0;
  /** Answers every status request with this status (403: the token lacks `statuses: write`). */
  failStatusesWith: number | undefined;
  /** Answers for the next status posts, in order, before any is accepted (a 502, a rate limit). */
  nextStatusAnswers: Array<{ status: number; headers?: Record<string, string>; message?: string }> = [];
  /** The account of the token, as GraphQL's `viewer` answers (GITHUB_TOKEN: the Actions bot). */
  viewer: Comment['user'] = BOT;
  requests: Array<{ method: string; path: string; authorization?: string; body?: { body?: string } }> = [];
  /** Answers every request with this status. */
  failWith: number | undefined;
  /** The GITHUB_API_URL to give the action. */
  url = '';
  private nextId = 1000;
  /** The issue (pull request) number of each comment, for the pull request's page. */
  private readonly issueOf = new Map<number, number>();
  private server: Server | undefined;

  /** `url` is where the stand-in is reached (the simulator's `${url}/_github`); empty until started. */
  constructor(url = '') {
    this.url = url;
  }

  /** Opens (or replaces) a pull request: its page shows the statuses of `head` and its comments. */
  addPullRequest(pr: Omit<PullRequest, 'owner' | 'repo' | 'title'> & Partial<PullRequest>): PullRequest {
    const full: PullRequest = { owner: 'acme', repo: 'app', title: `Pull request #${pr.number}`, ...pr };
    this.pullRequests = this.pullRequests.filter(
      (p) => !(p.owner === full.owner && p.repo === full.repo && p.number === full.number),
    );
    this.pullRequests.push(full);
    return full;
  }

  pullRequest(owner: string, repo: string, number: number): PullRequest | undefined {
    return this.pullRequests.find((p) => p.owner === owner && p.repo === repo && p.number === number);
  }

  /** The comments on one issue or pull request, oldest first. */
  commentsOn(number: number): Comment[] {
    return this.comments.filter((comment) => this.issueOf.get(comment.id) === number);
  }

  /** The latest status of `context` on `sha` (GitHub's combined view of it). */
  latest(sha: string, context: string): PostedStatus | undefined {
    return this.statuses.filter((posted) => posted.sha === sha && posted.context === context).at(-1);
  }

  /** Each context's latest state on `sha`. */
  states(sha: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const posted of this.statuses) if (posted.sha === sha) out[posted.context] = posted.state;
    return out;
  }

  /** Forgets everything received and every pull request; the failure knobs go back to none. */
  reset(): void {
    this.comments = [];
    this.statuses = [];
    this.dispatches = [];
    this.pullRequests = [];
    this.refs = [];
    this.requests = [];
    this.issueOf.clear();
    this.failNextDispatches = 0;
    this.failStatusesWith = undefined;
    this.nextStatusAnswers = [];
    this.failWith = undefined;
    this.viewer = BOT;
  }

  /** One request, `path` relative to the stand-in's address (`/repos/acme/app/statuses/<sha>`). */
  answer(method: string, path: string, headers: IncomingHttpHeaders, raw: string): GitHubAnswer {
    let body: ({ body?: string } & Partial<PostedStatus>) | undefined;
    try {
      body = raw ? (JSON.parse(raw) as { body?: string } & Partial<PostedStatus>) : undefined;
    } catch {
      return json(400, { message: 'Problems parsing JSON' });
    }
    this.requests.push({ method, path, authorization: headers.authorization, body });
    if (this.failWith) return json(this.failWith, { message: 'Resource not accessible by integration' });
    const repo = '/repos/([^/]+)/([^/]+)';
    const status = new RegExp(`^${repo}/statuses/([0-9a-f]+)$`).exec(path);
    if (status && method === 'POST') {
      if (this.failStatusesWith)
        return json(this.failStatusesWith, { message: 'Resource not accessible by integration' });
      const answer = this.nextStatusAnswers.shift();
      if (answer) return json(answer.status, { message: answer.message ?? 'Bad Gateway' }, answer.headers);
      const { context = 'default', state = '', description, target_url } = body ?? {};
      this.statuses.push({
        sha: status[3],
        context,
        state,
        description,
        target_url,
        creator: { login: this.viewer.login },
      });
      return json(201, { id: this.statuses.length, context, state });
    }
    const listed = new RegExp(`^${repo}/commits/([0-9a-f]+)/statuses(?:\\?(.*))?$`).exec(path);
    if (listed && method === 'GET') {
      if (this.failStatusesWith)
        return json(this.failStatusesWith, { message: 'Resource not accessible by integration' });
      const query = new URLSearchParams(listed[4] ?? '');
      const perPage = Number(query.get('per_page') ?? 30);
      const page = Number(query.get('page') ?? 1);
      const all = this.statuses
        .filter((posted) => posted.sha === listed[3])
        .reverse()
        // Each status keeps its id (its place among all posted, from 1) and its creator.
        .map((posted) => ({
          id: this.statuses.indexOf(posted) + 1,
          ...posted,
          creator: posted.creator ?? { login: this.viewer.login },
        }));
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const more: Record<string, string> = {};
      if (page * perPage < all.length)
        more.link = `<${this.url}/repos/${listed[1]}/${listed[2]}/commits/${listed[3]}/statuses?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      return json(200, slice, more);
    }
    if (new RegExp(`^${repo}/dispatches$`).test(path) && method === 'POST') {
      if (this.failNextDispatches > 0) {
        this.failNextDispatches--;
        return json(503, { message: 'Service Unavailable' });
      }
      const dispatch = body as unknown as ReceivedDispatch;
      if (JSON.stringify(dispatch.client_payload).length >= CLIENT_PAYLOAD_LIMIT)
        return json(422, { message: 'client_payload is too large' });
      this.dispatches.push({ ...dispatch, authorization: headers.authorization });
      return { status: 204, headers: {}, body: '' };
    }
    if (path === '/graphql' && method === 'POST')
      return json(200, { data: { viewer: { login: this.viewer.login } } });
    const list = new RegExp(`^${repo}/issues/(\\d+)/comments(\\?.*)?$`).exec(path);
    const one = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(path);
    if (list && method === 'GET') return json(200, this.comments);
    if (list && method === 'POST') {
      const number = Number(list[3]);
      const comment: Comment = {
        id: this.nextId++,
        body: body?.body ?? '',
        html_url: `https://github.example/${list[1]}/${list[2]}/pull/${number}#issuecomment-${this.nextId}`,
        user: this.viewer,
      };
      this.comments.push(comment);
      this.issueOf.set(comment.id, number);
      return json(201, comment);
    }
    if (one && method === 'PATCH') {
      const comment = this.comments.find((c) => c.id === Number(one[3]));
      if (!comment) return json(404, { message: 'Not Found' });
      comment.body = body?.body ?? '';
      return json(200, comment);
    }
    const pulls = new RegExp(`^${repo}/pulls(?:\\?.*)?$`).exec(path);
    if (pulls && method === 'GET')
      return json(
        200,
        this.pullRequests
          .filter((pr) => pr.owner === pulls[1] && pr.repo === pulls[2])
          .map((pr) => ({ number: pr.number, title: pr.title, state: 'open', head: { sha: pr.head } })),
      );
    if (new RegExp(`^${repo}/git/refs$`).test(path) && method === 'POST') {
      const { ref = '', sha = '' } = (body ?? {}) as { ref?: string; sha?: string };
      if (this.refs.includes(ref)) return json(422, { message: 'Reference already exists' });
      this.refs.push(ref);
      return json(201, { ref, object: { sha, type: 'commit' } });
    }
    const pull = new RegExp(`^${repo}/pulls/(\\d+)$`).exec(path);
    const pr = pull && method === 'GET' && this.pullRequest(pull[1], pull[2], Number(pull[3]));
    if (pr) return json(200, { number: pr.number, title: pr.title, state: 'open', head: { sha: pr.head } });
    return json(404, { message: 'Not Found' });
  }

  /** Serves the stand-in alone on 127.0.0.1 (a test without a simulator); `url` is then its address. */
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      req.on('end', () => {
        const answer =
          size > MAX_BODY_BYTES
            ? json(413, { message: 'Request body too large' })
            : this.answer(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString());
        res.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}

function json(status: number, data: unknown, headers: Record<string, string> = {}): GitHubAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(data) };
}
