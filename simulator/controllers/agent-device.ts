/**
 * A stand-in for the remote agent-device daemon that an `agent-device` session's `remoteConfig` points
 * to (`agentDeviceRemoteSessionUrl` = AGENT_DEVICE_DAEMON_BASE_URL). It speaks what the `agent-device`
 * client (npm, 0.21) sends to a remote daemon:
 *
 * - `GET  <base>/health`  → `{ ok, service, version, rpcProtocolVersion: 2 }`
 * - `POST <base>/rpc`     JSON-RPC 2.0, method `agent_device.command` (or `agent-device.command`) with
 *   params `{ session, command, positionals, flags, meta, token }`; result `{ ok: true, data }`, errors
 *   as `{ error: { code, message, data: { code, message, hint? } } }`.
 * - `GET  <base>/artifacts/<id>` the bytes of a screenshot the daemon took (the client downloads it
 *   to the path it asked for, then the daemon forgets it).
 *
 * The client sends the session token as `Authorization: Bearer`, as `x-agent-device-token` and as
 * `params.token`: at least one must be present and every one present must be the session's
 * `agentDeviceRemoteSessionToken` (401 otherwise, on every route). The local daemon answers /health
 * without a token; this hosted one, reachable by anyone who knows the URL, does not.
 *
 * Commands: devices, open, close, screenshot, press, click (coordinates `x y`, a ref `@e1` or a
 * selector). Any other command answers UNSUPPORTED_OPERATION, naming the ones implemented.
 */
import { randomBytes } from 'node:crypto';
import type { ApiResponse, RequestContext, Route } from '../server.js';
import type { SessionManager } from '../sessions.js';
import {
  bearerToken,
  CONTROLLER_HEADERS,
  credentialsMatch,
  isObject,
  openGate,
  PerSession,
  SCREENSHOT_PNG,
  type LiveSession,
} from './common.js';
import { controllerPattern } from './paths.js';

/** What `/health` reports when the session did not ask for a package version. */
export const AGENT_DEVICE_DEFAULT_VERSION = '0.21.5';
const RPC_PROTOCOL_VERSION = 2;
const METHODS = new Set(['agent_device.command', 'agent-device.command']);
export const COMMANDS = ['devices', 'open', 'close', 'screenshot', 'press', 'click'] as const;
type Command = (typeof COMMANDS)[number];

interface DaemonState {
  /** The app opened per agent-device session name (`--session`, default `default`). */
  openApps: Map<string, string | null>;
  /** Screenshots not downloaded yet, by artifact id. */
  artifacts: Map<string, Buffer>;
}

type JsonRpcId = string | number | null;

/** An error of the daemon: `code` is agent-device's error code, `rpcCode` the JSON-RPC one. */
class DaemonError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly rpcCode = -32000,
    readonly hint?: string,
  ) {
    super(message);
  }
}

const rpcError = (id: JsonRpcId, error: DaemonError, headers: Record<string, string> = {}): ApiResponse => ({
  status: error.status,
  headers,
  body: {
    jsonrpc: '2.0',
    id,
    error: {
      code: error.rpcCode,
      message: error.message,
      data: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
    },
  },
});

/** The daemon's error shape outside /rpc. */
const plainError = (status: number, code: string, message: string, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: { ok: false, error: message, code },
});

const unauthorized = (): DaemonError =>
  new DaemonError(
    'UNAUTHORIZED',
    'Invalid or missing daemon auth token: send the session token (AGENT_DEVICE_DAEMON_AUTH_TOKEN)',
    401,
    -32001,
  );

function idOf(body: unknown): JsonRpcId {
  const id = isObject(body) ? body.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A tap target: `x y` (numbers), a snapshot ref (`@e12`) or a selector expression. */
function tapTarget(command: Command, positionals: string[]): Record<string, unknown> {
  const [first, second] = positionals;
  if (first === undefined) {
    throw new DaemonError(
      'INVALID_ARGS',
      `${command} needs a target: <x> <y>, @ref or a selector`,
      400,
      -32602,
    );
  }
  if (second !== undefined && /^-?\d+(\.\d+)?$/.test(first) && /^-?\d+(\.\d+)?$/.test(second)) {
    const x = Number(first);
    const y = Number(second);
    if (x < 0 || y < 0)
      throw new DaemonError('INVALID_ARGS', `${command}: coordinates must not be negative`, 400, -32602);
    return { x, y, message: `Tapped (${x}, ${y})` };
  }
  if (first.startsWith('@'))
    return { ref: first.slice(1), x: 100, y: 200, message: `Tapped ${first} (100, 200)` };
  return { selector: first, message: `Tapped ${first}` };
}

function runCommand(
  live: LiveSession,
  state: DaemonState,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const command = params.command;
  if (typeof command !== 'string' || command === '') {
    throw new DaemonError('INVALID_ARGS', 'Invalid params: command is required', 400, -32602);
  }
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new DaemonError(
      'UNSUPPORTED_OPERATION',
      `The simulator's agent-device daemon does not implement "${command}" (it implements ${COMMANDS.join(', ')})`,
      501,
    );
  }
  const { device } = live;
  const name = typeof params.session === 'string' && params.session !== '' ? params.session : 'default';
  const positionals = stringList(params.positionals);
  const meta = isObject(params.meta) ? params.meta : {};
  const identity = {
    platform: device.platform,
    target: 'mobile',
    device: device.name,
    id: device.id,
    kind: device.kind,
    ...(device.platform === 'ios' ? { device_udid: device.id } : { serial: device.id }),
  };
  switch (command as Command) {
    case 'devices':
      return {
        devices: [
          {
            platform: device.platform,
            id: device.id,
            name: device.name,
            kind: device.kind,
            target: 'mobile',
            booted: true,
          },
        ],
      };
    case 'open': {
      const app = positionals[0] ?? null;
      state.openApps.set(name, app);
      return {
        session: name,
        ...identity,
        ...(app ? { appBundleId: app } : {}),
        message: `Opened: ${app ?? name}`,
      };
    }
    case 'close':
      if (!state.openApps.delete(name)) {
        throw new DaemonError('SESSION_NOT_FOUND', `No open agent-device session named "${name}"`, 404);
      }
      return { session: name, message: `Closed: ${name}` };
    case 'screenshot': {
      const artifactId = randomBytes(12).toString('hex');
      state.artifacts.set(artifactId, SCREENSHOT_PNG);
      const paths = isObject(meta.clientArtifactPaths) ? meta.clientArtifactPaths : {};
      const remotePath = `/var/svc/devices/${live.session.id}/screenshot-${artifactId}.png`;
      return {
        path: remotePath,
        artifacts: [
          {
            field: 'path',
            artifactType: 'screenshot',
            artifactId,
            fileName: `screenshot-${artifactId}.png`,
            ...(typeof paths.path === 'string' ? { localPath: paths.path } : {}),
          },
        ],
      };
    }
    case 'press':
    case 'click':
      return tapTarget(command as Command, positionals);
  }
}

function handleRpc(
  live: LiveSession,
  ctx: RequestContext,
  state: DaemonState,
  sessions: SessionManager,
): ApiResponse {
  const body = parseQuietly(ctx.rawBody);
  const id = idOf(body);
  const params = isObject(body) && isObject(body.params) ? body.params : undefined;
  const token = live.config.agentDeviceRemoteSessionToken as string;
  const presented = [
    bearerToken(ctx.headers),
    headerValue(ctx.headers['x-agent-device-token']),
    typeof params?.token === 'string' ? params.token : undefined,
  ];
  if (!credentialsMatch(presented, token)) return rpcError(id, unauthorized());
  if (body === undefined) return rpcError(null, new DaemonError('INVALID_ARGS', 'Parse error', 400, -32700));
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
    return rpcError(id, new DaemonError('INVALID_ARGS', 'Invalid Request', 400, -32600));
  }
  if (!METHODS.has(body.method)) {
    return rpcError(id, new DaemonError('INVALID_ARGS', `Method not found: ${body.method}`, 404, -32601));
  }
  if (!params) return rpcError(id, new DaemonError('INVALID_ARGS', 'Invalid params', 400, -32602));
  sessions.touch(live.session.id);
  try {
    return {
      status: 200,
      body: { jsonrpc: '2.0', id, result: { ok: true, data: runCommand(live, state, params) } },
    };
  } catch (error) {
    if (error instanceof DaemonError) return rpcError(id, error);
    throw error;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function agentDeviceRoutes(sessions: SessionManager): Route[] {
  const states = new PerSession<DaemonState>(sessions, () => ({ openApps: new Map(), artifacts: new Map() }));
  const pattern = controllerPattern('agent-device');

  function handle(ctx: RequestContext, [rawId, rest]: string[]): ApiResponse {
    const gate = openGate(sessions, rawId, 'agent-device');
    const route = rest.replace(/\/+$/, '') || '/';
    const rpc = route === '/rpc' && ctx.method === 'POST';
    if ('refused' in gate) {
      const { status, code, message, headers } = gate.refused;
      const daemonCode = status === 503 ? 'COMMAND_FAILED' : 'SESSION_NOT_FOUND';
      if (rpc) {
        return rpcError(
          idOf(parseQuietly(ctx.rawBody)),
          new DaemonError(daemonCode, message, status),
          headers,
        );
      }
      return plainError(status, code, message, headers);
    }
    const { live } = gate;
    if (rpc) return handleRpc(live, ctx, states.get(live.session.id), sessions);

    const token = live.config.agentDeviceRemoteSessionToken as string;
    const presented = [bearerToken(ctx.headers), headerValue(ctx.headers['x-agent-device-token'])];
    if (!credentialsMatch(presented, token)) {
      const error = unauthorized();
      return plainError(401, error.code, error.message);
    }
    if (ctx.method === 'GET' && route === '/health') {
      return {
        status: 200,
        body: {
          ok: true,
          service: 'agent-device-daemon',
          version: live.session.packageVersion ?? AGENT_DEVICE_DEFAULT_VERSION,
          rpcProtocolVersion: RPC_PROTOCOL_VERSION,
        },
      };
    }
    const artifact = /^\/artifacts\/([^/]+)$/.exec(route);
    if (ctx.method === 'GET' && artifact) {
      sessions.touch(live.session.id);
      const { artifacts } = states.get(live.session.id);
      const bytes = artifacts.get(artifact[1]);
      if (!bytes) {
        const message = `No artifact ${artifact[1]} (each is downloadable once)`;
        return plainError(404, 'ARTIFACT_NOT_FOUND', message);
      }
      artifacts.delete(artifact[1]);
      return { status: 200, body: bytes, headers: { 'content-type': 'image/png' } };
    }
    return plainError(404, 'NOT_FOUND', `The agent-device daemon has no route ${ctx.method} ${route}`);
  }

  return ['GET', 'POST'].map((method) => ({ method, pattern, headers: CONTROLLER_HEADERS, handler: handle }));
}

function parseQuietly(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
