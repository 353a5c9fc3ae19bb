/**
 * Faults of the connection and of the answer, run from the sources in this process (issue 25 items
 * 1 and 6, issue 24 item 6): a TLS handshake that failed, a refused connection or a host name that
 * does not resolve sent nothing, and the step says so in words, never "check the dashboard"; a 404
 * that is not the service's says the base URL is probably wrong; a service string with line breaks
 * or escape sequences reaches the log as one line. An https base URL on a plain-http server and a
 * certificate for another host name (trusted through NODE_EXTRA_CA_CERTS, a start-up setting) are
 * the end-to-end tier's (__tests__/e2e/connection-bundles.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderLog, runStep, runStepPost } from '../../testkit/runner/in-process.js';
import { listen, selfSignedCertificate, tlsServer } from '../../testkit/world/tls.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';

let world: World;
beforeAll(async () => {
  world = await createWorld({ 'e2e.yml': ONE_BUILD });
});
afterAll(() => world.sim.close());
beforeEach(() => world.sim.reset());

const ID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

const CERTS = mkdtempSync(join(tmpdir(), 'svc-tls-'));
afterAll(() => rmSync(CERTS, { recursive: true, force: true }));
const selfSigned = (san: string) => selfSignedCertificate(CERTS, san);
const FOR_LOOPBACK = selfSigned('IP:127.0.0.1');

describe('a TLS failure sent nothing, and the step says so in words', () => {
  it('start-device-session on the wrong scheme: the post step does not warn of a session that cannot exist', async () => {
    const base = world.sim.url.replace(/^http:/, 'https:');
    const inputs = { ...world.api, 'base-url': base, platform: 'ios' };
    const main = await runStep('start-device-session', { inputs });
    expect(main.exitCode).toBe(1);
    expect(main.errors[0]).toContain('Creating the device session failed: nothing was sent');
    expect(main.stdout).not.toMatch(/dashboard|may have processed/);
    const post = await runStepPost('start-device-session', main, { inputs });
    expect(post.exitCode).toBe(0);
    expect(renderLog(post.stdout)).not.toMatch(/may be running|dashboard/);
  });

  // openssl makes the certificate; without it this case is skipped (and says so by name).
  const withOpenssl = FOR_LOOPBACK ? it : it.skip;

  withOpenssl('a self-signed certificate: not trusted, said in words (skipped without openssl)', async () => {
    const server = await tlsServer(FOR_LOOPBACK!);
    try {
      const run = await runStep('run-workflow', {
        inputs: { ...world.api, 'base-url': server.base, workflow: 'e2e.yml', 'git-ref': 'main' },
      });
      expect(run.exitCode).toBe(1);
      const errors = run.errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('nothing was sent');
      expect(errors[0]).toContain("the server's certificate is not trusted");
      expect(errors[0]).toContain('NODE_EXTRA_CA_CERTS');
      expect(errors[0]).not.toMatch(/dashboard|may have processed/);
      expect(server.requests()).toBe(0);
    } finally {
      server.close();
    }
  });
});

/** A loopback port where nothing listens (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createHttpServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a connection that failed before anything was sent says so, and is not "check the dashboard"', () => {
  it('wait-for-run on a port where nothing listens: refused, retried, then said in words', async () => {
    const port = await closedPort();
    const run = await runStep('wait-for-run', {
      inputs: {
        ...world.api,
        'base-url': `http://127.0.0.1:${port}`,
        'run-id': ID,
        'poll-interval-seconds': '0.1',
      },
    });
    expect(run.exitCode).toBe(1);
    const errors = run.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      `nothing was sent: could not reach 127.0.0.1:${port}; the connection was refused`,
    );
    expect(errors[0]).not.toMatch(/dashboard|may have processed/);
    // Not lasting: a service that is restarting may listen again, so the read was tried again.
    expect(renderLog(run.stdout)).toContain('retrying');
  });

  it('start-device-session on a host name that does not resolve: DNS named, no lost session in the post step', async () => {
    const inputs = {
      ...world.api,
      'base-url': 'https://svc.invalid',
      platform: 'ios',
      'poll-interval-seconds': '0.1',
    };
    const main = await runStep('start-device-session', { inputs });
    expect(main.exitCode).toBe(1);
    const errors = main.errors;
    expect(errors[0]).toMatch(/^Creating the device session failed\b/);
    expect(errors[0]).toContain('nothing was sent: could not reach svc.invalid');
    expect(errors[0]).toMatch(/the host name (does not resolve|could not be resolved for now) \(DNS\)/);
    expect(main.stdout).not.toMatch(/dashboard|may have processed/);
    const post = await runStepPost('start-device-session', main, { inputs });
    expect(post.exitCode).toBe(0);
    expect(renderLog(post.stdout)).not.toMatch(/may be running|dashboard/);
  });
});

/** A stand-in for the service that answers every request with `answer`, and records what it got. */
async function stub(
  answer: (method: string, path: string) => { status: number; type: string; body: string },
) {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const { status, type, body } = answer(req.method ?? '', req.url ?? '');
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  const port = await listen(server);
  return { base: `http://127.0.0.1:${port}`, seen, close: () => server.close() };
}

describe('a wrong base URL, and ids given as links', () => {
  it("the dashboard's page as base-url: the dispatch's 404 says the base URL is probably wrong", async () => {
    const base = `${world.sim.url}/accounts/acme/projects/app`;
    const run = await runStep('run-workflow', {
      inputs: { ...world.api, 'base-url': base, workflow: 'e2e.yml', 'git-ref': 'main' },
    });
    expect(run.exitCode).toBe(1);
    const errors = run.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      `The base URL ${base} is probably wrong: its path /accounts/acme/projects/app may be a page of the dashboard`,
    );
    expect(errors[0]).toContain("Give the service's API address, such as https://api.example.com");
  });

  it("a 404 that is not in the service's error shape (an HTML page) says the base URL is probably wrong", async () => {
    const server = await stub(() => ({ status: 404, type: 'text/html', body: '<html>Not here</html>' }));
    try {
      const run = await runStep('wait-for-run', {
        inputs: { ...world.api, 'base-url': server.base, 'run-id': ID },
      });
      expect(run.exitCode).toBe(1);
      const errors = run.errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(`The base URL ${server.base} is probably wrong`);
      expect(server.seen).toEqual([`GET /v2/workflows/runs/${ID}`]);
    } finally {
      server.close();
    }
  });

  it.each([
    ['wait-for-run', 'run-id', 'workflows', 'a workflow run'],
    ['stop-device-session', 'session-id', 'device-sessions', 'a device session'],
  ])(
    '%s: a page link as `%s` names the id inside it, before any request',
    async (action, input, kind, what) => {
      const link = `${world.sim.url}/accounts/acme/projects/app/${kind}/${ID}`;
      const run = await runStep(action, { inputs: { ...world.api, [input]: link } });
      expect(run.exitCode).toBe(1);
      expect(renderLog(run.stdout)).toContain(
        `\`${input}\` is the link to ${what}'s page, not an id: give the id it ends in, ${ID}.`,
      );
      expect(apiRequests(world.sim)).toEqual([]);
    },
  );

  it('`git-ref` that reads as a number: a warning that YAML may have changed it, and the dispatch goes on', async () => {
    const run = await runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'e2e.yml', 'git-ref': '1.1', wait: 'false' },
    });
    const warnings = run.annotations.filter(({ kind }) => kind === 'warning').map(({ text }) => text);
    expect(warnings).toEqual([
      "`git-ref` is `1.1`, which YAML reads as a number: unquoted in the workflow, `1.10` arrives as `1.1` and `1e3` as `1000`. If it was written unquoted, quote it (`git-ref: '1.10'`) so the ref is dispatched as written.",
    ]);
    // Said, not refused: the tag may really be 1.1 (the simulator has no such ref, so the run fails there).
    expect(apiRequests(world.sim)).toEqual(['POST /v2/workflows/dispatch']);
  });

  it('`git-ref: main` gets no such warning', async () => {
    const run = await runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'e2e.yml', 'git-ref': 'main', wait: 'false' },
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('reads as a number');
  });

  it("`timeout-minutes` above the hosted runner's 360-minute job limit gets a notice", async () => {
    const run = await runStep('run-workflow', {
      inputs: {
        ...world.api,
        workflow: 'e2e.yml',
        'git-ref': 'main',
        wait: 'false',
        'timeout-minutes': '600',
      },
    });
    expect(run.exitCode).toBe(0);
    expect(run.annotations.filter(({ kind }) => kind === 'notice').map(({ text }) => text)).toEqual([
      '`timeout-minutes` is 600 minutes, more than the 360-minute limit of a job on a GitHub-hosted runner: there the runner ends the job first. A self-hosted runner can wait longer.',
    ]);
    const within = await runStep('run-workflow', {
      inputs: {
        ...world.api,
        workflow: 'e2e.yml',
        'git-ref': 'main',
        wait: 'false',
        'timeout-minutes': '360',
      },
    });
    expect(within.stdout).not.toContain('360-minute limit');
  });
});

describe('service strings reach the log as one line (a hostile answer)', () => {
  const HOSTILE_URL = 'https://svc.example/run\n::warning::injected\u001b[31mred\r\u2028more';
  const HOSTILE_TIME = '2026-11-24T10:00:00Z\n::error::forged\u001b]0;title\u0007';

  /** No raw ESC or other control character but the line feed, and no line the answer added. */
  function expectOneLineEach(stdout: string): void {
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    const lines = stdout.split('\n');
    expect(lines.filter((line) => /^(::warning::injected|::error::forged|» |more)/.test(line))).toEqual([]);
  }

  it('wait-for-run: the run url with line breaks and escape sequences', async () => {
    const server = await stub(() => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify({
        data: { id: ID, status: 'success', url: HOSTILE_URL, updatedAt: HOSTILE_TIME, jobs: [] },
      }),
    }));
    try {
      const run = await runStep('wait-for-run', {
        inputs: { ...world.api, 'base-url': server.base, 'run-id': ID, 'expected-commit': '' },
      });
      expect(run.exitCode).toBe(0);
      expectOneLineEach(run.stdout);
      expect(renderLog(run.stdout)).toContain('https://svc.example/run ::warning::injected [31mred more');
    } finally {
      server.close();
    }
  });

  it('stop-device-session: finishedAt and url with line breaks and escape sequences', async () => {
    const server = await stub(() => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify({
        data: { id: ID, status: 'stopped', url: HOSTILE_URL, finishedAt: HOSTILE_TIME, remoteConfig: null },
      }),
    }));
    try {
      const run = await runStep('stop-device-session', {
        inputs: { ...world.api, 'base-url': server.base, 'session-id': ID },
      });
      expect(run.exitCode).toBe(0);
      expectOneLineEach(run.stdout);
      expect(renderLog(run.stdout)).toContain('2026-11-24T10:00:00Z ::error::forged ]0;title');
    } finally {
      server.close();
    }
  });
});
