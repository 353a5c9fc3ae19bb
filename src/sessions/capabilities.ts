/**
 * How the log shows a session's Appium capabilities: their names, never their values. Any string
 * value of them may be a credential (see masking.ts, which registers them as secrets); the values
 * are in the `capabilities` output and `APPIUM_CAPS`, for the controller.
 */
import { oneLine } from '../text/one-line.js';

/** Names shown, at most; the rest are counted. */
const MAX_NAMES = 100;

/** `platformName, appium:automationName, …` for a log line. */
export function capabilityNames(capabilities: unknown): string {
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities))
    return '(not an object; see the `capabilities` output)';
  const names = Object.keys(capabilities);
  const more = names.length > MAX_NAMES ? ` and ${names.length - MAX_NAMES} more` : '';
  return `${oneLine(names.slice(0, MAX_NAMES).join(', '), 1000)}${more}`;
}
