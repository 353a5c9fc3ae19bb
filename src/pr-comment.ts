/**
 * The opt-in pull-request comment (`comment: true` with a `github-token`): one sticky comment per
 * workflow file (run-workflow) or per device session name (start-device-session), found again by a
 * hidden HTML marker and updated in place on every run, so a pull request never collects a pile of
 * comments. Only a comment written by the token's own identity is ever updated: anyone can copy the
 * marker into a comment of their own (the pull request's author first of all). Its body is the step's job summary (the run's result table, or the session's page and
 * preview links) plus the failure message, all passed through the secret registry.
 *
 * `@actions/github` (Octokit) is imported only here and only when a comment is posted, so the
 * default path neither loads nor parses it. A comment that cannot be posted is a warning, never a
 * failure: the step's own result is what gates the pull request.
 */
import type { ActionIO } from './io.js';
import { markdownCode, markdownLink, markdownText } from './markdown.js';
import { oneLine } from './text.js';

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
/** GitHub refuses comment bodies longer than 65,536 characters. */
const MAX_BODY = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** `comment: true` and the token to post the comment with. */
export interface CommentSettings {
  githubToken: string;
}

export interface CommentReport {
  command: 'run-workflow' | 'start-device-session';
  /** What the comment is about, for the marker: the workflow file name or the session name. */
  subject: string;
  /** Job-summary Markdown the command wrote (already safe Markdown). */
  summaries: string[];
  /** The failure message, when the step failed. */
  failure?: string;
}

/** The hidden marker that identifies this step's sticky comment among all the pull request's comments. */
export function commentMarker(report: Pick<CommentReport, 'command' | 'subject'>): string {
  const subject = encodeURIComponent(report.subject).replace(/-/g, '%2D');
  return `<!-- svc-action:comment:${report.command}:${subject} -->`;
}

/** The comment's Markdown: marker, outcome, the summary, a link back to the GitHub run. Redacted. */
export function renderComment(
  report: CommentReport,
  io: Pick<ActionIO, 'redact'>,
  env: Record<string, string | undefined> = process.env,
): string {
  const what =
    report.command === 'run-workflow'
      ? `Workflow run ${markdownCode(report.subject, 120)}`
      : `Device session ${markdownCode(report.subject, 120)}`;
  const outcome = report.failure ? '❌ the step failed' : '✅ the step succeeded';
  const lines = [commentMarker(report), `**svc** · ${what}: ${outcome}`, ''];
  for (const summary of report.summaries) lines.push(summary.trim(), '');
  if (report.failure) lines.push(`> ${markdownText(report.failure, 2000)}`, '');
  const link = githubRunUrl(env);
  const commit = env.GITHUB_SHA ? ` for commit ${markdownCode(env.GITHUB_SHA.slice(0, 12), 12)}` : '';
  lines.push(
    `<sub>Updated by ${link ? markdownLink(`GitHub workflow run ${env.GITHUB_RUN_ID ?? ''}`, link) : 'GitHub Actions'}${commit}.</sub>`,
  );
  let body = io.redact(lines.join('\n'));
  if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY)}\n\n… (truncated)`;
  return body;
}

function githubRunUrl(env: Record<string, string | undefined>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  if (!server || !repo || !runId || !/^https?:\/\//.test(server) || !/^\d+$/.test(runId)) return undefined;
  return `${server.replace(/\/+$/, '')}/${encodeURI(repo)}/actions/runs/${runId}`;
}

type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

/**
 * The login of the token's own account, from GraphQL's `viewer`: it answers for every kind of token,
 * a personal one (`octocat`) and an installation token such as GITHUB_TOKEN (`github-actions[bot]`),
 * whereas REST `GET /user` refuses installation tokens. Undefined when it cannot be told.
 */
async function tokenLogin(
  octokit: Octokit,
  request: () => { signal: AbortSignal },
): Promise<string | undefined> {
  try {
    const answer = await octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }', {
      request: request(),
    });
    const login = answer.viewer?.login;
    return typeof login === 'string' && login ? login : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a comment's author is the token's account. Logins compare ignoring case, and exactly
 * otherwise: `viewer` names an app's bot as REST does (`github-actions[bot]`), and a user `x` and
 * an app's bot `x[bot]` are different accounts.
 */
function writtenBy(user: { login?: string } | null | undefined, viewer: string): boolean {
  return user?.login?.toLowerCase() === viewer.toLowerCase();
}

/** Creates or updates the sticky comment; skipped (with a notice) outside pull-request events. */
export async function commentOnPullRequest(
  settings: CommentSettings,
  report: CommentReport,
  io: ActionIO,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const event = env.GITHUB_EVENT_NAME ?? '';
  if (!PULL_REQUEST_EVENTS.has(event)) {
    io.notice(
      `comment: true, but this is ${event ? `a \`${oneLine(event, 40)}\` event` : 'not a GitHub event'}, not a pull request; no comment was posted.`,
    );
    return;
  }
  // Outside a pull request the notice above says enough; here the token is needed.
  if (!settings.githubToken) {
    io.warning('comment: true, but there is no github-token (nor GITHUB_TOKEN); no comment was posted.');
    return;
  }
  // Checked only here, where it is used: an unused github-token never fails a step.
  if (!/^[\x21-\x7e]+$/.test(settings.githubToken)) {
    io.warning(
      'comment: true, but `github-token` is not a token (it must be one word of printable ASCII, such as `${{ github.token }}` evaluates to); no comment was posted.',
    );
    return;
  }
  try {
    const github = await import('@actions/github');
    const { context } = github;
    const number = (context.payload.pull_request as { number?: unknown } | undefined)?.number;
    if (typeof number !== 'number') {
      io.warning('comment: true, but the event payload has no pull request number; no comment was posted.');
      return;
    }
    const { owner, repo } = context.repo;
    const octokit = github.getOctokit(settings.githubToken);
    const request = () => ({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const marker = commentMarker(report);
    const body = renderComment(report, io, env);

    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
      request: request(),
    });
    const marked = comments.filter((comment) => comment.body?.includes(marker));
    const login = marked.length > 0 ? await tokenLogin(octokit, request) : undefined;
    const existing = login ? marked.find((comment) => writtenBy(comment.user, login)) : undefined;
    if (marked.length > 0 && !login)
      io.info('Could not tell which account the github-token belongs to; posting a new comment.');
    if (existing) {
      await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: existing.id,
        body,
        request: request(),
      });
      io.info(`Updated the pull request comment: ${existing.html_url}`);
    } else {
      const created = await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body,
        request: request(),
      });
      io.info(`Commented on pull request #${number}: ${created.data.html_url}`);
    }
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    const hint =
      status === 403 || status === 404
        ? ' Give the token `pull-requests: write` (in `permissions:`); pull requests from forks get a read-only token.'
        : '';
    const reason = oneLine(error instanceof Error ? error.message : String(error), 300);
    io.warning(`Could not post the pull request comment: ${reason}.${hint}`);
  }
}
