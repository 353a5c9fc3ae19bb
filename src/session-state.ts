/**
 * What the start-device-session main step saves for its post step (GITHUB_STATE → STATE_*). The
 * post step trusts none of it blindly: ids are checked as UUIDs and the base URL as http(s) before
 * use. The base URL is saved so that the post step talks to the service the main step used, never
 * to an address a later step put into the environment. None of it is secret.
 */
export const STATE = {
  /** Set before the create request is sent: if no id follows, a session may exist all the same. */
  createInFlight: 'create-in-flight',
  sessionId: 'session-id',
  sessionUrl: 'session-url',
  baseUrl: 'base-url',
  appId: 'app-id',
  autoStop: 'auto-stop',
  /** The session already ended during the main step: nothing to stop. */
  stopped: 'stopped',
  /** The main step's poll interval, which also paces the post step's retries. */
  pollIntervalMs: 'poll-interval-ms',
} as const;
