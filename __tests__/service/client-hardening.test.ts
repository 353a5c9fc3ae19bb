/**
 * Client hardening against a bare HTTP server that misbehaves in ways the simulator's faults do not
 * cover: a body that stalls after the headers, a body that trickles one byte at a time forever (no
 * idle socket for a socket timeout to notice), headers that never come, and an answer larger than
 * the 16 MiB cap. Each must end, within bounds, with a clear message that says what kept failing and
 * how many times, never a hang or a stack trace: once through the built bundle (the step as users
 * run it), and for every kind through the client with the step's retry policy, which is fast.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ServiceClient } from '../../src/service/client.js';
import { RetriesExhaustedError } from '../../src/service/errors.js';
import { DEFAULT_RETRY_POLICY, MIN_DELAY_MS } from '../../src/service/retry.js';
import { runAction } from '../../testkit/runner/step.js';
import { errorLines } from '../e2e/security/audit.js';

const RUN_ID = '6a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const APP_ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const STACK_TRACE = /\n\s+at .+:\d+:\d+/;

type Misbehaviour = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let url: string;
let misbehave: Misbehaviour;
const sockets = new Set<Socket>();
const timers = new Set<NodeJS.Timeout>();
let reads = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v2/workflows/dispatch') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { id: RUN_ID, url: `${url}/runs/${RUN_ID}` } }));
      return;
    }
    reads += 1;
    misbehave(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const timer of timers) clearInterval(timer);
  timers.clear();
  reads = 0;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const stalledBody: Misbehaviour = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
  res.write('{"data":{"id":"');
};

const trickle: Misbehaviour = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), 20);
  timers.add(timer);
  res.on('close', () => clearInterval(timer));
};

const noHeaders: Misbehaviour = () => undefined;

const oversized: Misbehaviour = (_req, res) => {
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

describe('client hardening', () => {
  it('through the built bundle: a stalled body times out per attempt; six reads, then one clear error', async () => {
    misbehave = stalledBody;
    const run = await runAction({
      entry: 'run-workflow',
      runtime: 'node24',
      inputs: {
        token: 'svc_hardening_token_0123456789',
        'base-url': url,
        'app-id': APP_ID,
        workflow: 'e2e.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '0.05',
      },
      env: { SVC_REQUEST_TIMEOUT_MS: '200' },
      timeoutMs: 30_000,
    });
    // Not killed by the harness's 30 s limit: the per-attempt limit ended it (no tighter wall-clock bound).
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)).toBe(false);
    const errors = errorLines(run);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(
        `Reading workflow run ${RUN_ID} failed 6 times in a row; .*last error: no complete answer within 0\\.2 s`,
        'i',
      ),
    );
    expect(run.outputs['run-id']).toBe(RUN_ID);
    expect(reads).toBe(6);
  });

  it.each([
    // A stalled body: the bundle run above.
    // 0.3 s per attempt: long enough that every attempt reaches the server even on a loaded machine,
    // so the server's count of reads is exact.
    ['a body that trickles forever', trickle, 300, 'no complete answer within 0.3 s'],
    ['headers that never come', noHeaders, 300, 'no complete answer within 0.3 s'],
    // Time enough to send 16 MiB, so that the cap, not the time limit, ends each attempt.
    ['an answer larger than 16 MiB', oversized, 5000, `larger than ${16 * 1024 * 1024} bytes`],
  ])(
    '%s: six attempts, then a message naming the last error',
    async (_label, behaviour, requestTimeoutMs, lastError) => {
      misbehave = behaviour;
      const waits: number[] = [];
      const client = new ServiceClient({
        baseUrl: url,
        token: 't',
        requestTimeoutMs,
        // The step's six attempts, with the shortest back-off there is.
        retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: MIN_DELAY_MS, maxDelayMs: MIN_DELAY_MS },
        onRetry: ({ delayMs }) => waits.push(delayMs),
      });
      try {
        const error = await client.getWorkflowRun(RUN_ID).catch((e: unknown) => e);
        // Five waits between the six attempts, each the shortest back-off there is.
        expect(waits).toEqual(Array(5).fill(MIN_DELAY_MS));
        expect(error).toBeInstanceOf(RetriesExhaustedError);
        expect((error as Error).message).toMatch(
          new RegExp(`^Reading workflow run ${RUN_ID} failed 6 times in a row; .*last error: `, 'i'),
        );
        expect((error as Error).message).toContain(lastError);
        expect(reads).toBe(6);
      } finally {
        client.dispose();
      }
    },
  );
});
