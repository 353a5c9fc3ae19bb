/**
 * A fake of the GitHub routes the pull-request comment uses (list, create and update issue comments,
 * GraphQL's `viewer`) and the commit statuses (create; list a commit's, newest first, in pages with a
 * `link` header as GitHub does) on 127.0.0.1, reached through GITHUB_API_URL as on GitHub Enterprise
 * Server. It records every request, so a test can say what reached GitHub and with which token.
 */
import { createServer, type Server } from 'node:http';

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

/**
 * GitHub's limit on a dispatch's `client_payload`: "The total size of the JSON payload must be less
 * than 64KB" (REST API description, repos/create-dispatch-event).
 */
export const CLIENT_PAYLOAD_LIMIT = 64 * 1024;

/**
 * A fake of the GitHub routes the comment uses (three REST, GraphQL's viewer), the commit
 * statuses route, the repository dispatch route and the create-a-reference route (the relay recipe's
 * marker tag), recording every request.
 */
export class FakeGitHub {
  comments: Comment[] = [];
  statuses: PostedStatus[] = [];
  dispatches: ReceivedDispatch[] = [];
  /** The refs created (`POST /repos/:owner/:repo/git/refs`), by name: a second create of one is 422. */
  refs: string[] = [];
  /** Answers this many of the next dispatch requests with 503 (GitHub unreachable for a while). */
  failNextDispatches = 0;
  /** Answers every status request with this status (403: the token lacks `statuses: write`). */
  failStatusesWith: number | undefined;
  /** Answers for the next status posts, in order, before any is accepted (a 502, a rate limit). */
  nextStatusAnswers: Array<{ status: number; headers?: Record<string, string>; message?: string }> = [];
  /** The open pull requests (`GET /repos/:owner/:repo/pulls?state=open`): number and head commit. */
  pulls: Array<{ number: number; head: { sha: string } }> = [];
  /** The account of the token, as GraphQL's `viewer` answers (GITHUB_TOKEN: the Actions bot). */
  viewer: Comment['user'] = BOT;
  requests: Array<{ method: string; path: string; authorization?: string; body?: { body?: string } }> = [];
  failWith: number | undefined;
  private nextId = 1000;
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const path = req.url ?? '';
        const body = raw ? (JSON.parse(raw) as { body?: string } & Partial<PostedStatus>) : undefined;
        this.requests.push({
          method: req.method ?? '',
          path,
          authorization: req.headers.authorization,
          body,
        });
        const send = (status: number, data: unknown): void => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(data));
        };
        if (this.failWith) return send(this.failWith, { message: 'Resource not accessible by integration' });
        const status = /^\/repos\/acme\/app\/statuses\/([0-9a-f]+)$/.exec(path);
        if (status && req.method === 'POST') {
          if (this.failStatusesWith)
            return send(this.failStatusesWith, { message: 'Resource not accessible by integration' });
          const answer = this.nextStatusAnswers.shift();
          if (answer) {
            res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
            return res.end(JSON.stringify({ message: answer.message ?? 'Bad Gateway' }));
          }
          const { context = 'default', state = '', description, target_url } = body ?? {};
          this.statuses.push({
            sha: status[1],
            context,
            state,
            description,
            target_url,
            creator: { login: this.viewer.login },
          });
          return send(201, { id: this.statuses.length, context, state });
        }
        const listed = /^\/repos\/acme\/app\/commits\/([0-9a-f]+)\/statuses(?:\?(.*))?$/.exec(path);
        if (listed && req.method === 'GET') {
          if (this.failStatusesWith)
            return send(this.failStatusesWith, { message: 'Resource not accessible by integration' });
          const query = new URLSearchParams(listed[2] ?? '');
          const perPage = Number(query.get('per_page') ?? 30);
          const page = Number(query.get('page') ?? 1);
          const all = this.statuses
            .filter((posted) => posted.sha === listed[1])
            .reverse()
            .map((posted) => ({
              id: this.statuses.indexOf(posted) + 1,
              ...posted,
              creator: posted.creator ?? { login: this.viewer.login },
            }));
          const slice = all.slice((page - 1) * perPage, page * perPage);
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (page * perPage < all.length)
            headers.link = `<${this.url}/repos/acme/app/commits/${listed[1]}/statuses?per_page=${perPage}&page=${page + 1}>; rel="next"`;
          res.writeHead(200, headers);
          return res.end(JSON.stringify(slice));
        }
        if (/^\/repos\/acme\/app\/pulls(\?.*)?$/.test(path) && req.method === 'GET')
          return send(200, this.pulls);
        if (path === '/repos/acme/app/dispatches' && req.method === 'POST') {
          if (this.failNextDispatches > 0) {
            this.failNextDispatches--;
            return send(503, { message: 'Service Unavailable' });
          }
          const dispatch = JSON.parse(raw) as ReceivedDispatch;
          if (JSON.stringify(dispatch.client_payload).length >= CLIENT_PAYLOAD_LIMIT)
            return send(422, { message: 'client_payload is too large' });
          this.dispatches.push({ ...dispatch, authorization: req.headers.authorization });
          res.writeHead(204).end();
          return;
        }
        if (path === '/repos/acme/app/git/refs' && req.method === 'POST') {
          const { ref = '', sha = '' } = JSON.parse(raw) as { ref?: string; sha?: string };
          if (this.refs.includes(ref)) return send(422, { message: 'Reference already exists' });
          this.refs.push(ref);
          return send(201, { ref, object: { sha, type: 'commit' } });
        }
        if (path === '/graphql' && req.method === 'POST')
          return send(200, { data: { viewer: { login: this.viewer.login } } });
        const list = /^\/repos\/acme\/app\/issues\/(\d+)\/comments(\?.*)?$/.exec(path);
        const one = /^\/repos\/acme\/app\/issues\/comments\/(\d+)$/.exec(path);
        if (list && req.method === 'GET') return send(200, this.comments);
        if (list && req.method === 'POST') {
          const comment = {
            id: this.nextId++,
            body: body?.body ?? '',
            html_url: `https://github.example/acme/app/pull/${list[1]}#issuecomment-${this.nextId}`,
            user: this.viewer,
          };
          this.comments.push(comment);
          return send(201, comment);
        }
        if (one && req.method === 'PATCH') {
          const comment = this.comments.find((c) => c.id === Number(one[1]));
          if (!comment) return send(404, { message: 'Not Found' });
          comment.body = body?.body ?? '';
          return send(200, comment);
        }
        send(404, { message: 'Not Found' });
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address && typeof address === 'object') this.url = `http://127.0.0.1:${address.port}`;
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

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
