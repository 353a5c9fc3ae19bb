/**
 * A stand-in for the Appium server that an `appium` session's `remoteConfig.appiumUrl` points to: the
 * W3C WebDriver protocol, enough for a client (webdriverio, the Appium clients) to create a session
 * with `remoteConfig.capabilities`, take a screenshot, tap, and delete the session.
 *
 * - `GET    <base>/status`                      `{ value: { ready, message, build } }`
 * - `POST   <base>/session`                     `{ capabilities: { alwaysMatch, firstMatch } }` →
 *   `{ value: { sessionId, capabilities } }`; one WebDriver session per device at a time
 * - `DELETE <base>/session/:id`                 `{ value: null }`
 * - `GET    <base>/session/:id/screenshot`      `{ value: <base64 PNG> }`
 * - `GET    <base>/session/:id/source`          `{ value: <XML of the screen> }`, the page source as
 *   UiAutomator2 (Android) or XCUITest (iOS) writes it, for a screen with one button
 * - `POST   <base>/session/:id/actions`         W3C actions (a tap is a pointer move, down, up)
 * - `DELETE <base>/session/:id/actions`         releases them
 *
 * Errors are W3C error objects `{ value: { error, message, stacktrace } }`: `invalid session id`
 * (404) for an unknown or deleted WebDriver session, `unknown command` (404) for anything else,
 * `invalid argument` (400), `session not created` (500). The spec gives the Appium endpoint no token.
 */
import { randomUUID } from 'node:crypto';
import type { ApiResponse, RequestContext, Route } from '../server.js';
import type { SessionManager } from '../sessions.js';
import {
  CONTROLLER_HEADERS,
  isObject,
  openGate,
  PerSession,
  SCREENSHOT_PNG,
  type DeviceIdentity,
  type LiveSession,
} from './common.js';
import { controllerPattern } from './paths.js';

export const APPIUM_VERSION = '2.19.0';

/** Capabilities W3C defines; any other must carry a vendor prefix (`appium:`). */
const STANDARD_CAPABILITIES = new Set([
  'browserName',
  'browserVersion',
  'platformName',
  'acceptInsecureCerts',
  'pageLoadStrategy',
  'proxy',
  'setWindowRect',
  'timeouts',
  'strictFileInteractability',
  'unhandledPromptBehavior',
  'webSocketUrl',
]);

const AUTOMATION: Record<DeviceIdentity['platform'], { platformName: string; automation: string[] }> = {
  ios: { platformName: 'iOS', automation: ['xcuitest'] },
  android: { platformName: 'Android', automation: ['uiautomator2', 'espresso'] },
};

interface AppiumState {
  /** The WebDriver session on this device, if one is open. */
  current?: { id: string; capabilities: Record<string, unknown> };
  /** WebDriver sessions deleted already (so a late command gets `invalid session id`). */
  ended: Set<string>;
}

class W3cError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const w3cError = (status: number, error: string, message: string, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: { value: { error, message, stacktrace: '' } },
});

const value = (v: unknown): ApiResponse => ({ status: 200, body: { value: v } });

/** W3C "processing capabilities": alwaysMatch merged with each firstMatch, the first this device satisfies. */
function matchCapabilities(body: unknown, device: DeviceIdentity): Record<string, unknown> {
  const invalid = (message: string) => new W3cError(400, 'invalid argument', message);
  if (!isObject(body) || !isObject(body.capabilities)) {
    throw invalid('The body must be a JSON object with a "capabilities" object');
  }
  const { alwaysMatch = {}, firstMatch = [{}] } = body.capabilities;
  if (!isObject(alwaysMatch)) throw invalid('capabilities.alwaysMatch must be an object');
  if (!Array.isArray(firstMatch) || firstMatch.length === 0 || !firstMatch.every(isObject)) {
    throw invalid('capabilities.firstMatch must be a non-empty array of objects');
  }
  const expected = AUTOMATION[device.platform];
  const reasons: string[] = [];
  for (const first of firstMatch) {
    const overlap = Object.keys(first).filter((key) => key in alwaysMatch);
    if (overlap.length > 0)
      throw invalid(`firstMatch repeats alwaysMatch capabilities: ${overlap.join(', ')}`);
    const merged: Record<string, unknown> = { ...alwaysMatch, ...first };
    for (const key of Object.keys(merged)) {
      if (!STANDARD_CAPABILITIES.has(key) && !key.includes(':')) {
        throw invalid(`"${key}" is not a W3C capability: use a vendor prefix (appium:${key})`);
      }
    }
    const platform = merged.platformName;
    const automation = merged['appium:automationName'];
    if (typeof platform !== 'string' || platform.toLowerCase() !== expected.platformName.toLowerCase()) {
      reasons.push(`platformName ${JSON.stringify(platform)} is not ${expected.platformName}`);
    } else if (
      automation !== undefined &&
      (typeof automation !== 'string' || !expected.automation.includes(automation.toLowerCase()))
    ) {
      reasons.push(
        `appium:automationName ${JSON.stringify(automation)} cannot drive an ${expected.platformName} device`,
      );
    } else return merged;
  }
  throw new W3cError(
    500,
    'session not created',
    `No capabilities match this ${expected.platformName} ${device.kind} (${device.name}): ${reasons.join('; ')}`,
  );
}

function createSession(live: LiveSession, state: AppiumState, ctx: RequestContext): ApiResponse {
  let body: unknown;
  try {
    body = JSON.parse(ctx.rawBody);
  } catch {
    throw new W3cError(400, 'invalid argument', 'The body is not valid JSON');
  }
  const merged = matchCapabilities(body, live.device);
  if (state.current) {
    throw new W3cError(
      500,
      'session not created',
      `A WebDriver session (${state.current.id}) is already running on this device: delete it first`,
    );
  }
  const { device } = live;
  const capabilities: Record<string, unknown> = {
    ...merged,
    platformName: AUTOMATION[device.platform].platformName,
    'appium:deviceName': merged['appium:deviceName'] ?? device.name,
    'appium:platformVersion': merged['appium:platformVersion'] ?? device.osVersion,
    'appium:udid': device.id,
  };
  state.current = { id: randomUUID(), capabilities };
  return value({ sessionId: state.current.id, capabilities });
}

function checkActions(ctx: RequestContext): void {
  let body: unknown;
  try {
    body = JSON.parse(ctx.rawBody);
  } catch {
    body = undefined;
  }
  if (!isObject(body) || !Array.isArray(body.actions) || !body.actions.every(isObject)) {
    throw new W3cError(400, 'invalid argument', 'The body must be { "actions": [ ... ] }');
  }
}

/** The page source of the simulated screen (one button), in the shape the platform's Appium driver gives. */
function pageSource(device: DeviceIdentity): string {
  return device.platform === 'android'
    ? '<?xml version="1.0" encoding="UTF-8"?><hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">' +
        '<android.widget.FrameLayout index="0" package="com.example.app" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">' +
        '<android.widget.Button index="0" package="com.example.app" class="android.widget.Button" text="Continue" resource-id="com.example.app:id/continue" clickable="true" bounds="[340,1100][740,1240]" />' +
        '</android.widget.FrameLayout></hierarchy>'
    : '<?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Example" label="Example" enabled="true" visible="true" x="0" y="0" width="393" height="852">' +
        '<XCUIElementTypeButton type="XCUIElementTypeButton" name="Continue" label="Continue" enabled="true" visible="true" x="120" y="400" width="153" height="44"/>' +
        '</XCUIElementTypeApplication></AppiumAUT>';
}

function sessionCommand(
  state: AppiumState,
  ctx: RequestContext,
  sid: string,
  command: string,
  device: DeviceIdentity,
): ApiResponse {
  if (state.current?.id !== sid) {
    const why = state.ended.has(sid) ? 'was deleted' : 'is unknown';
    throw new W3cError(404, 'invalid session id', `WebDriver session ${sid} ${why}`);
  }
  const call = `${ctx.method} ${command}`;
  switch (call) {
    case 'DELETE ':
      state.ended.add(sid);
      state.current = undefined;
      return value(null);
    case 'GET /screenshot':
      return value(SCREENSHOT_PNG.toString('base64'));
    case 'GET /source':
      return value(pageSource(device));
    case 'POST /actions':
      checkActions(ctx);
      return value(null);
    case 'DELETE /actions':
      return value(null);
  }
  throw new W3cError(
    404,
    'unknown command',
    `The simulator's Appium endpoint does not implement ${ctx.method} /session/:sessionId${command}`,
  );
}

export function appiumRoutes(sessions: SessionManager): Route[] {
  const states = new PerSession<AppiumState>(sessions, () => ({ ended: new Set() }));
  const pattern = controllerPattern('appium');

  function handle(ctx: RequestContext, [rawId, rest]: string[]): ApiResponse {
    const gate = openGate(sessions, rawId, 'appium');
    if ('refused' in gate) {
      const { status, message, headers } = gate.refused;
      return w3cError(status, status === 404 ? 'unknown command' : 'unknown error', message, headers);
    }
    const { live } = gate;
    sessions.touch(live.session.id);
    const state = states.get(live.session.id);
    const route = rest.replace(/\/+$/, '');
    try {
      if (ctx.method === 'GET' && route === '/status') {
        return value({
          ready: state.current === undefined,
          message: state.current ? 'A WebDriver session is running on this device' : 'The device is ready',
          build: { version: APPIUM_VERSION },
        });
      }
      if (ctx.method === 'POST' && route === '/session') return createSession(live, state, ctx);
      const session = /^\/session\/([^/]+)(\/.*|)$/.exec(route);
      if (session) return sessionCommand(state, ctx, session[1], session[2], live.device);
      throw new W3cError(
        404,
        'unknown command',
        `The Appium endpoint has no command ${ctx.method} ${route || '/'}`,
      );
    } catch (error) {
      if (error instanceof W3cError) return w3cError(error.status, error.error, error.message);
      throw error;
    }
  }

  return ['GET', 'POST', 'DELETE'].map((method) => ({
    method,
    pattern,
    headers: CONTROLLER_HEADERS,
    handler: handle,
  }));
}
