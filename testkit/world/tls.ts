/**
 * Servers on the loopback for the connection-fault tests of both tiers (__tests__/service/, in process,
 * and __tests__/e2e/connection-bundles.test.ts, the bundles): a port chosen by the system, a
 * self-signed certificate made with openssl, and a TLS server that counts the requests that got through.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Starts `server` on a free port of 127.0.0.1, and returns the port. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A key and its certificate, in PEM, and the certificate's file. */
export interface SelfSigned {
  key: string;
  cert: string;
  certFile: string;
}

/**
 * A self-signed certificate for `san` (`IP:127.0.0.1`, `DNS:svc.test`), its files written in `dir`, made
 * with openssl at test time (node:crypto makes keys, not certificates); undefined where openssl is missing.
 */
export function selfSignedCertificate(dir: string, san: string): SelfSigned | undefined {
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=svc-test']
        .concat(['-addext', `subjectAltName=${san}`])
        .concat(['-keyout', join(dir, `${san}.key`), '-out', join(dir, `${san}.pem`)]),
      { stdio: 'ignore' },
    );
    const certFile = join(dir, `${san}.pem`);
    return {
      key: readFileSync(join(dir, `${san}.key`), 'utf8'),
      cert: readFileSync(certFile, 'utf8'),
      certFile,
    };
  } catch {
    return undefined;
  }
}

/** A TLS server on the loopback with `tls`; counts the HTTP requests that got through (none should). */
export async function tlsServer(tls: {
  key: string;
  cert: string;
}): Promise<{ base: string; requests: () => number; close: () => void }> {
  let requests = 0;
  const server = createHttpsServer(tls, (_req, res) => {
    requests++;
    res.end('{}');
  });
  const port = await listen(server);
  return { base: `https://127.0.0.1:${port}`, requests: () => requests, close: () => server.close() };
}
