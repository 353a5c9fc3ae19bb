/**
 * The sessions a start-device-session main step saved for its post step (the `sessions` state key,
 * written by src/sessions/state.ts), read back from a run's saved state as the tests check it.
 */
export interface SavedSessionEntry {
  id: string;
  url: string;
  ended?: string;
  deviceTime?: string;
}

/** Every session the step saved, in the order it created them; none when nothing was saved. */
export function savedSessions(run: { state: Record<string, string> }): SavedSessionEntry[] {
  return JSON.parse(run.state.sessions || '[]') as SavedSessionEntry[];
}

/** The session of the step's last create, when its answer came. */
export function lastSavedSession(run: { state: Record<string, string> }): SavedSessionEntry | undefined {
  return savedSessions(run).at(-1);
}
