/**
 * The pull request as GitHub shows it, close but not identical: the latest status per context on its
 * head commit (GitHub's checks list: state, context, description, details link) and its comments,
 * rendered with markdown-it. Raw HTML in a comment is kept only for the tags GitHub allows (and only
 * their harmless attributes, rebuilt here); HTML comments are hidden; anything else is escaped; images
 * are shown as links (the page loads nothing from elsewhere).
 */
import MarkdownIt from 'markdown-it';
import { escapeHtml, html, Html, link, page, type PageResponse } from '../pages/html.js';
import type { GitHubStandIn, PullRequest } from './stand-in.js';
import { latestPerContext, statusesOf } from './statuses.js';

/** Tags GitHub keeps in rendered Markdown (a subset of its allowlist; no media, no forms). */
const ALLOWED = new Set(
  'a b blockquote br code dd del details div dl dt em h1 h2 h3 h4 h5 h6 hr i ins kbd li ol p pre q s samp strike strong sub summary sup table tbody td tfoot th thead tr tt ul var'.split(
    ' ',
  ),
);
const ATTRIBUTES: Record<string, string[]> = { a: ['href', 'title'], details: ['open'], '*': ['align'] };

/** One raw HTML tag rebuilt from what is allowed of it, or null (then it is shown escaped). */
function allowedTag(tag: string): string | null {
  const match = /^<(\/?)([a-z][a-z0-9]*)\b([^>]*?)(\/?)>$/i.exec(tag);
  if (!match) return null;
  const [, closing, rawName, attrs] = match;
  const name = rawName.toLowerCase();
  if (!ALLOWED.has(name)) return null;
  if (closing) return `</${name}>`;
  const kept: string[] = [];
  for (const [, attr, dq, sq, bare] of attrs.matchAll(
    /([a-z][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/gi,
  )) {
    const key = attr.toLowerCase();
    if (![...(ATTRIBUTES[name] ?? []), ...ATTRIBUTES['*']].includes(key)) continue;
    const value = dq ?? sq ?? bare ?? '';
    if (key === 'href' && !/^(https?:\/\/|#|\/(?!\/))/i.test(value)) continue;
    kept.push(value === '' && key === 'open' ? ' open' : ` ${key}="${escapeHtml(value)}"`);
  }
  return `<${name}${kept.join('')}>`;
}

/** Raw HTML as GitHub would keep it: comments dropped, allowed tags rebuilt, everything else escaped. */
function filterHtml(raw: string): string {
  return raw
    .split(/(<!--[\s\S]*?(?:-->|$)|<\/?[a-z][^<>]*>)/gi)
    .map((piece, i) => {
      if (i % 2 === 0) return escapeHtml(piece);
      if (piece.startsWith('<!--')) return '';
      return allowedTag(piece) ?? escapeHtml(piece);
    })
    .join('');
}

const markdown = new MarkdownIt({ html: true, linkify: true });
markdown.renderer.rules.html_block = (tokens, i) => filterHtml(tokens[i].content);
markdown.renderer.rules.html_inline = (tokens, i) => filterHtml(tokens[i].content);
markdown.renderer.rules.image = (tokens, i) => {
  const src = String(tokens[i].attrGet('src') ?? '');
  return `<a href="${escapeHtml(/^https?:\/\//i.test(src) ? src : '#')}">${escapeHtml(String(tokens[i].content || 'image'))}</a>`;
};

/** A comment's Markdown as HTML, as GitHub would render it (close, not identical). */
export const renderComment = (body: string): Html => new Html(markdown.render(body));

const STATE_ICON: Record<string, string> = { success: '✓', failure: '✗', error: '✗', pending: '●' };

export function pullRequestPage(github: GitHubStandIn, pr: PullRequest): PageResponse {
  // GitHub's checks list: the latest status of each context, compared case-insensitively.
  const repository = `${pr.owner}/${pr.repo}`;
  const checks = latestPerContext(statusesOf(github.statuses, repository, pr.head).reverse()).sort((a, b) =>
    a.context.localeCompare(b.context),
  );
  const states = checks.map((check) => check.state);
  const overall = states.some((s) => s === 'failure' || s === 'error')
    ? 'failure'
    : states.some((s) => s === 'pending')
      ? 'pending'
      : states.length
        ? 'success'
        : 'no checks';
  return page({
    title: `${pr.title} #${pr.number}`,
    refresh: overall === 'pending',
    body: html`<p>${pr.owner}/${pr.repo} · head commit <code>${pr.head}</code></p>
      <h2>Checks: <span data-overall="${overall}">${overall}</span></h2>
      <table class="list" id="checks">
        ${checks.map(
          (check) =>
            html`<tr data-context="${check.context}">
              <td class="status status-${check.state.replace(/[^a-z]/g, '')}" data-state="${check.state}">
                ${STATE_ICON[check.state] ?? '?'} ${check.state}
              </td>
              <td><strong>${check.context}</strong></td>
              <td>${check.description ?? ''}</td>
              <td>${check.target_url ? link(check.target_url, 'Details') : ''}</td>
            </tr>`,
        )}
      </table>
      <h2>Comments</h2>
      ${github.commentsOn(pr.number, repository).map(
        (comment) =>
          html`<div class="comment" id="comment-${comment.id}">
            <p><strong>${comment.user.login}</strong></p>
            ${renderComment(comment.body)}
          </div>`,
      )}
      <h2>Requests to GitHub for ${repository}</h2>
      <table class="list" id="github-counts">
        <tr>
          <th>Token</th>
          <th>REST reads</th>
          <th>REST writes</th>
          <th>GraphQL queries</th>
          <th>GraphQL points</th>
          <th>Refused</th>
        </tr>
        ${github.counts(repository).map(
          (row) =>
            html`<tr data-token="${row.token}">
              <td>${row.token}</td>
              <td>${row.restReads}</td>
              <td>${row.restWrites}</td>
              <td>${row.graphqlRequests}</td>
              <td>${row.graphqlPoints}</td>
              <td>${row.refused}</td>
            </tr>`,
        )}
      </table>`,
  });
}
