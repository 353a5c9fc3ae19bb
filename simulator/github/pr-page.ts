/**
 * The pull request as GitHub shows it, close but not identical: the latest status per context on its
 * head commit (GitHub's checks list: state, context, description, details link) and its comments,
 * rendered with markdown-it. Raw HTML in a comment is kept only for the tags GitHub allows (and only
 * their harmless attributes, rebuilt here); HTML comments are hidden; anything else is escaped; images
 * are shown as links (the page loads nothing from elsewhere).
 */
import MarkdownIt from 'markdown-it';
import { escapeHtml, html, Html, link, page, type PageResponse } from '../pages/html.js';
import type { GitHubCount } from './counts.js';
import type { GitHubStandIn, PostedStatus, PullRequest } from './stand-in.js';
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

/** The latest status of each context on `sha` of `repository`, by context. */
export function checksOf(github: GitHubStandIn, repository: string, sha: string): PostedStatus[] {
  // GitHub's checks list: the latest status of each context, compared case-insensitively.
  return latestPerContext(statusesOf(github.statuses, repository, sha).reverse()).sort((a, b) =>
    a.context.localeCompare(b.context),
  );
}

/** What GitHub shows above the checks: failure, pending, success, or no checks. */
export function overallOf(checks: PostedStatus[]): string {
  const states = checks.map((check) => check.state);
  return states.some((s) => s === 'failure' || s === 'error')
    ? 'failure'
    : states.some((s) => s === 'pending')
      ? 'pending'
      : states.length
        ? 'success'
        : 'no checks';
}

/** The checks table: state, context, description, details link, and who posted it (and as what source). */
function checksTable(id: string, checks: PostedStatus[]): Html {
  return html`<table class="list" id="${id}">
    ${checks.map(
      (check) =>
        html`<tr data-context="${check.context}">
          <td class="status status-${check.state.replace(/[^a-z]/g, '')}" data-state="${check.state}">
            ${STATE_ICON[check.state] ?? '?'} ${check.state}
          </td>
          <td><strong>${check.context}</strong></td>
          <td>${check.description ?? ''}</td>
          <td>${check.target_url ? link(check.target_url, 'Details') : ''}</td>
          <td class="posted-by" data-creator="${check.creator?.login ?? ''}">
            ${check.creator?.login ?? ''}${check.source ? ` · ${check.source}` : ''}
          </td>
        </tr>`,
    )}
  </table>`;
}

/** Whether every context the ruleset requires is `success` among `checks`, in words. */
function requiredVerdict(required: string[], checks: PostedStatus[]): { met: boolean; words: string } {
  if (required.length === 0) return { met: false, words: 'The world sets no required contexts.' };
  const states = new Map(checks.map((check) => [check.context.toLowerCase(), check.state]));
  const owed = required.filter((context) => states.get(context.toLowerCase()) !== 'success');
  return owed.length === 0
    ? { met: true, words: `Every required context is success (${required.join(', ')}).` }
    : {
        met: false,
        words: `Required and not success: ${owed.map((context) => `${context} (${states.get(context.toLowerCase()) ?? 'not posted'})`).join(', ')}.`,
      };
}

export function pullRequestPage(github: GitHubStandIn, pr: PullRequest): PageResponse {
  const repository = `${pr.owner}/${pr.repo}`;
  const required = github.settings.requiredContexts;
  const checks = checksOf(github, repository, pr.head);
  const overall = overallOf(checks);
  const queued = pr.queue?.head && checksOf(github, repository, pr.queue.head);
  const queueOverall = queued ? overallOf(queued) : 'no checks';
  const onHead = requiredVerdict(required, checks);
  const inQueue = queued ? requiredVerdict(required, queued) : undefined;
  return page({
    title: `${pr.title} #${pr.number}`,
    refresh: overall === 'pending' || queueOverall === 'pending',
    body: html`<p>${pr.owner}/${pr.repo} · head commit <code>${pr.head}</code></p>
      <h2>Checks: <span data-overall="${overall}">${overall}</span></h2>
      ${checksTable('checks', checks)}
      <p id="required" data-met="${String(onHead.met)}">${onHead.words}</p>
      ${
        pr.queue && queued && inQueue
          ? html`<h2>Merge queue: <span data-queue-overall="${queueOverall}">${queueOverall}</span></h2>
              <p>
                Position ${String(pr.queue.position ?? 1)} · the queue's commit <code>${pr.queue.head}</code>
                ${pr.queue.ref ? html` on <code>${pr.queue.ref}</code>` : ''} (it also holds the entries
                ahead)
              </p>
              ${checksTable('queue-checks', queued)}
              <p id="queue-required" data-met="${String(inQueue.met)}">${inQueue.words}</p>`
          : ''
      }
      <h2>Comments</h2>
      ${github.commentsOn(pr.number, repository).map(
        (comment) =>
          html`<div class="comment" id="issuecomment-${comment.id}">
            <p><strong>${comment.user.login}</strong></p>
            ${renderComment(comment.body)}
          </div>`,
      )}
      <h2>Requests to GitHub for ${repository}</h2>
      ${countsTable(github.counts(repository))}`,
  });
}

/**
 * What reached GitHub, one row per token (and repository, where `repositoryCell` says how to show it):
 * the pull request's page and the simulator's overview show the same counts the same way.
 */
export function countsTable(rows: GitHubCount[], repositoryCell?: (repository: string) => Html): Html {
  return html`<table class="list" id="github-counts">
    <tr>
      ${repositoryCell ? html`<th>Repository</th>` : ''}
      <th>Token</th>
      <th>REST reads</th>
      <th>REST writes</th>
      <th>GraphQL queries</th>
      <th>GraphQL points</th>
      <th>Refused</th>
    </tr>
    ${rows.map(
      (row) =>
        html`<tr data-token="${row.token}">
          ${repositoryCell ? html`<td>${repositoryCell(row.repository)}</td>` : ''}
          <td>${row.token}</td>
          <td>${row.restReads}</td>
          <td>${row.restWrites}</td>
          <td>${row.graphqlRequests}</td>
          <td>${row.graphqlPoints}</td>
          <td>${row.refused}</td>
        </tr>`,
    )}
  </table>`;
}
