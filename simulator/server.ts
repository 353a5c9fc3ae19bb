/**
 * The HTTP server: keep-alive tuning, connection ids, request recording, fault application, routing
 * to the service and control routes, and the JSON envelope (`{ data }` / `{ errors }`).
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Timers } from './clock.js';
import { ApiError, badRequest, notFound } from './errors.js';
import type { Fault, FaultRegistry } from './faults.js';
import type { Log } from './log.js';
import { errorPage, wantsHtml } from './pages/html.js';
import { refusal } from './request-guard.js';

export interface RecordedRequest {
  method: string;
  /** Path with query string, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, the raw text when it is not JSON, or undefined when there was no body. */
  body: unknown;
  /** Status sent; null while pending or when no response was sent (reset fault, client gone). */
  status: number | null;
  /** Counter per TCP connection (1, 2, ...): equal ids mean a reused connection. */
  connectionId: number;
  receivedAt: string;
  /** Whether the operation was performed (handler ran). */
  processed: boolean;
  /** The kind of the fault applied to this request, if any. */
  fault?: Fault['kind'];
  /** True for `/_sim/` control routes. */
  control?: boolean;
  /** What the log adds to the request's line (GitHub's stand-in: the repository's counts). */
  note?: string;
}

export interface ApiResponse {
  status: number;
  /** JSON-serialised unless it is a string or a Buffer (sent as is). Undefined: empty body. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RequestContext {
  method: string;
  /** Path without query. */
  pathname: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface Route {
  method: string;
  /** Matched against the whole pathname; capture groups become `params` (URI-decoded). */
  pattern: RegExp;
  handler: (ctx: RequestContext, params: string[]) => ApiResponse | Promise<ApiResponse>;
  /** Headers added to every response of this route, errors included. */
  headers?: Record<string, string>;
  /**
   * A page for people: matched only when the client asks for HTML (`Accept: text/html`), so a JSON
   * client of the same path gets what it got without it; its errors are pages too.
   */
  page?: boolean;
}

export const ok = (data: unknown, headers?: Record<string, string>): ApiResponse => ({
  status: 200,
  body: { data },
  ...(headers ? { headers } : {}),
});

/** The body parsed as JSON; undefined when empty; 400 when it is not valid JSON. */
export function parseJsonBody(ctx: RequestContext): unknown {
  if (ctx.rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(ctx.rawBody);
  } catch {
    throw badRequest('The request body is not valid JSON');
  }
}

const MAX_BODY_BYTES = 1024 * 1024;
/** What a refused body may still send before its connection is closed. */
const DRAIN_LIMIT_BYTES = 8 * MAX_BODY_BYTES;
/** Request line and headers together (Node's default, said here): more is a 431 from clientError. */
const MAX_HEADER_BYTES = 16 * 1024;

function serialize(resp: ApiResponse): { status: number; headers: Record<string, string>; payload: Buffer } {
  const headers: Record<string, string> = {};
  let payload: Buffer;
  if (resp.body === undefined) payload = Buffer.alloc(0);
  else if (Buffer.isBuffer(resp.body)) {
    payload = resp.body;
    headers['content-type'] = 'application/octet-stream';
  } else if (typeof resp.body === 'string') {
    payload = Buffer.from(resp.body, 'utf8');
    headers['content-type'] = resp.body.trimStart().startsWith('<')
      ? 'text/html; charset=utf-8'
      : 'application/json; charset=utf-8';
  } else {
    payload = Buffer.from(JSON.stringify(resp.body), 'utf8');
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  for (const [name, value] of Object.entries(resp.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['content-length'] = String(payload.length);
  return { status: resp.status, headers, payload };
}

/**
 * What GitHub's front end answers when no server can: an HTML page (a client that expects JSON
 * must cope with it; docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api lists 5xx
 * as answers to retry).
 */
export function githubErrorPage(status: number): string {
  const words = status === 503 ? 'No server is currently available to service your request.' : 'Server Error';
  return `<!DOCTYPE html>
<html><head><meta http-equiv="Content-type" content="text/html; charset=utf-8"><title>${status === 503 ? 'Unicorn!' : 'Server Error'} &middot; GitHub</title></head>
<body><div class="container"><h1>${words}</h1><p>Sorry about that. Please try refreshing and contact us if the problem persists.</p></div></body></html>
`;
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A request target that is not a path (`*`, an absolute URI) or whose %-escapes do not decode. */
function malformed(target: string): boolean {
  if (!target.startsWith('/')) return true;
  try {
    decodeURI(target);
    return false;
  } catch {
    return true;
  }
}

function isLoopback(address: string | undefined): boolean {
  return (
    address === '127.0.0.1' ||
    address === '::1' ||
    address === '::ffff:127.0.0.1' ||
    !!address?.startsWith('127.')
  );
}

export interface SimServerOptions {
  routes: Route[];
  controlRoutes: Route[];
  faults: FaultRegistry;
  timers: Timers;
  requests: RecordedRequest[];
  /** Where each request's line goes. */
  log?: Log;
  /**
   * GitHub's side (`/_github/...`): whether a request target is its own, and its answer. Its requests
   * are GitHub's, recorded by the stand-in, not in `requests`; the faults apply to them as to the
   * service's.
   */
  github?: {
    owns(target: string): boolean;
    answer(
      method: string,
      target: string,
      headers: IncomingHttpHeaders,
      raw: string,
    ): ApiResponse & { note?: string };
  };
  /** Names besides loopback ones that requests may use in `Host` (see request-guard.ts). */
  allowedHosts?: readonly string[];
}

export interface SimServer {
  server: Server;
  /** Destroys every open socket. */
  destroySockets(): void;
}

export function createSimServer(opts: SimServerOptions): SimServer {
  const sockets = new Set<Socket>();
  const connectionIds = new WeakMap<Socket, number>();
  let connections = 0;

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    void handle(req, res).catch((error: unknown) => {
      console.error('simulator: request handling failed:', error);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(
          JSON.stringify({
            errors: [{ code: 'INTERNAL_SERVER_ERROR', message: 'Internal simulator error' }],
          }),
        );
      } else res.destroy();
    });
  });
  // What Node's parser refuses (headers too large, a request that is not HTTP) never reaches a route:
  // it gets the answer a service would give, said in JSON, and a line in the log; the server goes on.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const message = tooLarge
      ? `The request's headers are larger than the simulator takes (${MAX_HEADER_BYTES} bytes)`
      : 'The request is not valid HTTP';
    opts.log?.write(`(unreadable request) ${status}: ${message}`);
    const body = JSON.stringify({
      errors: [{ code: tooLarge ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST', message }],
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  // Behind a real load balancer (idle timeout ~60 s) a client polling every 5-10 s keeps one connection.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('connection', (socket: Socket) => {
    connectionIds.set(socket, ++connections);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function route(routes: Route[], ctx: RequestContext): Promise<ApiResponse> {
    for (const r of routes) {
      const match = r.pattern.exec(ctx.pathname);
      if (!match || r.method !== ctx.method) continue;
      if (r.page && !wantsHtml(ctx.headers.accept)) continue;
      try {
        let params: string[];
        try {
          params = match.slice(1).map((p) => decodeURIComponent(p));
        } catch {
          throw badRequest('The path contains an invalid escape sequence');
        }
        const resp = await r.handler(ctx, params);
        return r.headers ? { ...resp, headers: { ...r.headers, ...resp.headers } } : resp;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (r.page) return errorPage(error);
        return { status: error.status, body: error.toBody(), ...(r.headers ? { headers: r.headers } : {}) };
      }
    }
    const missing = notFound(`No route for ${ctx.method} ${ctx.pathname}`);
    return wantsHtml(ctx.headers.accept) ? errorPage(missing) : { status: 404, body: missing.toBody() };
  }

  function write(res: ServerResponse, record: RecordedRequest, resp: ApiResponse): void {
    if (res.destroyed || res.writableEnded || res.socket?.destroyed) return;
    const { status, headers, payload } = serialize(resp);
    record.status = status;
    res.writeHead(status, headers);
    res.end(payload);
  }

  /**
   * The body, up to MAX_BODY_BYTES. A body declared or found larger is not read on: the answer is a
   * 413 at once (see refuseLargeBody), whatever the client goes on sending.
   */
  function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES)
      return Promise.resolve({ text: '', tooLarge: true });
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        resolve({ text: '', tooLarge: true });
      };
      const onEnd = (): void => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: false });
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', reject);
    });
  }

  /**
   * Answers 413 and closes the connection: what the client still sends is read and dropped (so it
   * can read the answer, and memory does not grow), up to DRAIN_LIMIT_BYTES, then the socket is closed.
   */
  function refuseLargeBody(req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
    });
    req.resume();
    write(res, record, {
      status: 413,
      body: badRequest(
        `The request body is larger than the simulator takes (${MAX_BODY_BYTES} bytes)`,
        'PAYLOAD_TOO_LARGE',
      ).toBody(),
      headers: { connection: 'close' },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Listener removed afterwards: a keep-alive socket serves many requests.
    const connection = { gone: false };
    const onClose = (): void => {
      connection.gone = true;
    };
    req.socket.on('close', onClose);
    const started = performance.now();
    const seen: { record?: RecordedRequest } = {};
    try {
      await handleRequest(req, res, connection, seen);
    } finally {
      req.socket.off('close', onClose);
      const record = seen.record;
      if (record)
        opts.log?.request(
          record.method,
          record.path,
          record.status,
          performance.now() - started,
          record.fault,
          record.note,
        );
    }
  }

  async function handleRequest(
    req: IncomingMessage,
    res: ServerResponse,
    connection: { gone: boolean },
    seen: { record?: RecordedRequest },
  ): Promise<void> {
    const socket = req.socket;
    const receivedAt = new Date().toISOString();
    const url = req.url ?? '/';
    const pathname = url.split('?')[0];
    const method = (req.method ?? 'GET').toUpperCase();
    const { text, tooLarge } = await readBody(req);
    let body: unknown = undefined;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const control = pathname === '/_sim' || pathname.startsWith('/_sim/');
    const record: RecordedRequest = {
      method,
      path: url,
      headers: { ...req.headers },
      body,
      status: null,
      connectionId: connectionIds.get(socket) ?? 0,
      receivedAt,
      processed: false,
    };
    if (control) record.control = true;
    seen.record = record;
    const refusedEarly =
      tooLarge || malformed(url) || refusal(req.headers, socket, control, text !== '', opts.allowedHosts);
    // GitHub's side answers for itself (its requests are GitHub's, not the service's), after the
    // faults that match it, as a service's answer does.
    const github = !refusedEarly && control === false && (opts.github?.owns(url) ?? false);
    if (github)
      return answerWithFault(
        req,
        res,
        record,
        connection,
        async () => {
          const answer = opts.github!.answer(method, url, req.headers, text);
          if (answer.note) record.note = answer.note;
          return answer;
        },
        true,
      );
    opts.requests.push(record);

    if (tooLarge) return refuseLargeBody(req, res, record);
    if (malformed(url)) {
      const error = badRequest(
        'The request path is malformed: it must start with / and use valid %-escapes',
        'MALFORMED_PATH',
      );
      const page = wantsHtml(req.headers.accept);
      return write(res, record, page ? errorPage(error) : { status: 400, body: error.toBody() });
    }
    const refused = refusal(req.headers, socket, control, text !== '', opts.allowedHosts);
    if (refused) return write(res, record, { status: refused.status, body: refused.toBody() });
    const ctx: RequestContext = { method, pathname, headers: req.headers, rawBody: text };
    if (control) {
      if (!isLoopback(socket.remoteAddress)) {
        return write(res, record, {
          status: 403,
          body: { errors: [{ code: 'FORBIDDEN', message: 'Control routes are for loopback clients only' }] },
        });
      }
      record.processed = true;
      return write(res, record, await route(opts.controlRoutes, ctx));
    }

    return answerWithFault(req, res, record, connection, () => route(opts.routes, ctx), false);
  }

  /**
   * The answer `operation` gives, or what the first fault matching the request makes of it. On
   * GitHub's side only a fault naming its path applies, and a status fault without a body of its own
   * answers as GitHub's front end does: an HTML page.
   */
  async function answerWithFault(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    connection: { gone: boolean },
    operation: () => Promise<ApiResponse>,
    github: boolean,
  ): Promise<void> {
    const socket = req.socket;
    const method = record.method;
    const url = record.path;
    const fault = opts.faults.take(method, url, github);
    if (fault) record.fault = fault.kind;
    const perform = (): Promise<ApiResponse> => {
      record.processed = true;
      return operation();
    };

    if (!fault) return write(res, record, await perform());
    switch (fault.kind) {
      case 'status': {
        if (fault.processed) await perform();
        const defaultBody = github
          ? githubErrorPage(fault.status)
          : {
              errors: [
                { code: 'SIMULATED_FAULT', message: `Simulated HTTP ${fault.status} from the simulator` },
              ],
            };
        return write(res, record, {
          status: fault.status,
          body: fault.body === undefined ? defaultBody : fault.body,
          ...(fault.headers ? { headers: fault.headers } : {}),
        });
      }
      case 'reset':
        if (fault.processed) await perform();
        socket.destroy();
        return;
      case 'partial': {
        const { status, headers, payload } = serialize(await perform());
        if (res.destroyed || socket.destroyed) return;
        record.status = status;
        res.writeHead(status, headers);
        res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => socket.destroy());
        return;
      }
      case 'delay': {
        if (fault.processed) {
          const resp = await perform();
          await opts.timers.sleep(fault.ms);
          return write(res, record, resp);
        }
        await opts.timers.sleep(fault.ms);
        if (connection.gone || socket.destroyed || opts.timers.isClosed) return;
        return write(res, record, await perform());
      }
      case 'body': {
        const resp = await perform();
        const headers = { ...resp.headers, ...fault.headers };
        return write(res, record, { status: fault.status ?? resp.status, body: fault.body, headers });
      }
      case 'mutate': {
        const resp = await perform();
        // GitHub's answers hold their JSON as text: the mutation sees it parsed, as a service's.
        const parsed: unknown = typeof resp.body === 'string' ? parseOrText(resp.body) : resp.body;
        return write(res, record, { ...resp, body: fault.mutate(structuredClone(parsed)) });
      }
    }
  }

  return {
    server,
    destroySockets() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
