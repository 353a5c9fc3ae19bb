/**
 * A bare HTTP server that answers a dispatch and then misbehaves on every read in ways the simulator's
 * faults do not cover: a body that stalls after the headers, a body that trickles one byte at a time
 * forever (no idle socket for a socket timeout to notice), headers that never come, an answer larger
 * than the 16 MiB cap. Used by __tests__/service/client-hardening.test.ts (the client, in process) and
 * __tests__/e2e/client-hardening.test.ts (the bundle).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const RUN_ID = '6a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

export type Misbehaviour = (req: IncomingMessage, res: ServerResponse) => void;

export interface MisbehavingService {
  url: string;
  /** What every read gets from now on. */
  misbehave: Misbehaviour;
  /** Reads since the last reset(). */
  reads: number;
  /** Counts reads from zero again. */
  reset(): void;
  close(): Promise<void>;
}

export async function startMisbehavingService(): Promise<MisbehavingService> {
  const sockets = new Set<Socket>();
  let server: Server | undefined = undefined;
  const service: MisbehavingService = {
    url: '',
    misbehave: noHeaders,
    reads: 0,
    reset() {
      service.reads = 0;
    },
    // Destroying the sockets closes every answer, which stops its trickle.
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server?.close(resolve));
    },
  };
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v2/workflows/dispatch') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { id: RUN_ID, url: `${service.url}/runs/${RUN_ID}` } }));
      return;
    }
    service.reads += 1;
    service.misbehave(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}

export const stalledBody: Misbehaviour = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
  res.write('{"data":{"id":"');
};

export const trickle: Misbehaviour = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  // Stops when the answer closes: the client gives up on it, or close() destroys its socket.
  const timer = setInterval(() => res.write(' '), 20);
  res.on('close', () => clearInterval(timer));
};

export const noHeaders: Misbehaviour = () => undefined;

export const oversized: Misbehaviour = (_req, res) => {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data":');
  let sent = 0;
  const send = (): void => {
    while (sent < 17) {
      sent += 1;
      if (!res.write(chunk)) return void res.once('drain', send);
    }
    res.end('null}');
  };
  res.on('error', () => undefined);
  send();
};
