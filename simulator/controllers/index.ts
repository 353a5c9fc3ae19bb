/**
 * The controllers a device session's `remoteConfig` leads to, served by the simulator itself under
 * `/_devices/<sessionId>/...` while that session is `in-progress`: an agent-device daemon, an Appium
 * (W3C WebDriver) endpoint, argent's tool server and the browser preview page. See each module.
 *
 * They are ordinary (non-control) routes: requests to them are recorded in `sim.requests` and faults
 * injected with a matching path apply to them too. A request a controller accepts (with the session's
 * token where it wants one; Appium has none) counts as device activity: it restarts the session's idle
 * timer. A refused request, the daemon's /health and viewing the preview do not.
 */
import type { Route } from '../server.js';
import type { SessionManager } from '../sessions.js';
import { agentDeviceRoutes } from './agent-device.js';
import { appiumRoutes } from './appium.js';
import { argentRoutes } from './argent.js';
import { previewRoutes } from './preview.js';

export { controllerUrls, DEVICES_PATH } from './paths.js';

export function controllerRoutes({ sessions }: { sessions: SessionManager }): Route[] {
  return [
    ...agentDeviceRoutes(sessions),
    ...appiumRoutes(sessions),
    ...argentRoutes(sessions),
    ...previewRoutes(sessions),
  ];
}
