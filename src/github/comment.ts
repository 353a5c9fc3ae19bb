/**
 * The opt-in pull-request comment (`comment: true` with a `github-token`): one sticky comment per
 * workflow file (run-workflow) or per device session name (start-device-session), found again by a
 * hidden HTML marker it starts with and updated in place on every run, so a pull request never
 * collects a pile of comments. Only a comment that starts with the marker and was written by the
 * token's own identity is ever updated: anyone can copy the marker into a comment of their own (the
 * pull request's author first of all), and another workflow's comment, written by the same
 * GITHUB_TOKEN account, may quote it.
 *
 * What it says comes from the step's outputs: the outcome, the run (or session) with its link and
 * status, the jobs by key, name and status, and links to the GitHub run and its job summary. It
 * carries no free-form text from the service (job errors, messages, commit messages): those may
 * echo a secret that the runner masks in the log and the job summary, whereas nothing scrubs a
 * comment, which is public on a public repository. Why a step failed is in the job summary it links.
 *
 * `@actions/github` (Octokit) is imported only here and only when a comment is posted, so the
 * default path neither loads nor parses it. A comment that cannot be posted is a warning, never a
 * failure: the step's own result is what gates the pull request.
 */
import { readFileSync } from 'node:fs';
import { eventCommit, isPullRequestEvent } from './event.js';
import { credential, InputProblem } from '../inputs/parsers.js';
import { redactDeep, type ActionIO } from './io.js';
import { markdownCode, markdownLink, markdownText } from '../text/markdown.js';
import { status } from '../text/status.js';
import { oneLine } from '../text/plain.js';
import { gitHubApi, type Octokit } from './github-api.js';
import { USER_AGENT } from './service-client.js';

/** GitHub refuses comment bodies longer than 65,536 characters. */
const MAX_BODY = 60_000;
/** Jobs listed in the comment; the job summary has them all. */
const MAX_JOBS = 50;
const REQUEST_TIMEOUT_MS = 30_000;

/** `comment: true` and the token to post the comment with. */
export interface CommentSettings {
  githubToken: string;
}

export interface CommentReport {
  command: 'run-workflow' | 'start-device-session';
  /** What the comment is about, for the marker: the workflow file name or the session name. */
  subject: string;
  /** The step's outputs as it set them (run-id, run-url, status, jobs; session-id, session-url, …). */
  outputs: Record<string, string>;
  /** Whether the step failed. */
  failed: boolean;
  /** From the post step: what it did with the session when the job ended (the comment's new heading). */
  ended?: string;
}

/** An ActionIO that also keeps every output the command sets in `outputs`, for the comment. */
export function recordingOutputs(io: ActionIO, outputs: Record<string, string>): ActionIO {
  return {
    ...io,
    setOutput: (name, value) => {
      outputs[name] = value;
      io.setOutput(name, value);
    },
  };
}

/** The hidden marker that identifies this step's sticky comment: its first line. */
export function commentMarker(report: Pick<CommentReport, 'command' | 'subject'>): string {
  const subject = encodeURIComponent(report.subject).replace(/-/g, '%2D');
  return `<!-- svc-action:comment:${report.command}:${subject} -->`;
}

/** The comment's Markdown: marker, outcome, the run or session, links to the GitHub run. Redacted. */
export function renderComment(
  given: CommentReport,
  io: Pick<ActionIO, 'redact'>,
  env: Record<string, string | undefined> = process.env,
): string {
  // Values first, as the summaries do: rendering changes a secret's characters (a link
  // percent-encodes `(`, `)`, `|`, `\`; Markdown escapes `_`), and then no redaction finds it.
  const report = redactDeep(given, io.redact);
  const what =
    report.command === 'run-workflow'
      ? `Workflow run ${markdownCode(report.subject, 120)}`
      : `Device session ${markdownCode(report.subject, 120)}`;
  const outcome = report.ended
    ? `⏹️ the job ended: the post step ${markdownText(report.ended, 200)}`
    : report.failed
      ? '❌ the step failed'
      : '✅ the step succeeded';
  const lines = [commentMarker(report), `**svc** · ${what}: ${outcome}`, ''];
  lines.push(
    ...(report.command === 'run-workflow' ? runLines(report.outputs) : sessionLines(report.outputs)),
  );
  const run = githubRunUrl(env);
  if (run)
    lines.push(
      `${report.failed ? "Why it failed, with the service's messages" : 'Details'}: the ${markdownLink('job summary', run)}.`,
      '',
    );
  // The pull request's head commit: GITHUB_SHA is the merge commit, which no reviewer knows.
  const sha = eventCommit({ env, input: () => '', readFile: (path) => readFileSync(path, 'utf8') });
  const commit = sha ? ` for commit ${markdownCode(sha.slice(0, 12), 12)}` : '';
  lines.push(
    `<sub>Updated by ${run ? markdownLink(`GitHub workflow run ${env.GITHUB_RUN_ID ?? ''}`, run) : 'GitHub Actions'}${commit}.</sub>`,
  );
  let body = io.redact(lines.join('\n'));
  if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY)}\n\n… (truncated)`;
  return body;
}

/** The run's link and status, then its jobs by name, key and status (never their errors). */
function runLines(outputs: Record<string, string>): string[] {
  const runId = outputs['run-id'] ?? '';
  if (!runId) return [];
  const lines = ['| Run | Status |', '| --- | --- |'];
  lines.push(
    `| ${markdownLink(runId.slice(0, 8), outputs['run-url'])} | ${status(outputs.status || 'new')} |`,
    '',
  );
  const jobs = parseJobs(outputs.jobs);
  if (jobs.length > 0) {
    lines.push('| Job | Status |', '| --- | --- |');
    for (const job of jobs.slice(0, MAX_JOBS)) {
      const name =
        job.name && job.name !== job.key
          ? `${markdownText(job.name, 80)} (${markdownCode(job.key, 60)})`
          : markdownCode(job.key, 60);
      lines.push(`| ${name} | ${status(job.status)} |`);
    }
    if (jobs.length > MAX_JOBS) lines.push(`| … and ${jobs.length - MAX_JOBS} more | |`);
    lines.push('');
  }
  return lines;
}

/** The session's link and status, and its browser preview. */
function sessionLines(outputs: Record<string, string>): string[] {
  const id = outputs['session-id'] ?? '';
  if (!id) return [];
  const lines = ['| Session | Status |', '| --- | --- |'];
  lines.push(
    `| ${markdownLink(id, outputs['session-url'])} | ${outputs.status ? status(outputs.status) : ''} |`,
    '',
  );
  const preview = outputs['web-preview-url'] || outputs['preview-url'];
  if (preview) lines.push(`Browser preview: ${markdownLink('open', preview)}`, '');
  return lines;
}

/** Key, name and status of each job of the `jobs` output; nothing else is read from it. */
function parseJobs(json: string | undefined): Array<{ key: string; name?: string; status: string }> {
  if (!json) return [];
  let jobs: unknown;
  try {
    jobs = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(jobs)) return [];
  return jobs.flatMap((job: unknown) => {
    const { key, name, status } = (typeof job === 'object' && job !== null ? job : {}) as Record<
      string,
      unknown
    >;
    if (typeof key !== 'string' || typeof status !== 'string') return [];
    return [{ key, name: typeof name === 'string' ? name : undefined, status }];
  });
}

/**
 * The GitHub run's page, where its job summaries are: `…/actions/runs/<id>`, and
 * `/attempts/<n>` when the runner says which attempt this is (a re-run keeps the run id).
 */
function githubRunUrl(env: Record<string, string | undefined>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  if (!server || !repo || !runId || !/^https?:\/\//.test(server) || !/^\d+$/.test(runId)) return undefined;
  const attempt =
    env.GITHUB_RUN_ATTEMPT && /^\d+$/.test(env.GITHUB_RUN_ATTEMPT)
      ? `/attempts/${env.GITHUB_RUN_ATTEMPT}`
      : '';
  return `${server.replace(/\/+$/, '')}/${encodeURI(repo)}/actions/runs/${runId}${attempt}`;
}

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
  if (!isPullRequestEvent(event)) {
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
  if (!isCredential(settings.githubToken)) {
    io.warning(
      'comment: true, but `github-token` is not a token (it must be one word of printable ASCII, such as `${{ github.token }}` evaluates to); no comment was posted.',
    );
    return;
  }
  const body = renderComment(report, io, env);
  // The second line of defence: a secret left in the body in any form is never posted.
  if (io.holdsSecret(body)) {
    io.warning(
      'The pull request comment was not posted: its text would carry a secret this step registered (encoded, so no redaction found it). The job summary has the details.',
    );
    return;
  }
  let dispose = (): void => {};
  try {
    const github = await gitHubApi(settings.githubToken, USER_AGENT);
    dispose = github.dispose;
    const { octokit, context } = github;
    const number = (context.payload.pull_request as { number?: unknown } | undefined)?.number;
    if (typeof number !== 'number') {
      io.warning('comment: true, but the event payload has no pull request number; no comment was posted.');
      return;
    }
    const { owner, repo } = context.repo;
    const request = () => ({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    // The body's first line, as rendered from the redacted report.
    const marker = body.slice(0, body.indexOf('\n'));

    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
      request: request(),
    });
    // Only a comment that starts with the marker: one that merely quotes it is someone else's.
    const marked = comments.filter((comment) => comment.body?.startsWith(marker));
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
  } finally {
    dispose();
  }
}

/** The input parsers' rule for a token (one word of printable ASCII), as a test. */
function isCredential(value: string): boolean {
  try {
    credential(value, 'github-token');
    return true;
  } catch (error) {
    if (error instanceof InputProblem) return false;
    throw error;
  }
}
