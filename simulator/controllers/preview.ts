/**
 * The browser preview page that `webPreviewUrl` (iOS sessions of the controller types) and
 * `previewUrl` (serve-sim) point to: an HTML page naming the session (id, name, platform, type,
 * device) and its current status, refreshed every few seconds. It answers 200 while the session is
 * `in-progress`; for a session not ready yet 503, for a stopped or errored one 410, still showing the
 * status. Everything shown is HTML-escaped (the session name comes from whoever created it), and the
 * page loads nothing from anywhere (Content-Security-Policy: default-src 'none').
 */
import type { ApiResponse, RequestContext, Route } from '../server.js';
import type { DeviceSession, SessionManager } from '../sessions.js';
import { openGate, type DeviceIdentity } from './common.js';
import { DEVICES_PATH } from './paths.js';
import { escapeHtml, PAGE_HEADERS } from '../pages/html.js';

interface PageOptions {
  /** Show the (placeholder) screen. */
  screen: boolean;
  /** Reload every few seconds, so the status shown stays current (not for an ended session). */
  refresh: boolean;
}

function page(title: string, rows: Array<[string, string]>, note: string, options: PageOptions): string {
  const cells = rows
    .map(([label, text]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(text)}</td></tr>`)
    .join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    options.refresh ? '<meta http-equiv="refresh" content="5">' : '',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;margin:2rem}th{text-align:left;padding-right:1rem}',
    '.screen{width:240px;height:480px;border:8px solid #222;border-radius:24px;background:#eee;margin:1rem 0}</style>',
    '</head><body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<table>${cells}</table>`,
    options.screen ? '<div class="screen" role="img" aria-label="device screen (placeholder)"></div>' : '',
    `<p>${escapeHtml(note)}</p>`,
    '</body></html>',
  ].join('');
}

function sessionRows(session: DeviceSession, device?: DeviceIdentity): Array<[string, string]> {
  return [
    ['Session', session.id],
    ...(session.name !== null ? ([['Name', session.name]] as Array<[string, string]>) : []),
    ['Platform', session.platform],
    ['Type', session.type],
    ...(device ? ([['Device', `${device.name} (${device.id})`]] as Array<[string, string]>) : []),
    ['Status', session.status],
  ];
}

export function previewRoutes(sessions: SessionManager): Route[] {
  function handle(_ctx: RequestContext, [rawId]: string[]): ApiResponse {
    const gate = openGate(sessions, rawId, 'preview');
    if ('refused' in gate) {
      const { status, message, headers, session } = gate.refused;
      const title =
        status === 410 ? 'Device session ended' : status === 503 ? 'Device session starting' : 'No preview';
      const body = page(title, session ? sessionRows(session) : [], message, {
        screen: false,
        refresh: status === 503,
      });
      return { status, headers: { ...PAGE_HEADERS, ...headers }, body };
    }
    const { session, device } = gate.live;
    const body = page(
      `${session.platform === 'ios' ? 'iOS' : 'Android'} device preview`,
      sessionRows(session, device),
      'Simulated device: the screen below is a placeholder.',
      { screen: true, refresh: true },
    );
    return { status: 200, headers: PAGE_HEADERS, body };
  }

  return [{ method: 'GET', pattern: new RegExp(`^${DEVICES_PATH}/([^/]+)/preview/?$`), handler: handle }];
}
