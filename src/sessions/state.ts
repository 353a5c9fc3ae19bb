/**
 * What a main step saves for its post step (GITHUB_STATE → STATE_*), and how the post step reads it.
 *
 * The runner builds a post step's environment from the job's env context first (anything a later
 * step appended to $GITHUB_ENV, `STATE_session-id` included) and then sets `STATE_<name>` only for
 * the names the main step saved. So the main step saves every name the post step reads, empty
 * where it has nothing yet, as its very first act (`saveInitialState`), before anything can fail:
 * whatever a later step put into the environment under those names is then replaced by the main
 * step's own value. A post step that finds no `transport` key ran after a main step that saved
 * nothing, and acts on nothing.
 *
 * The same goes for the settings that decide where the post step's requests go and whom they
 * trust (proxies, TLS verification, extra CA certificates) and for the test hooks: the post step
 * uses the main step's, never ones a later step set.
 */
import type { ActionIO } from '../github/io.js';
import { STARTUP_ENV } from '../github/startup-env.js';

export const STATE = {
  /** Set before the create request is sent: if no id follows, a session may exist all the same. */
  createInFlight: 'create-in-flight',
  /** The session of the last attempt (start-attempts); '' while its create is in flight. */
  sessionId: 'session-id',
  sessionUrl: 'session-url',
  /**
   * Every session this step created, in order (JSON: `[{ id, url, ended? }]`): with `start-attempts`
   * a session that errored is replaced by another, and the post step stops each one not `ended`.
   */
  sessions: 'sessions',
  baseUrl: 'base-url',
  appId: 'app-id',
  autoStop: 'auto-stop',
  /** The last attempt's session already ended during the main step: nothing to stop. */
  stopped: 'stopped',
  /** The main step's poll interval, which also paces the post step's retries. */
  pollIntervalMs: 'poll-interval-ms',
  /** The main step's transport settings and test hooks (JSON); present whenever the main step ran. */
  transport: 'transport',
} as const;

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
 * (its state cannot be trusted), and the name of a setting that differs and cannot be put back.
 */
export function restoreTransport(
  io: Pick<ActionIO, 'getState'>,
  env: NodeJS.ProcessEnv = process.env,
): { saved: boolean; differs?: string } {
  let saved: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(io.getState(STATE.transport));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { saved: false };
    saved = parsed as Record<string, unknown>;
  } catch {
    return { saved: false };
  }
  const value = (name: string): string | undefined =>
    typeof saved[name] === 'string' ? (saved[name] as string) : undefined;
  const differs = STARTUP_ENV.find((name) => env[name] !== value(name));
  if (differs) return { saved: true, differs };
  for (const name of TRANSPORT_ENV) {
    const main = value(name);
    if (main === undefined) delete env[name];
    else env[name] = main;
  }
  return { saved: true };
}

/** One session a main step created, as saved for its post step. */
export interface SavedSession {
  id: string;
  url: string;
  /** The status the main step saw it end with (confirmed ended): the post step leaves it. */
  ended?: string;
}

/** The sessions saved under STATE.sessions; malformed state reads as none. */
export function readSessions(io: Pick<ActionIO, 'getState'>): SavedSession[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(io.getState(STATE.sessions) || '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, url, ended } = entry as Record<string, unknown>;
    if (typeof id !== 'string') return [];
    return [
      {
        id,
        url: typeof url === 'string' ? url : '',
        ...(typeof ended === 'string' && ended ? { ended } : {}),
      },
    ];
  });
}

export function saveSessions(io: Pick<ActionIO, 'saveState'>, sessions: SavedSession[]): void {
  io.saveState(STATE.sessions, JSON.stringify(sessions));
}
