/**
 * The HTTP transport under ServiceHttp: the same interface and request behaviour as
 * `@actions/http-client`'s HttpClient as http.ts uses it (`request(method, url, body, headers)`
 * resolving to `{ message }`, `dispose()`), written on node:http/https with one keep-alive agent,
 * so every request of a step shares one TCP connection.
 *
 * `@actions/http-client` itself is loaded only when a proxy applies to the service's URL
 * (`https_proxy`/`http_proxy`, minus `no_proxy`, as the library decides): it brings undici and
 * tunnel, about 0.45 MB of bundle and most of the action's start-up time, for a case most runners
 * never meet. Behind a proxy, requests go through the library exactly as before.
 */
import * as http from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { getProxyUrl } from '@actions/http-client/lib/proxy';

/** node:https (and with it tls and crypto) loads only for an https URL. */
const https = (): typeof import('node:https') =>
  process.getBuiltinModule('node:https') as typeof import('node:https');

export interface TransportOptions {
  keepAlive?: boolean;
  allowRetries?: boolean;
  allowRedirects?: boolean;
  socketTimeout?: number;
}

type Library = typeof import('@actions/http-client');
type LibraryClient = InstanceType<Library['HttpClient']>;

export class HttpClient {
  private agent: http.Agent | undefined;
  private proxied: Promise<LibraryClient> | undefined;
  private library: LibraryClient | undefined;
  private disposed = false;

  constructor(
    private readonly userAgent: string,
    private readonly handlers: [],
    private readonly options: TransportOptions = {},
  ) {}

  async request(
    method: string,
    requestUrl: string,
    data: string | null,
    headers: Record<string, string>,
  ): Promise<{ message: IncomingMessage }> {
    if (this.disposed) throw new Error('Client has already been disposed.');
    const url = new URL(requestUrl);
    const proxy = getProxyUrl(url);
    if (proxy && proxy.hostname) return (await this.viaLibrary()).request(method, requestUrl, data, headers);
    return this.direct(method, url, data, headers);
  }

  dispose(): void {
    this.agent?.destroy();
    this.library?.dispose();
    this.disposed = true;
  }

  private viaLibrary(): Promise<LibraryClient> {
    this.proxied ??= import('@actions/http-client').then(({ HttpClient: Library }) => {
      this.library = new Library(this.userAgent, this.handlers, this.options);
      if (this.disposed) this.library.dispose();
      return this.library;
    });
    return this.proxied;
  }

  /** As HttpClient.requestRawWithCallback: lower-cased headers + user-agent, Content-Length, socket timeout. */
  private direct(
    method: string,
    url: URL,
    data: string | null,
    headers: Record<string, string>,
  ): Promise<{ message: IncomingMessage }> {
    const usingSsl = url.protocol === 'https:';
    const requestHeaders: OutgoingHttpHeaders = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    requestHeaders['user-agent'] = this.userAgent;
    if (typeof data === 'string') requestHeaders['Content-Length'] = Buffer.byteLength(data, 'utf8');
    this.agent ??= usingSsl
      ? new (https().Agent)({ keepAlive: this.options.keepAlive ?? false, maxSockets: Infinity })
      : new http.Agent({ keepAlive: this.options.keepAlive ?? false, maxSockets: Infinity });
    const options: http.RequestOptions = {
      host: url.hostname,
      port: url.port ? parseInt(url.port) : usingSsl ? 443 : 80,
      path: (url.pathname || '') + (url.search || ''),
      method,
      headers: requestHeaders,
      agent: this.agent,
    };
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error: Error | undefined, message?: IncomingMessage): void => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve({ message: message as IncomingMessage });
      };
      const req = (usingSsl ? https() : http).request(options, (message) => settle(undefined, message));
      let socket: import('node:net').Socket | undefined;
      req.on('socket', (sock) => {
        socket = sock;
      });
      req.setTimeout(this.options.socketTimeout || 3 * 60_000, () => {
        socket?.end();
        settle(new Error(`Request timeout: ${options.path}`));
      });
      req.on('error', (error) => settle(error));
      if (data) req.write(data, 'utf8');
      req.end();
    });
  }
}
