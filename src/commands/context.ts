import type { ActionIO } from '../io.js';
import type { ServiceClient } from '../service/client.js';

/** What every command that calls the service runs with. */
export interface CommandContext {
  io: ActionIO;
  client: ServiceClient;
  /** Aborted when the runner cancels the step. */
  signal?: AbortSignal;
  now?: () => number;
}

/** The host a step talks to, for the first log line ("… at api.example.com"). */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
