/**
 * Client hardening against a bare HTTP server that misbehaves in ways the simulator's faults do not
 * cover (testkit/world/misbehaving-service.ts): a body that stalls after the headers, a body that
 * trickles one byte at a time forever (no idle socket for a socket timeout to notice), headers that
 * never come, and an answer larger than the 16 MiB cap. Each must end, within bounds, with a clear
 * message that says what kept failing and how many times, never a hang or a stack trace: for every
 * kind through the client with the step's retry policy, which is fast, and for a stalled body through
 * the built bundle, the step as users run it (__tests__/e2e/client-hardening.test.ts).
 */
import { ServiceClient } from '../../src/service/client.js';
import { RetriesExhaustedError } from '../../src/service/errors.js';
import { DEFAULT_RETRY_POLICY, MIN_DELAY_MS } from '../../src/service/retry.js';
import {
  RUN_ID,
  noHeaders,
  oversized,
  startMisbehavingService,
  trickle,
  type MisbehavingService,
} from '../../testkit/world/misbehaving-service.js';

let service: MisbehavingService;
beforeAll(async () => (service = await startMisbehavingService()));
afterEach(() => service.reset());
afterAll(() => service.close());

describe('client hardening', () => {
  it.each([
    // A stalled body: through the bundle, in __tests__/e2e/client-hardening.test.ts.
    // 0.3 s per attempt: long enough that every attempt reaches the server even on a loaded machine,
    // so the server's count of reads is exact.
    ['a body that trickles forever', trickle, 300, 'no complete answer within 0.3 s'],
    ['headers that never come', noHeaders, 300, 'no complete answer within 0.3 s'],
    // Time enough to send 16 MiB, so that the cap, not the time limit, ends each attempt.
    ['an answer larger than 16 MiB', oversized, 5000, `larger than ${16 * 1024 * 1024} bytes`],
  ])(
    '%s: six attempts, then a message naming the last error',
    async (_label, behaviour, requestTimeoutMs, lastError) => {
      service.misbehave = behaviour;
      const waits: number[] = [];
      const client = new ServiceClient({
        baseUrl: service.url,
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
        expect(service.reads).toBe(6);
      } finally {
        client.dispose();
      }
    },
  );
});
