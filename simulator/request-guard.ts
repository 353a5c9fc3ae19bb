/**
 * What keeps web pages out. The simulator runs on a developer's machine, and a page in their browser
 * can send it requests: a form or `fetch` to `http://127.0.0.1:<port>/_sim/...` (cross-site request
 * forgery), or, through a name of its own that resolves to 127.0.0.1, requests its browser treats as
 * same-origin (DNS rebinding). So every request must name the simulator in `Host` (a loopback name or
 * the address it was reached at, with its port, or a name it was told to answer to), an `Origin`, when
 * sent, must be the simulator's own, and a control request with a body must be JSON (a form cannot send that without a CORS preflight,
 * which the simulator never grants).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from './errors.js';

/** `host[:port]` (a name, an IPv4 address or a bracketed IPv6 address), or null when it is not one. */
function parseHost(value: string): { hostname: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]@/\\\s]+)(?::(\d{1,5}))?$/i.exec(value);
  if (!match) return null;
  return { hostname: match[1].toLowerCase().replace(/^\[|\]$/g, ''), port: Number(match[2] ?? 80) };
}

const unmapped = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * A loopback name or address, or the address this connection reached, with the simulator's port; or,
 * with any port, one of `allowedHosts` (names a proxy or a container network maps to the simulator).
 */
function namesSimulator(value: string, socket: Socket, allowedHosts: readonly string[]): boolean {
  const host = parseHost(value);
  if (!host) return false;
  if (allowedHosts.some((name) => name.toLowerCase() === host.hostname)) return true;
  if (host.port !== socket.localPort) return false;
  return (
    host.hostname === 'localhost' ||
    host.hostname === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host.hostname) ||
    host.hostname === unmapped(socket.localAddress ?? '')
  );
}

/**
 * The guard's refusals are the simulator's, not the service's: 421 Misdirected Request with a code of
 * their own, never the 403 the action reports as a token lacking a permission, and a message that
 * says who refused and how to allow the name.
 */
const refused = (code: string, message: string): ApiError =>
  new ApiError(421, code, `The svc simulator (not the service) refused this request: ${message}`);

/** How to allow a name: the command's flag and the library's option. */
const allowing = (name: string): string =>
  `start it with --allowed-hosts ${name} (startSimulator({ allowedHosts: [${JSON.stringify(name)}] }) in process)`;

/** The error a request gets before any route sees it, or null when it may go on. */
export function refusal(
  headers: IncomingHttpHeaders,
  socket: Socket,
  control: boolean,
  hasBody: boolean,
  allowedHosts: readonly string[] = [],
): ApiError | null {
  const host = headers.host ?? '';
  if (!namesSimulator(host, socket, allowedHosts)) {
    const name = parseHost(host)?.hostname;
    return refused(
      'SIMULATOR_HOST_NOT_ALLOWED',
      `Host ${JSON.stringify(host)} is not a name it answers to (it refuses other names so that a web page cannot reach it through a name of its own). Use localhost, 127.0.0.1 or [::1] with port ${socket.localPort}, or ${allowing(name && /^[\w.:-]+$/.test(name) ? name : 'NAME')}.`,
    );
  }
  const origin = headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, socket, allowedHosts)) {
    return refused(
      'SIMULATOR_ORIGIN_NOT_ALLOWED',
      `Origin ${JSON.stringify(origin)} is not the simulator's own: requests from other web pages are refused. Its own pages are answered; to open them through another name, ${allowing('NAME')}.`,
    );
  }
  const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (control && hasBody && type !== 'application/json') {
    return new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `A control request with a body must be sent as Content-Type: application/json, not ${JSON.stringify(type || 'none')}`,
    );
  }
  return null;
}

function isOwnOrigin(origin: string, socket: Socket, allowedHosts: readonly string[]): boolean {
  const match = /^http:\/\/([^/]+)$/i.exec(origin);
  return match !== null && namesSimulator(match[1], socket, allowedHosts);
}
