/**
 * Client hardening, through the built dist/, against a bare HTTP server that misbehaves in ways the
 * simulator's faults do not cover: a body that stalls after the headers, a body that trickles one
 * byte at a time forever (no idle socket for a socket timeout to notice), headers that never come,
 * and an answer larger than the response size limit. Each must end, within bounds, with a clear
 * message that says what kept failing and how many times, never a hang or a stack trace.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { runAction, type ActionRun } from '../helpers/run-action.js';
import { errorLines } from '../security/audit.js';

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

function runWorkflow(): Promise<ActionRun> {
  return runAction({
    runtime: 'node24',
    inputs: {
      command: 'run-workflow',
      token: 'svc_hardening_token_0123456789',
      'base-url': url,
      'app-id': APP_ID,
      workflow: 'e2e.yml',
      'git-ref': 'main',
      'poll-interval-seconds': '0.02',
    },
    env: { SVC_REQUEST_TIMEOUT_MS: '300' },
    timeoutMs: 30_000,
  });
}

function expectClearFailure(run: ActionRun, lastError: string): void {
  expect(run.signal).toBeNull();
  expect(run.exitCode).toBe(1);
  expect(STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)).toBe(false);
  const errors = errorLines(run);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`Reading workflow run ${RUN_ID} failed 6 times in a row; giving up.`);
  expect(errors[0]).toContain(lastError);
  expect(run.outputs['run-id']).toBe(RUN_ID);
  expect(reads).toBe(6);
}

describe('client hardening', () => {
  it('a body that stalls after the headers times out per request; six reads, then a clear message', async () => {
    misbehave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"data":{"id":"');
    };
    const started = Date.now();
    const run = await runWorkflow();
    expectClearFailure(run, 'no complete answer within 0.3 s');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a body that trickles forever is cut at the per-request limit, not waited for', async () => {
    misbehave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 20);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    };
    const run = await runWorkflow();
    expectClearFailure(run, 'no complete answer within 0.3 s');
  });

  it('headers that never come time out too', async () => {
    misbehave = () => undefined;
    const run = await runWorkflow();
    expectClearFailure(run, 'no complete answer within 0.3 s');
  });

  it('an answer larger than the response size limit is refused without reading it all', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    misbehave = (_req, res) => {
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
    const run = await runWorkflow();
    expectClearFailure(run, `larger than ${16 * 1024 * 1024} bytes`);
  });
});
