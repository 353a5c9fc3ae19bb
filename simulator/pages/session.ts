/**
 * The page of a device session: status, device, times and connection, reloaded until the session
 * ends. The connection's credentials are shown as `***`: the values the action itself masks
 * (`remoteConfigSecrets`: the documented secrets, credential-named fields, credentials in URLs,
 * Appium capabilities' values), so the page shows what a job's log would.
 */
import { SESSION_TERMINAL } from '../../src/service/contract.js';
import { remoteConfigSecrets } from '../../src/sessions/masking.js';
import { deviceOf } from '../controllers/common.js';
import type { ApiResponse } from '../server.js';
import type { DeviceSession } from '../sessions.js';
import { html, link, page, rows, statusBadge } from './html.js';

const TERMINAL: readonly string[] = SESSION_TERMINAL;

/** `text` with every secret replaced by `***`, the longest first (one may contain another). */
function masked(text: string, secrets: readonly string[]): string {
  return [...secrets]
    .sort((a, b) => b.length - a.length)
    .reduce((out, secret) => out.split(secret).join('***'), text);
}

function connection(session: DeviceSession): ReturnType<typeof html> {
  const config = session.remoteConfig;
  if (!config)
    return html`<p id="connection">
      None${TERMINAL.includes(session.status) ? ' any more: the session ended' : ' yet: the session is not ready'}.
    </p>`;
  const secrets = remoteConfigSecrets(config);
  return html`<table class="list" id="connection">
    ${Object.entries(config).map(([field, value]) => {
      const text = masked(typeof value === 'string' ? value : JSON.stringify(value, null, 2), secrets);
      const shown =
        typeof value === 'string'
          ? /^https?:\/\//.test(text)
            ? link(text)
            : html`<code>${text}</code>`
          : html`<pre>${text}</pre>`;
      return html`<tr>
        <th><code>${field}</code></th>
        <td>${shown}</td>
      </tr>`;
    })}
  </table>`;
}

export function sessionPage(session: DeviceSession, deviceIdentifier: string | undefined): ApiResponse {
  const device = deviceOf(session, deviceIdentifier);
  const optional = (label: string, value: string | number | null) =>
    value === null ? [] : ([[label, value]] as const);
  return page({
    title: `Device session ${session.id}`,
    refresh: !TERMINAL.includes(session.status),
    body: html`${rows([
        ['Status', statusBadge(session.status)],
        ...optional('Name', session.name),
        ['Platform', session.platform],
        ['Type', session.type],
        [
          'Device',
          `${device.name} (${device.kind} ${device.id}, ${device.platform === 'ios' ? 'iOS' : 'Android'} ${device.osVersion})`,
        ],
        ...optional('Package version', session.packageVersion),
        ...optional('Build', session.buildId),
        ...optional('Application archive', session.applicationArchiveUrl),
        ['Max duration', `${session.maxDurationMinutes} min`],
        ...optional(
          'Max idle time',
          session.maxIdleTimeMinutes === null ? null : `${session.maxIdleTimeMinutes} min`,
        ),
        ['Created', session.createdAt],
        ...optional('Started', session.startedAt),
        ...optional('Finished', session.finishedAt),
        ['Updated', session.updatedAt],
      ])}
      <h2>Connection</h2>
      ${connection(session)}`,
  });
}
