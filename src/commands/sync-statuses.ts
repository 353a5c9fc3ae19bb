/**
 * sync-statuses: settles the `pending` commit statuses this action left on the heads of the open
 * pull requests (or on one `commit`), by one read of each run (runs/sync.ts).
 */
import * as parse from '../inputs/parsers.js';
import { apiSettings, baseUrl, githubToken, token } from '../inputs/table.js';
import { gitHubApi, tokenLogin } from '../github/github-api.js';
import { USER_AGENT } from '../runner/service-client.js';
import { REQUEST_TIMEOUT_MS } from '../service/http.js';
import { ActionFailure } from '../errors.js';
import { MAX_GITHUB_REQUESTS, syncStatuses } from '../runs/sync.js';
import { NO_REPOSITORY, UNKNOWN_TOKEN_ACCOUNT, renderSyncSummary } from '../runs/report/sync-summary.js';
import { defineCommand } from './command.js';
import { hostOf } from '../service/base-url.js';
import { stepClock } from '../text/clock.js';

export const syncStatusesCommand = defineCommand({
  description:
    "Settle the `pending` commit statuses this action left (a `wait: false` dispatch's, or any a waiting step could not end) on the open pull requests' head commits, by one read of each run: `success` only for a run of that commit that succeeded.",
  inputs: {
    token,
    'base-url': baseUrl,
    'github-token': {
      ...githubToken,
      description:
        'Token that reads the pull requests and reads and posts the commit statuses (`statuses: write`, `pull-requests: read`). Masked.',
    },
    commit: {
      description:
        "One commit SHA (40 or 64 hexadecimal digits) whose statuses to settle. Default: the head commits of the repository's open pull requests.",
      parse: (value: string, name: string) => {
        if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(value))
          throw new parse.InputProblem(
            `\`${name}\` must be a whole commit SHA (40 or 64 hexadecimal digits), such as \`\${{ github.event.client_payload.gitCommitHash }}\`; got ${parse.shown(value)}.`,
          );
        return value.toLowerCase();
      },
    },
    'max-runs': {
      description: `Runs read from the service per call, at most (a run is read once, whatever number of statuses name it); the rest wait for the next call. GitHub requests are bounded too (${MAX_GITHUB_REQUESTS} a call).`,
      default: '50',
      parse: parse.integer(1, 1000),
    },
  },
  outputs: {
    settled: {
      description: 'How many statuses were settled (set to the state of a run that ended).',
      when: 'synced',
    },
    pending: {
      description:
        'How many statuses were left pending (the run goes on, could not be read now, or max-runs was reached).',
      when: 'synced',
    },
    refused: {
      description:
        'How many statuses were not trusted (another account, a link that is not the run, a run of another commit, a run the token cannot read).',
      when: 'synced',
    },
  },
  rules: (values) =>
    values['github-token']
      ? []
      : ['`github-token` is required (default `${{ github.token }}`, with `statuses: write`).'],

  async run(values, context) {
    const { io, outputs, signal } = context;
    const api = apiSettings({ ...values, 'timeout-minutes': 10 });
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/');
    if (!owner || !repo) throw new ActionFailure(NO_REPOSITORY);
    io.info(
      `Settling this action's pending commit statuses on ${values.commit ? `commit ${values.commit}` : 'the open pull requests'} of ${owner}/${repo}, reading runs at ${hostOf(api.baseUrl)}.`,
    );
    const github = await gitHubApi(values['github-token'] ?? '', USER_AGENT);
    try {
      const login = await tokenLogin(github.octokit, () => ({
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }));
      if (!login) throw new ActionFailure(UNKNOWN_TOKEN_ACCOUNT);
      const report = await syncStatuses(
        io,
        context.client(api),
        { octokit: github.octokit, owner, repo, login },
        {
          commit: values.commit,
          maxRuns: values['max-runs'],
          deadline: stepClock().now() + api.timeoutMs,
          signal,
        },
      );
      outputs.set('settled', String(report.settled.length));
      outputs.set('pending', String(report.pending.length));
      outputs.set('refused', String(report.refused.length));
      for (const entry of report.settled)
        io.info(`Settled \`${entry.context}\` on ${entry.commit}: ${entry.state} (${entry.why}).`);
      for (const entry of report.refused)
        io.info(`Not trusted: \`${entry.context}\` on ${entry.commit}: ${entry.why}.`);
      io.info(
        `Settled ${report.settled.length}, left ${report.pending.length} pending, refused ${report.refused.length}.`,
      );
      if (report.left.length > 0) io.warning(`Left for the next sync-statuses: ${report.left.join('; ')}.`);
      await io.appendSummary(renderSyncSummary(report, io.redact));
    } finally {
      github.dispose();
    }
  },
});
