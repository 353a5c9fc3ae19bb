/**
 * What the simulator's stand-in controllers share: where their URLs live, the check that a session's
 * controller may answer at all (the session exists, has that controller, and is `in-progress`), the
 * token check, the simulated device, and a 1x1 PNG for every screenshot.
 *
 * Every controller lives on the simulator's own HTTP server under `/_devices/<sessionId>/<controller>`;
 * `remoteConfigFor` in sessions.ts builds the URLs it hands out with `controllerUrls` (paths.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SESSION_TERMINAL } from '../../src/service/contract.js';
import { isUuid } from '../../src/service/contract.js';
import type { DeviceSession, RemoteConfig, SessionManager } from '../sessions.js';

export type ControllerKind = 'agent-device' | 'appium' | 'argent' | 'preview';

export interface DeviceIdentity {
  platform: 'ios' | 'android';
  /** iOS: a simulator UDID; Android: an emulator serial. */
  id: string;
  name: string;
  kind: 'simulator' | 'emulator';
  osVersion: string;
}

export interface LiveSession {
  session: DeviceSession;
  config: RemoteConfig;
  device: DeviceIdentity;
}

export interface Refusal {
  status: 404 | 410 | 503;
  /** NOT_FOUND, NO_SUCH_CONTROLLER, SESSION_GONE or SESSION_NOT_READY. */
  code: string;
  message: string;
  headers: Record<string, string>;
  /** The session, when it exists (the preview page still shows its status). */
  session?: DeviceSession;
}

export type Gate = { live: LiveSession } | { refused: Refusal };

const TERMINAL: readonly string[] = SESSION_TERMINAL;
const UDID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;

export function deviceOf(session: DeviceSession, deviceIdentifier: string | undefined): DeviceIdentity {
  if (session.platform === 'android') {
    return {
      platform: 'android',
      id: 'emulator-5554',
      name: deviceIdentifier ?? 'pixel_8',
      kind: 'emulator',
      osVersion: '15',
    };
  }
  // deviceIdentifier is a simulator name or a UDID.
  const udid = deviceIdentifier !== undefined && UDID.test(deviceIdentifier) ? deviceIdentifier : undefined;
  return {
    platform: 'ios',
    id: (udid ?? session.jobRunId).toUpperCase(),
    name: udid === undefined && deviceIdentifier !== undefined ? deviceIdentifier : 'iPhone 16',
    kind: 'simulator',
    osVersion: '18.2',
  };
}

function hasController(session: DeviceSession, kind: ControllerKind): boolean {
  // Only iOS sessions have a browser preview (serve-sim is iOS only); serve-sim has no controller.
  return kind === 'preview' ? session.platform === 'ios' : session.type === kind;
}

/**
 * Whether `kind` of session `rawId` may answer now. Refused: an unknown session (404), a session
 * without that controller (404), a stopped or errored session (410), a session not ready yet or whose
 * connection details are not published yet (503 with Retry-After).
 */
export function openGate(sessions: SessionManager, rawId: string, kind: ControllerKind): Gate {
  const session = isUuid(rawId) ? sessions.get(rawId) : undefined;
  const refuse = (status: Refusal['status'], code: string, message: string): Gate => ({
    refused: {
      status,
      code,
      message,
      headers: status === 503 ? { 'retry-after': '1' } : {},
      ...(session ? { session } : {}),
    },
  });
  if (!session) return refuse(404, 'NOT_FOUND', `No device session with id ${rawId} on this service`);
  const what = kind === 'preview' ? 'browser preview' : `${kind} controller`;
  if (!hasController(session, kind)) {
    return refuse(
      404,
      'NO_SUCH_CONTROLLER',
      `Device session ${session.id} is a ${session.platform} ${session.type} session: it has no ${what}`,
    );
  }
  if (TERMINAL.includes(session.status)) {
    return refuse(
      410,
      'SESSION_GONE',
      `Device session ${session.id} is ${session.status}: its device and ${what} are gone`,
    );
  }
  if (session.status !== 'in-progress' || session.remoteConfig === null) {
    return refuse(
      503,
      'SESSION_NOT_READY',
      `Device session ${session.id} is not ready yet (status ${session.status}): poll the session until it is in-progress with its remoteConfig`,
    );
  }
  const device = deviceOf(session, sessions.requestOf(session.id)?.deviceIdentifier);
  return { live: { session, config: session.remoteConfig, device } };
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S.*)$/i.exec(headers.authorization ?? '');
  return match ? match[1].trim() : undefined;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time comparison (of digests, so the length of the secret does not leak either). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** At least one credential was presented, and every one presented is the expected secret. */
export function credentialsMatch(presented: Array<string | undefined>, expected: string): boolean {
  const given = presented.filter((value): value is string => value !== undefined);
  return given.length > 0 && given.every((value) => sameSecret(value, expected));
}

/** Per-session state of one controller, dropped once its session is no longer `in-progress`. */
export class PerSession<T> {
  private readonly byId = new Map<string, T>();

  constructor(
    private readonly sessions: SessionManager,
    private readonly init: () => T,
  ) {}

  get(sessionId: string): T {
    for (const id of this.byId.keys()) {
      if (this.sessions.get(id)?.status !== 'in-progress') this.byId.delete(id);
    }
    let state = this.byId.get(sessionId);
    if (state === undefined) {
      state = this.init();
      this.byId.set(sessionId, state);
    }
    return state;
  }
}

/** A valid 1x1 PNG: what every simulated screenshot shows. */
export const SCREENSHOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Every controller response: nothing cached (they carry live device state and sometimes secrets). */
export const CONTROLLER_HEADERS = { 'cache-control': 'no-store' };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
