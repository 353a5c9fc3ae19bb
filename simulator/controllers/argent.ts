/**
 * A stand-in for argent's tool server that an `argent` session's `remoteConfig.toolsUrl` points to
 * (ARGENT_TOOLS_URL), with the shapes argent's client (`@swmansion/argent`) uses:
 *
 * - `GET  <base>/tools`        `{ tools: [{ name, description, inputSchema, alwaysLoad? }] }`
 * - `POST <base>/tools/:name`  the tool's arguments as a JSON object → `{ data: <result> }`; errors
 *   `{ error }` with 400 (invalid arguments), 404 (unknown tool).
 *
 * When the session has a `toolsAuthToken` (ARGENT_AUTH_TOKEN) every route wants
 * `Authorization: Bearer <token>` (401 otherwise), as argent's tool server does; without one (the
 * `omitArgentToken` behaviour) the routes are open, like a tool server started without a token.
 *
 * Tools: list-devices, screenshot, gesture-tap (x and y are fractions of the screen, 0 to 1).
 */
import type { ApiResponse, RequestContext, Route } from '../server.js';
import type { SessionManager } from '../sessions.js';
import {
  bearerToken,
  CONTROLLER_HEADERS,
  credentialsMatch,
  isObject,
  openGate,
  SCREENSHOT_PNG,
  type LiveSession,
} from './common.js';
import { controllerPattern } from './paths.js';

interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  run(live: LiveSession, args: Record<string, unknown>): unknown;
}

class ToolError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const udidSchema = { udid: { type: 'string', description: 'Device id from list-devices' } };

/** The tool's `udid` argument must name this session's device. */
function requireDevice(live: LiveSession, args: Record<string, unknown>): void {
  if (typeof args.udid !== 'string') throw new ToolError(400, 'udid: expected a string (see list-devices)');
  if (args.udid !== live.device.id) throw new ToolError(400, `Unknown device ${JSON.stringify(args.udid)}`);
}

function fraction(args: Record<string, unknown>, key: 'x' | 'y'): number {
  const v = args[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    throw new ToolError(400, `${key}: expected a number from 0 to 1 (a fraction of the screen)`);
  }
  return v;
}

const TOOLS: Tool[] = [
  {
    name: 'list-devices',
    description: 'List the devices of this session. Returns { devices, avds }.',
    inputSchema: { type: 'object', properties: {} },
    run: ({ device }) => ({
      devices: [
        {
          platform: device.platform,
          ...(device.platform === 'ios' ? { udid: device.id } : { serial: device.id }),
          name: device.name,
          kind: device.kind,
          state: device.platform === 'ios' ? 'Booted' : 'device',
          osVersion: device.osVersion,
        },
      ],
      avds: [],
    }),
  },
  {
    name: 'screenshot',
    description: 'Take a screenshot of the device. Returns { mimeType, base64, width, height }.',
    inputSchema: { type: 'object', properties: udidSchema, required: ['udid'] },
    run(live, args) {
      requireDevice(live, args);
      return { mimeType: 'image/png', base64: SCREENSHOT_PNG.toString('base64'), width: 1, height: 1 };
    },
  },
  {
    name: 'gesture-tap',
    description:
      'Tap the screen at x, y (fractions of width and height, 0.0 to 1.0). Returns { tapped, timestampMs }.',
    inputSchema: {
      type: 'object',
      properties: { ...udidSchema, x: { type: 'number' }, y: { type: 'number' } },
      required: ['udid', 'x', 'y'],
    },
    run(live, args) {
      requireDevice(live, args);
      fraction(args, 'x');
      fraction(args, 'y');
      return { tapped: true, timestampMs: Date.now() };
    },
  },
];

const failure = (status: number, error: string, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers,
  body: { error },
});

function callTool(live: LiveSession, name: string, ctx: RequestContext): ApiResponse {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return failure(404, `Tool "${name}" not found`);
  let args: unknown = {};
  if (ctx.rawBody.trim() !== '') {
    try {
      args = JSON.parse(ctx.rawBody);
    } catch {
      return failure(400, 'The body is not valid JSON');
    }
  }
  if (!isObject(args)) return failure(400, 'The tool arguments must be a JSON object');
  try {
    return { status: 200, body: { data: tool.run(live, args) } };
  } catch (error) {
    if (error instanceof ToolError) return failure(error.status, error.message);
    throw error;
  }
}

export function argentRoutes(sessions: SessionManager): Route[] {
  const pattern = controllerPattern('argent');

  function handle(ctx: RequestContext, [rawId, rest]: string[]): ApiResponse {
    const gate = openGate(sessions, rawId, 'argent');
    if ('refused' in gate) {
      const { status, message, headers } = gate.refused;
      return failure(status, message, headers);
    }
    const { live } = gate;
    const token = live.config.toolsAuthToken;
    if (typeof token === 'string' && !credentialsMatch([bearerToken(ctx.headers)], token)) {
      return failure(
        401,
        'Missing or invalid Authorization header: send Authorization: Bearer <ARGENT_AUTH_TOKEN>',
      );
    }
    sessions.touch(live.session.id);
    const route = rest.replace(/\/+$/, '');
    if (ctx.method === 'GET' && route === '/tools') {
      return {
        status: 200,
        body: {
          tools: TOOLS.map(({ name, description, inputSchema }) => ({
            name,
            description,
            inputSchema,
            alwaysLoad: true,
          })),
        },
      };
    }
    const tool = /^\/tools\/([^/]+)$/.exec(route);
    if (ctx.method === 'POST' && tool) return callTool(live, tool[1], ctx);
    return failure(404, `The tool server has no route ${ctx.method} ${route || '/'}`);
  }

  return ['GET', 'POST'].map((method) => ({ method, pattern, headers: CONTROLLER_HEADERS, handler: handle }));
}
