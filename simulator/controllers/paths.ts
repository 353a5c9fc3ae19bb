/**
 * Where the stand-in controllers live on the simulator's own server: `/_devices/<sessionId>/<controller>`.
 * A leaf module: sessions.ts builds the URLs it hands out from it, and the controllers (which read
 * sessions) match their routes with it, so neither imports the other for these.
 */
export const DEVICES_PATH = '/_devices';

/** The URLs of one session's controllers and browser preview (only some are handed out per type). */
export function controllerUrls(baseUrl: string, sessionId: string) {
  const base = `${baseUrl}${DEVICES_PATH}/${sessionId}`;
  return {
    agentDevice: `${base}/agent-device`,
    argent: `${base}/argent`,
    appium: `${base}/appium`,
    preview: `${base}/preview`,
  };
}

/** A route pattern for one controller: group 1 is the session id, group 2 the rest of the path ('' or '/...'). */
export const controllerPattern = (name: string): RegExp =>
  new RegExp(`^${DEVICES_PATH}/([^/]+)/${name}(/.*|)$`);
