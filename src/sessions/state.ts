/**
 * What a main step saves for its post step (GITHUB_STATE → STATE_*), and how the post step reads it:
 * the only module that writes or reads a session's step state (the state-helper pattern of
 * actions/checkout). One list holds every session the step created, in order.
 *
 * The runner builds a post step's environment from the job's env context first (anything a later
 * step appended to $GITHUB_ENV, `STATE_sessions` included) and then sets `STATE_<name>` only for
 * the names the main step saved. So the main step saves every name the post step reads, empty
 * where it has nothing yet, as its very first act (`saveInitialState`), before anything can fail:
 * whatever a later step put into the environment under those names is then replaced by the main
 * step's own value. A post step that finds no `transport` key ran after a main step that saved
 * nothing, and acts on nothing. The same goes for the settings that decide where the post step's
 * requests go and whom they trust (proxies, TLS verification, extra CA certificates) and for the
 * test hooks: the post step uses the main step's, never ones a later step set.
 *
 * Everything saved is bounded: the runner hands state to the post step as environment variables,
 * and Linux refuses one over 128 KiB (E2BIG), which would keep the post step from starting and
 * leave a paid device running. A session's url is kept only when it is an http(s) URL of at most
 * MAX_SAVED_URL characters (its id is all a stop needs); an id, a status or a device time is cut.
 */
import type { ActionIO } from '../runner/io.js';
import { oneLine } from '../text/one-line.js';
import { DEFAULT_POLL_INTERVAL_MS } from '../service/poll.js';
import { STARTUP_ENV, type StartupEnv } from '../runner/startup-env.js';

const STATE = {
  /** Set while a create request is unanswered: if no id follows, a session may exist all the same. */
  createInFlight: 'create-in-flight',
  /** Every session this step created, in order (JSON, `SavedSession[]`). */
  sessions: 'sessions',
  baseUrl: 'base-url',
  appId: 'app-id',
  autoStop: 'auto-stop',
  /** The main step's poll interval, which also paces the post step's retries. */
  pollIntervalMs: 'poll-interval-ms',
  /** The main step's transport settings and test hooks (JSON); present whenever the main step ran. */
  transport: 'transport',
} as const;

/** The most sessions one step may create (start-attempts): each is a paid device. */
export const MAX_SESSIONS = 5;
/** A session page's URL longer than this is not saved: the id alone serves the post step. */
const MAX_SAVED_URL = 2048;
/** Ids are UUIDs (36); a longer one is cut (the post step refuses it all the same). */
const MAX_SAVED_ID = 64;
const MAX_SAVED_WORDS = 80;
/** A base URL or project id longer than this is not one the main step could have used. */
const MAX_SAVED_SETTING = 4096;

/**
 * Variables that change where a request goes or whom it trusts (read by @actions/http-client and
 * Node at request time), and the test hooks that change the post step's timing.
 */
const TRANSPORT_ENV = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  ...STARTUP_ENV,
  'SVC_REQUEST_TIMEOUT_MS',
  'SVC_CANCEL_GRACE_MS',
] as const;

/** One session a main step created, as saved for its post step. */
export interface SavedSession {
  id: string;
  /** Its page, or '' when the service gave none usable (see MAX_SAVED_URL). */
  url: string;
  /** The status the main step saw it end with (confirmed ended): the post step leaves it. */
  ended?: string;
  /** How long its device ran, when it ended during the main step (accounting.ts `deviceTime`). */
  deviceTime?: string;
}

/** What the post step works from: everything its own main step saved. */
export interface PostState {
  sessions: SavedSession[];
  /** When an unanswered create was sent (ISO), or ''. */
  createInFlight: string;
  baseUrl: string;
  appId: string;
  /** false only when the main step said `auto-stop: false`. */
  autoStop: boolean;
  pollIntervalMs: number;
}

/** The main step's first act when its action has a post step: every name the post step reads. */
export function saveInitialState(
  io: Pick<ActionIO, 'saveState'>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  for (const name of Object.values(STATE)) if (name !== STATE.transport) io.saveState(name, '');
  const transport = Object.fromEntries(
    TRANSPORT_ENV.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]),
  );
  io.saveState(STATE.transport, JSON.stringify(transport));
}

/**
 * Puts the main step's transport settings back into this process's environment, so the post step
 * sends the token only the way the main step did. Returns false when the main step saved none
 * (its state cannot be trusted); when a start-up setting differs (it cannot be put back in this
 * process), its name and the main step's start-up settings, for a fresh process to start with.
 */
export function restoreTransport(
  io: Pick<ActionIO, 'getState'>,
  env: NodeJS.ProcessEnv = process.env,
): { saved: boolean; differs?: string; startup?: StartupEnv } {
  const saved = parseJson(io.getState(STATE.transport));
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return { saved: false };
  const record = saved as Record<string, unknown>;
  const value = (name: string): string | undefined =>
    typeof record[name] === 'string' ? record[name] : undefined;
  const differs = STARTUP_ENV.find((name) => env[name] !== value(name));
  if (differs)
    return {
      saved: true,
      differs,
      startup: Object.fromEntries(STARTUP_ENV.map((name) => [name, value(name)])) as StartupEnv,
    };
  for (const name of TRANSPORT_ENV) {
    const main = value(name);
    if (main === undefined) delete env[name];
    else env[name] = main;
  }
  return { saved: true };
}

/**
 * The sessions a start-device-session step creates, as its post step will see them. Made only by a
 * command whose action has a post step: no other command writes post state.
 */
export class SessionLedger {
  private readonly sessions: SavedSession[] = [];

  constructor(private readonly io: Pick<ActionIO, 'saveState'>) {}

  /** Before any create: where the post step stops the sessions, and whether it should. */
  saveSettings(settings: {
    baseUrl: string;
    appId: string;
    autoStop: boolean;
    pollIntervalMs: number;
  }): void {
    this.io.saveState(STATE.baseUrl, settings.baseUrl.slice(0, MAX_SAVED_SETTING));
    this.io.saveState(STATE.appId, settings.appId.slice(0, MAX_SAVED_SETTING));
    this.io.saveState(STATE.autoStop, String(settings.autoStop));
    this.io.saveState(STATE.pollIntervalMs, String(settings.pollIntervalMs));
  }

  /** Saved before the request is sent: a create whose answer never arrives may still have started a session. */
  createSent(at: Date): void {
    this.io.saveState(STATE.createInFlight, at.toISOString());
  }

  /** The create was refused for certain: no session exists, so the post step must not warn that one may. */
  createdNothing(): void {
    this.io.saveState(STATE.createInFlight, '');
  }

  /** The session exists (its id is known): the post step stops it unless it is said to have ended. */
  created(session: { id: string; url?: string | null }): void {
    if (this.sessions.length >= MAX_SESSIONS) return;
    this.sessions.push({ id: session.id.slice(0, MAX_SAVED_ID), url: savedUrl(session.url) });
    this.saveSessions();
    this.io.saveState(STATE.createInFlight, '');
  }

  /** The session was confirmed ended during the main step: the post step leaves it. */
  ended(session: { id: string; status: string }, deviceTime: string): void {
    const saved = this.sessions.find((entry) => entry.id === session.id.slice(0, MAX_SAVED_ID));
    if (!saved) return;
    saved.ended = oneLine(session.status, 40) || 'ended';
    saved.deviceTime = oneLine(deviceTime, MAX_SAVED_WORDS);
    this.saveSessions();
  }

  private saveSessions(): void {
    this.io.saveState(STATE.sessions, JSON.stringify(this.sessions));
  }
}

/** A session's page as saved: an http(s) URL of a sane length, else '' (the id alone is enough to stop it). */
function savedUrl(url: string | null | undefined): string {
  if (!url || url.length > MAX_SAVED_URL || /\s/.test(url)) return '';
  return /^https?:\/\//i.test(url) ? url : '';
}

/** Everything the main step saved for the post step, read back; malformed or oversized parts read as none. */
export function readPostState(io: Pick<ActionIO, 'getState'>): PostState {
  const text = (name: string, max = MAX_SAVED_SETTING): string => io.getState(name).slice(0, max);
  return {
    sessions: readSessions(io.getState(STATE.sessions)),
    createInFlight: text(STATE.createInFlight, 40),
    baseUrl: text(STATE.baseUrl),
    appId: text(STATE.appId),
    autoStop: io.getState(STATE.autoStop) !== 'false',
    pollIntervalMs: Number(io.getState(STATE.pollIntervalMs)) || DEFAULT_POLL_INTERVAL_MS,
  };
}

function readSessions(saved: string): SavedSession[] {
  const parsed = parseJson(saved || '[]');
  if (!Array.isArray(parsed)) return [];
  return parsed.slice(0, MAX_SESSIONS).flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, url, ended, deviceTime } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || !id) return [];
    const words = (value: unknown): string | undefined =>
      typeof value === 'string' && value ? oneLine(value, MAX_SAVED_WORDS) : undefined;
    const session: SavedSession = {
      id: id.slice(0, MAX_SAVED_ID),
      url: savedUrl(typeof url === 'string' ? url : ''),
    };
    if (words(ended)) session.ended = words(ended);
    if (words(deviceTime)) session.deviceTime = words(deviceTime);
    return [session];
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
