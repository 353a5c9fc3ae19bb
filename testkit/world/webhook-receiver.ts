/** A local webhook receiver for the tests (not a test file itself): records raw bodies and headers. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  /** Date.now() when the request's body had arrived. */
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, exactly as sent. */
  body: Buffer;
}

/** A status to answer with, or `hang` to never answer. */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests received on one path. */
  on(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (request: Received, countOnPath: number) => Answer,
): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        at: Date.now(),
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(request);
      const result = answer(request, received.filter((r) => r.path === request.path).length);
      if (result === 'hang') hanging.add(res);
      else res.writeHead(result, { 'content-type': 'text/plain' }).end(result < 400 ? 'ok' : 'try again');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers 500, then 503, then 200 on each path: two failures, then an acknowledgement. */
export const failTwiceThenAcknowledge = (_request: Received, count: number): Answer =>
  count === 1 ? 500 : count === 2 ? 503 : 200;
