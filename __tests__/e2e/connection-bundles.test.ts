/**
 * TLS faults through the built bundles, for connection-faults.test.ts (__tests__/service/, which
 * runs its other cases in process from the sources): a TLS handshake that failed sent nothing, and
 * the step says so in words, never "check the dashboard" (issue 25 item 1).
 * - An https base URL on a plain-http server (the point of that file): the wrong scheme is told by
 *   the error's message, which Node's errors carry in the bundle's process; in the test's process
 *   (Jest's VM context) `instanceof Error` is false for them, so only the bundle shows this case.
 * - A certificate for another host name: the certificate is trusted through NODE_EXTRA_CA_CERTS,
 *   which Node reads as it starts: a setting of the step's own process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderLog, runStep } from '../../testkit/runner/step.js';
import { selfSignedCertificate, tlsServer } from '../../testkit/world/tls.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': ONE_BUILD });
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

const CERTS = mkdtempSync(join(tmpdir(), 'svc-tls-'));
afterAll(() => rmSync(CERTS, { recursive: true, force: true }));
const selfSigned = (san: string) => selfSignedCertificate(CERTS, san);

const FOR_OTHER_NAME = selfSigned('DNS:svc.test');

describe('a TLS failure sent nothing, and the step says so in words', () => {
  it('an https base URL on a plain-http server: wrong scheme, no dashboard, no OpenSSL text', async () => {
    const base = world.sim.url.replace(/^http:/, 'https:');
    const run = await runStep('run-workflow', {
      inputs: { ...world.api, 'base-url': base, workflow: 'e2e.yml', 'git-ref': 'main' },
    });
    expect(run.exitCode).toBe(1);
    const errors = run.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Dispatching workflow e2e.yml failed: nothing was sent');
    expect(errors[0]).toContain('https:// where the server takes http://');
    expect(errors[0]).not.toMatch(/dashboard|may have processed|routines|ssl3|SSL_R/i);
    // Not retried: a wrong scheme stays wrong.
    expect(renderLog(run.stdout)).not.toContain('retrying');
    expect(apiRequests(world.sim)).toEqual([]);
  });

  // openssl makes the certificate; without it this case is skipped (and says so by name).
  const withOpenssl = FOR_OTHER_NAME ? it : it.skip;

  withOpenssl(
    'a certificate for another host name: host name mismatch (skipped without openssl)',
    async () => {
      const server = await tlsServer(FOR_OTHER_NAME!);
      try {
        const run = await runStep('run-workflow', {
          inputs: { ...world.api, 'base-url': server.base, workflow: 'e2e.yml', 'git-ref': 'main' },
          // Trusted, so that only the name is wrong.
          env: { NODE_EXTRA_CA_CERTS: FOR_OTHER_NAME!.certFile },
        });
        expect(run.exitCode).toBe(1);
        const errors = run.errors;
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain('nothing was sent');
        expect(errors[0]).toContain('host name mismatch');
        expect(errors[0]).not.toMatch(/dashboard|may have processed/);
        expect(server.requests()).toBe(0);
      } finally {
        server.close();
      }
    },
  );
});
