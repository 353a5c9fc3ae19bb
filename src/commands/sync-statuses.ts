/**
 * sync-statuses: settles the `pending` commit statuses this action left on the heads of the open
 * pull requests (or on one `commit`), by one read of each run (runs/sync.ts).
 */
import * as parse from '../inputs/parsers.js';
import { apiSettings, baseUrl, githubToken, token } from '../inputs/table.js';
import { gitHubApi } from '../github/github-api.js';
import { createClient, USER_AGENT } from '../runner/service-client.js';
import { ActionFailure } from '../errors.js';
import { syncStatuses } from '../runs/sync.js';
import { MAX_QUERIES, MAX_REST } from '../runs/sync-github.js';
import { MAX_UNREADABLE, SYNC_READ_POLICY } from '../runs/sync-runs.js';
import { NO_REPOSITORY, leftForNextCallWarning, renderSyncSummary } from '../runs/report/sync-summary.js';
import { defineCommand } from './command.js';
import { MERGE_GROUP_EVENT } from '../github/event.js';
import { hostOf } from '../service/base-url.js';
import { stepClock } from '../text/clock.js';

export const syncStatusesCommand = defineCommand({
  description:
    "Settle the `pending` commit statuses this action left (a `wait: false` dispatch's, or any a waiting step could not end) on the open pull requests' head commits and their merge-queue commits, by one read of each run: `success` only for a run of that commit that succeeded.",
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
        "One commit SHA (40 or 64 hexadecimal digits) whose statuses to settle. Default: the head commits of the repository's open pull requests and the commits of their merge-queue entries.",
      parse: (value: string, name: string) => {
        if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(value))
          throw new parse.InputProblem(
            `\`${name}\` must be a whole commit SHA (40 or 64 hexadecimal digits), such as a build delivery's \`metadata.gitCommitHash\` (the relay recipe passes \`\${{ steps.delivery.outputs.commit }}\`), or empty for the open pull requests' commits; got ${parse.shown(value)}.`,
          );
        return value.toLowerCase();
      },
    },
    'max-runs': {
      description: `Runs read from the service per call, at most (a run is read once, whatever number of statuses name it); the rest wait for the next call, which starts further on. Runs the token cannot read (403, 404) do not count, and at most ${MAX_UNREADABLE} of them are tried a call. GitHub requests are bounded too (${MAX_QUERIES} GraphQL queries and ${MAX_REST} REST requests a call).`,
      default: '50',
      parse: parse.integer(1, 1000),
    },
  },
  outputs: {
    settled: {
      description: 'How many statuses were settled (set to the state of a run that ended).',
      when: 'started',
    },
    pending: {
      description:
        'How many statuses were left pending: the run goes on, could not be read (the service unreachable, a run `token` cannot read), max-runs or the bound of GitHub requests was reached, or GitHub refused the post.',
      when: 'started',
    },
    refused: {
      description:
        "How many statuses were not trusted: another account's (left alone), and, on what a successful read of the run showed, a link that is not the run's page or a run of another commit (set to `error`).",
      when: 'started',
    },
  },
  rules: (values, source) => [
    ...(values['github-token']
      ? []
      : ['`github-token` is required (default `${{ github.token }}`, with `statuses: write`).']),
    // A merge group's workflow runs as the queue builds the commit, before anything is posted on it.
    ...(source.env.GITHUB_EVENT_NAME === MERGE_GROUP_EVENT
      ? [
          "sync-statuses is not run on `merge_group`: it finds the merge queue's commits itself, as the head commit of each open pull request's merge-queue entry. Run it on `schedule`, the relay's `repository_dispatch` or `workflow_dispatch`, and the gate on `merge_group`.",
        ]
      : []),
  ],

  async run(values, context) {
    const { io, outputs, signal } = context;
    const api = apiSettings({ ...values, 'timeout-minutes': 10 });
    const counts = { settled: 0, pending: 0, refused: 0 };
    // Set on every ending, a failure's included: a workflow reads them to decide what to do next.
    const setOutputs = () => {
      outputs.set('settled', String(counts.settled));
      outputs.set('pending', String(counts.pending));
      outputs.set('refused', String(counts.refused));
    };
    setOutputs();
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/');
    if (!owner || !repo) throw new ActionFailure(NO_REPOSITORY);
    io.info(
      `Settling this action's pending commit statuses on ${values.commit ? `commit ${values.commit}` : 'the open pull requests'} of ${owner}/${repo}, reading runs at ${hostOf(api.baseUrl)}.`,
    );
    const github = await gitHubApi(values['github-token'] ?? '', USER_AGENT);
    const client = createClient(api, io, SYNC_READ_POLICY);
    try {
      const start = stepClock().now();
      const { report, warnings, failure } = await syncStatuses(
        io,
        client,
        { octokit: github.octokit, owner, repo, apiUrl: process.env.GITHUB_API_URL },
        {
          commit: values.commit,
          event: process.env.GITHUB_EVENT_NAME,
          maxRuns: values['max-runs'],
          start,
          deadline: start + api.timeoutMs,
          baseUrl: api.baseUrl,
          signal,
        },
      );
      counts.settled = report.settled.length;
      counts.pending = report.pending.length;
      counts.refused = report.refused.length;
      setOutputs();
      for (const entry of report.settled)
        io.info(`Settled \`${entry.context}\` on ${entry.commit}: ${entry.state} (${entry.why}).`);
      for (const entry of report.refused)
        io.info(`Not trusted: \`${entry.context}\` on ${entry.commit}: ${entry.why}.`);
      io.info(
        `Settled ${report.settled.length}, left ${report.pending.length} pending, refused ${report.refused.length}.`,
      );
      for (const warning of warnings) io.warning(warning);
      if (report.left.length > 0) io.warning(leftForNextCallWarning(report.left));
      await io.appendSummary(renderSyncSummary(report, io.redact));
      if (failure) throw new ActionFailure(failure);
    } finally {
      client.dispose();
      github.dispose();
    }
  },
});
