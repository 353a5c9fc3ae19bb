/**
 * Client hardening through the built bundle, the step as users run it: a read whose body stalls after
 * the headers times out per attempt; six reads, then one clear error, never a hang or a stack trace.
 * The other misbehaviours, through the client in process: __tests__/service/client-hardening.test.ts.
 */
import { STACK_TRACE, runAction } from '../../testkit/runner/step.js';
import {
  RUN_ID,
  stalledBody,
  startMisbehavingService,
  type MisbehavingService,
} from '../../testkit/world/misbehaving-service.js';

const APP_ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

let service: MisbehavingService;
beforeAll(async () => (service = await startMisbehavingService()));
afterAll(() => service.close());

describe('client hardening', () => {
  it('through the built bundle: a stalled body times out per attempt; six reads, then one clear error', async () => {
    service.misbehave = stalledBody;
    const run = await runAction({
      entry: 'run-workflow',
      runtime: 'node24',
      inputs: {
        token: 'svc_hardening_token_0123456789',
        'base-url': service.url,
        'app-id': APP_ID,
        workflow: 'e2e.yml',
        'git-ref': 'main',
        'poll-interval-seconds': '0.05',
      },
      // 1 s attempts: each reaches this server however busy the machine (the dispatch too, which
      // a lost answer would not repeat); a loopback request takes a few milliseconds.
      env: { SVC_REQUEST_TIMEOUT_MS: '1000' },
      // About 8 s: six attempts and the back-off between them; the harness's limit is ten times that.
      timeoutMs: 80_000,
    });
    // Not killed by the harness's limit: the per-attempt limit ended it (no tighter wall-clock bound).
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)).toBe(false);
    const errors = run.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(
        `Reading workflow run ${RUN_ID} failed 6 times in a row; .*last error: no complete answer within 1 s`,
        'i',
      ),
    );
    expect(run.outputs['run-id']).toBe(RUN_ID);
    expect(service.reads).toBe(6);
  }, 100_000);
});
