/**
 * The simulator's `/` for a browser: everything it holds on one read-only page, each thing linked to
 * the page or JSON route that shows it whole: the runs and device sessions (their pages), the
 * webhooks and their delivery attempts (`/_sim/webhooks`, `/_sim/webhook-deliveries`), the GitHub
 * stand-in's pull requests and merge-queue entries (each pull request's page), the requests to the
 * service's API counted per token, and what reached GitHub counted per repository and token (the same
 * counts as the pull request's page). It is rendered from
 * the objects the JSON routes read, at each request, and shows no secret: no token (the counts name a
 * token by its account), no webhook secret or signature, a receiver's address without its user info
 * or query, a session's connection only on its own page (masked there).
 *
 * A JSON client of `/` gets a 404 that names the page and `/_sim/state`, the same state as JSON.
 */
import { isRunTerminal, isSessionTerminal } from '../../src/service/contract.js';
import type { Registry } from '../accounts.js';
import { notFound } from '../errors.js';
import type { GitHubStandIn, PullRequest } from '../github/stand-in.js';
import { checksOf, countsTable, overallOf } from '../github/pr-page.js';
import { safeUrl } from '../log.js';
import type { RecordedRequest, Route } from '../server.js';
import type { SessionManager } from '../sessions.js';
import type { WebhookDispatcher } from '../webhooks/delivery.js';
import type { WorkflowEngine } from '../workflows.js';
import { html, link, page, statusBadge, type PageResponse } from './html.js';

export interface OverviewDeps {
  registry: Registry;
  /** Every request the simulator received (`sim.requests`): the service's are counted per token. */
  requests: readonly RecordedRequest[];
  workflows: WorkflowEngine;
  sessions: SessionManager;
  webhooks: WebhookDispatcher;
  github: GitHubStandIn;
}

/** Where the stand-in serves its pages (GITHUB_PREFIX; not imported: github/index imports the pages). */
const GITHUB_PAGES = '/_github';

/** The path of an address the simulator gave (a run's or a session's `url`): a link that stays on this host. */
function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

const pullRequestPath = (pr: PullRequest): string =>
  `${GITHUB_PAGES}/${encodeURIComponent(pr.owner)}/${encodeURIComponent(pr.repo)}/pull/${pr.number}`;

/** A heading with the JSON route that holds the same things, and a count. */
const heading = (title: string, count: number, json: string | null = null) =>
  html`<h2>${title} (${count})${json ? html` · ${link(json, 'JSON')}` : ''}</h2>`;

const none = (what: string) => html`<p class="note">${what}</p>`;

/** The service's requests (`/v2/…`) per token, each token named by its user and roles, never its value. */
function serviceCounts(
  registry: Registry,
  requests: readonly RecordedRequest[],
): Array<{ token: string; requests: number; refused: number }> {
  const rows = new Map<string, { token: string; requests: number; refused: number }>();
  for (const request of requests) {
    if (!request.path.startsWith('/v2/')) continue;
    const header = request.headers.authorization;
    const actor = registry.actorOf(header);
    const roles = actor
      ? [...actor.roles].map(
          ([account, role]) => `${role} on ${registry.accounts.get(account)?.name ?? account}`,
        )
      : [];
    const token = actor
      ? `${actor.username} (${actor.robot ? 'robot' : 'personal'} token${roles.length ? `, ${roles.join(', ')}` : ', no role'})`
      : header === undefined
        ? 'no token'
        : 'a token the simulator does not know';
    const row = rows.get(token) ?? { token, requests: 0, refused: 0 };
    row.requests++;
    if ((request.status ?? 0) >= 400) row.refused++;
    rows.set(token, row);
  }
  return [...rows.values()];
}

export function overviewPage({
  registry,
  requests,
  workflows,
  sessions,
  webhooks,
  github,
}: OverviewDeps): PageResponse {
  const projectName = (project: { name: string; account: { name: string } } | undefined): string =>
    project ? `${project.account.name}/${project.name}` : '';
  const runs = workflows.list().reverse();
  const sessionList = sessions.list().reverse();
  const hooks = webhooks.list();
  const deliveries = [...webhooks.deliveries].reverse();
  const pullRequests = github.pullRequests;
  const counts = github.counts();
  const service = serviceCounts(registry, requests);

  const runTable = html`<table class="list" id="runs">
    <tr>
      <th>Run</th>
      <th>Status</th>
      <th>Project</th>
      <th>Ref</th>
      <th>Commit</th>
      <th>Jobs</th>
      <th>Created</th>
    </tr>
    ${runs.map(
      (run) =>
        html`<tr data-run="${run.id}">
          <td>${link(pathOf(run.url), run.id)}</td>
          <td>${statusBadge(run.status)}</td>
          <td>${projectName(workflows.projectOf(run.id))}</td>
          <td><code>${run.requestedGitRef}</code></td>
          <td><code>${run.gitCommitHash.slice(0, 12)}</code> ${run.gitCommitMessage}</td>
          <td>${run.jobs.map((job) => html`<code>${job.key}</code> ${statusBadge(job.status)} `)}</td>
          <td>${run.createdAt}</td>
        </tr>`,
    )}
  </table>`;

  const sessionTable = html`<table class="list" id="sessions">
    <tr>
      <th>Session</th>
      <th>Name</th>
      <th>Status</th>
      <th>Platform</th>
      <th>Type</th>
      <th>Project</th>
      <th>Created</th>
    </tr>
    ${sessionList.map(
      (session) =>
        html`<tr data-session="${session.id}">
          <td>${link(pathOf(session.url), session.id)}</td>
          <td>${session.name ?? ''}</td>
          <td>${statusBadge(session.status)}</td>
          <td>${session.platform}</td>
          <td>${session.type}</td>
          <td>${projectName(sessions.projectOf(session.id))}</td>
          <td>${session.createdAt}</td>
        </tr>`,
    )}
  </table>`;

  const webhookTable = html`<table class="list" id="webhooks">
    <tr>
      <th>Webhook</th>
      <th>Event</th>
      <th>Project</th>
      <th>Receiver</th>
    </tr>
    ${hooks.map(
      (hook) =>
        html`<tr data-webhook="${hook.id}">
          <td><code>${hook.id}</code></td>
          <td>${hook.event}</td>
          <td>${projectName(registry.projects.get(hook.projectId))}</td>
          <td><code>${safeUrl(hook.url)}</code></td>
        </tr>`,
    )}
  </table>`;

  const deliveryTable = html`<table class="list" id="deliveries">
    <tr>
      <th>Delivery</th>
      <th>Event</th>
      <th>Attempt</th>
      <th>Receiver</th>
      <th>Answer</th>
      <th>Sent</th>
    </tr>
    ${deliveries.map(
      (attempt) =>
        html`<tr data-delivery="${attempt.deliveryId}" data-acknowledged="${String(attempt.acknowledged)}">
          <td><code>${attempt.deliveryId}</code></td>
          <td>${attempt.event}</td>
          <td>${attempt.attempt}</td>
          <td><code>${safeUrl(attempt.url)}</code></td>
          <td>
            ${attempt.status === null ? `no answer (${attempt.error ?? 'unknown'})` : attempt.status}
            ${attempt.acknowledged ? 'acknowledged' : 'not acknowledged'}
          </td>
          <td>${attempt.sentAt}</td>
        </tr>`,
    )}
  </table>`;

  const pullRequestTable = html`<table class="list" id="pull-requests">
    <tr>
      <th>Pull request</th>
      <th>Repository</th>
      <th>Checks</th>
      <th>Head</th>
      <th>Merge queue</th>
      <th>Comments</th>
    </tr>
    ${pullRequests.map((pr) => {
      const repository = `${pr.owner}/${pr.repo}`;
      const queued = pr.queue?.head ? overallOf(checksOf(github, repository, pr.queue.head)) : null;
      return html`<tr data-pull-request="${repository}#${pr.number}">
        <td>${link(pullRequestPath(pr), `#${pr.number} ${pr.title}`)}</td>
        <td>${repository}</td>
        <td>${statusBadge(overallOf(checksOf(github, repository, pr.head)))}</td>
        <td><code>${pr.head.slice(0, 12)}</code></td>
        <td>
          ${
            pr.queue?.head
              ? html`position ${pr.queue.position ?? 1}, commit
                  <code>${pr.queue.head.slice(0, 12)}</code> ${statusBadge(queued ?? '')}`
              : pr.queue
                ? 'entered, its commit not built yet'
                : ''
          }
        </td>
        <td>${github.commentsOn(pr.number, repository).length}</td>
      </tr>`;
    })}
  </table>`;

  /** A repository's counts lead to a pull request's page of it, which shows them with its checks. */
  const pageOfRepository = (repository: string): string | null => {
    const pr = github.openPullRequests(repository)[0];
    return pr ? pullRequestPath(pr) : null;
  };
  const countTable = countsTable(counts, (repository) => link(pageOfRepository(repository), repository));

  const serviceTable = html`<table class="list" id="service-counts">
    <tr>
      <th>Token</th>
      <th>Requests</th>
      <th>Answered 4xx or 5xx</th>
    </tr>
    ${service.map(
      (row) =>
        html`<tr>
          <td>${row.token}</td>
          <td>${row.requests}</td>
          <td>${row.refused}</td>
        </tr>`,
    )}
  </table>`;

  const underWay =
    runs.some((run) => !isRunTerminal(run)) || sessionList.some((session) => !isSessionTerminal(session));
  return page({
    title: 'svc simulator',
    refresh: underWay,
    body: html`<p>
        Everything this simulator holds; the same state as JSON: ${link('/_sim/state')}. GitHub's stand-in
        answers at <code>${github.url}</code>.
      </p>
      ${heading('Workflow runs', runs.length, '/_sim/state')} ${runs.length ? runTable : none('No run yet.')}
      ${heading('Device sessions', sessionList.length, '/_sim/state')}
      ${sessionList.length ? sessionTable : none('No device session yet.')}
      ${heading('Webhooks', hooks.length, '/_sim/webhooks')}
      ${hooks.length ? webhookTable : none('No webhook registered.')}
      ${heading('Webhook delivery attempts', deliveries.length, '/_sim/webhook-deliveries')}
      ${deliveries.length ? deliveryTable : none('No delivery yet.')}
      ${heading("Requests to the service's API, per token", service.length)}
      ${service.length ? serviceTable : none('No request yet.')}
      ${heading("Pull requests on GitHub's stand-in", pullRequests.length)}
      ${pullRequests.length ? pullRequestTable : none('No pull request open.')}
      ${heading('Requests that reached GitHub, per repository and token', counts.length)}
      ${counts.length ? countTable : none('No request yet.')}`,
  });
}

export function overviewRoutes(deps: OverviewDeps): Route[] {
  return [
    { method: 'GET', pattern: /^\/$/, page: true, handler: () => overviewPage(deps) },
    {
      method: 'GET',
      pattern: /^\/$/,
      handler() {
        throw notFound(
          'GET / is the overview page, for a browser (Accept: text/html); the same state as JSON is at GET /_sim/state',
        );
      },
    },
  ];
}
