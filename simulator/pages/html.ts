/**
 * HTML for the pages people open from the links the action prints: every value is escaped unless it
 * is markup this module made (`html` below), and a page loads nothing from anywhere (its one style
 * sheet is inline, it has no script; Content-Security-Policy says so to the browser), so it works
 * offline and cannot be made to fetch or run something by a value it shows.
 */
import type { ApiError } from '../errors.js';

/** A page as the server sends it (an ApiResponse; not imported: the server imports this module). */
export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** Markup made here: inserted as it is by `html`. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** A template whose every value is escaped, except markup made by `html` itself. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return new Html(
    strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]) : ''), ''),
  );
}

/** A link to an http(s) URL or a path of this simulator; anything else (`javascript:`) is shown as text. */
export function link(url: string | null | undefined, text: string = url ?? ''): Html {
  if (!url) return html``;
  return /^(https?:\/\/|\/(?!\/))/i.test(url) ? html`<a href="${url}">${text}</a>` : html`${text}`;
}

/** Every page's headers: nothing loaded from elsewhere, no framing, not cached. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** How often a page of something still under way reloads itself (a meta refresh: no script). */
export const REFRESH_SECONDS = 1;

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem;color:#1f2328}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse}th,td{text-align:left;padding:.3rem .8rem .3rem 0;vertical-align:top}
table.list th,table.list td{border-bottom:1px solid #d0d7de}
.status{font-weight:600;padding:.05rem .45rem;border-radius:1rem;background:#eaeef2}
.status-success,.status-finished{background:#dafbe1;color:#1a7f37}
.status-failure,.status-errored{background:#ffebe9;color:#cf222e}
.status-in-progress,.status-new,.status-action-required,.status-pending-cancel,.status-pending{background:#fff8c5;color:#9a6700}
code,pre{font-family:ui-monospace,monospace}pre{background:#f6f8fa;padding:.5rem;overflow:auto}
.note{color:#59636e}`;

/** A status as a badge (its words as they are, a class per status for the colour). */
export const statusBadge = (status: string): Html =>
  html`<span class="status status-${status.replace(/[^a-z-]/g, '')}" data-status="${status}"
    >${status}</span
  >`;

/** Label and value rows. */
export function rows(entries: ReadonlyArray<readonly [string, Value]>): Html {
  return html`<table class="fields">
    ${entries.map(
      ([label, value]) =>
        html`<tr>
          <th>${label}</th>
          <td>${value}</td>
        </tr>`,
    )}
  </table>`;
}

export interface PageOptions {
  title: string;
  body: Html;
  /** Reload every REFRESH_SECONDS: the thing shown is still under way. */
  refresh?: boolean;
  status?: number;
}

export function page({ title, body, refresh = false, status = 200 }: PageOptions): PageResponse {
  const document = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        ${refresh ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}" />` : ''}
        <title>${title}</title>
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <h1>${title}</h1>
        ${body}
        <p class="note">
          A page of the svc simulator,
          read-only${refresh ? `, reloaded every ${REFRESH_SECONDS} s while under way` : ''}.
        </p>
      </body>
    </html>`;
  return { status, headers: PAGE_HEADERS, body: document.markup };
}

/** The page of an error: its status, and the message the JSON answer would carry. */
export function errorPage(error: ApiError): PageResponse {
  const title = error.status === 404 ? 'Not found' : error.status === 400 ? 'Bad request' : 'Refused';
  return page({
    title: `${title} (${error.status})`,
    status: error.status,
    body: html`${error.entries.map((entry) => html`<p><code>${entry.code}</code> ${entry.message}</p>`)}`,
  });
}

/** Whether the client asks for a page (a browser's Accept names text/html). */
export const wantsHtml = (accept: string | undefined): boolean =>
  /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept ?? '');
