/** wait-for-run: follow an existing run by id, exactly as run-workflow follows the run it dispatched. */
import * as parse from '../inputs/parsers.js';
import { apiSettings, baseUrl, token } from '../inputs/table.js';
import { EVENT_COMMIT_EXPRESSION, eventCommit } from '../github/event.js';
import { followRun, sayMergeQueue } from '../runs/follow.js';
import { FOLLOW_INPUTS, statusContextAdvice } from '../runs/follow-inputs.js';
import { withOutcome } from '../runs/outcome.js';
import { RUN_OUTPUTS } from '../runs/run-outputs.js';
import { defineCommand } from './command.js';
import { startStatuses, statusRules } from '../runs/commit-statuses.js';
import { hostOf } from '../service/base-url.js';
import { stepClock } from '../text/clock.js';

export const waitForRun = defineCommand({
  description:
    'Follow an existing workflow run (dispatched earlier, in another job, or by anyone) to its end, with the same outputs, summary and exit rules as `run-workflow`.',
  inputs: {
    token,
    'base-url': baseUrl,
    'run-id': {
      description: 'The id (UUID) of the run to follow, such as the `run-id` output of `run-workflow`.',
      required: true,
      hint: 'the id of the workflow run, a UUID (the `run-id` output of `run-workflow`).',
      parse: parse.uuid,
    },
    'expected-commit': {
      description:
        'The commit the run must be of (a SHA, or its first 7 or more hexadecimal digits): ' +
        'a run of another commit fails the step on the first read, so a gate cannot pass on a run of other code. ' +
        "Default: the pull request's head commit on `pull_request` and `pull_request_target` events, the merge queue's commit (`merge_group.head_sha`) on `merge_group`, otherwise `GITHUB_SHA` (as `run-workflow`'s `git-ref`). " +
        "`''` accepts a run of any commit.",
      runnerDefault: EVENT_COMMIT_EXPRESSION,
      // Outside the runner (the input not passed at all) the same default, computed.
      fallback: eventCommit,
      blankMeansNone: true,
      parse: parse.commitSha,
    },
    ...FOLLOW_INPUTS,
  },
  outputs: RUN_OUTPUTS,
  // With `comment: true` it also keeps this gate's pull-request comment apart from another's.
  advice: statusContextAdvice,
  rules: (values) => [
    ...(values['commit-statuses'] && !values['status-context']
      ? [
          '`status-context` is required with `commit-statuses: true`: wait-for-run knows no workflow file name to name the statuses after (give one such as `svc/e2e`).',
        ]
      : []),
    ...statusRules(values),
  ],
  // One sticky comment per gate: the GitHub job that waits (and the jobs it waits for), whichever
  // run it follows this time, so a re-run updates it instead of adding another.
  // Two gates of one job (two legs of a matrix) apart by their status-context when set.
  comment: (values, source) => ({
    kind: 'wait-for-run',
    subject: gateName(values.jobs, source.env),
    variant: values['status-context'],
    leg: values['status-context'] ? { statusContext: values['status-context'] } : undefined,
  }),

  run: (values, context) =>
    withOutcome(context.outputs, context.signal, async () => {
      const { io, outputs, signal } = context;
      const api = apiSettings(values);
      const runId = values['run-id'];
      outputs.set('run-id', runId);
      const which = values.jobs ? `jobs ${values.jobs.join(', ')} of ` : '';
      const commit = values['expected-commit'];
      io.info(
        `Following ${which}workflow run ${runId} at ${hostOf(api.baseUrl)}${commit ? `; it must be a run of commit ${commit}` : ''}.`,
      );
      const queue = sayMergeQueue(io, commit);
      const statuses = values['commit-statuses']
        ? startStatuses(io, {
            githubToken: values['github-token'] ?? '',
            prefix: values['status-context'] ?? '',
            serviceRunId: runId,
          })
        : undefined;
      return followRun(
        {
          runId,
          title: `run ${runId}`,
          jobs: values.jobs,
          onActionRequired: values['on-action-required'],
          expectedCommit: commit,
          expectedCommitHint: commit ? mergeOrBaseCommitHint(commit, process.env) : undefined,
          dispatched: false,
          queue,
          api,
        },
        { io, outputs, client: context.client(api), signal, statuses },
        { startedAt: stepClock().now(), firstReadAfterInterval: false },
      );
    }),
});

/** The gate: `<workflow> › <job>` of the GitHub run that waits, and which jobs of the run it waits for. */
function gateName(jobs: string[] | undefined, env: Record<string, string | undefined>): string {
  const job = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(Boolean).join(' › ') || 'wait-for-run';
  return jobs ? `${job} (jobs ${jobs.join(', ')})` : job;
}

/**
 * `expected-commit: ${{ github.sha }}` on a pull-request event: GITHUB_SHA is not the pull request's
 * head there, so no run of the head can match it; says which commit it is and what to give instead.
 */
function mergeOrBaseCommitHint(commit: string, env: Record<string, string | undefined>): string | undefined {
  const sha = env.GITHUB_SHA?.trim().toLowerCase();
  if (!sha || sha !== commit) return undefined;
  const instead =
    "Give `expected-commit: ${{ github.event.pull_request.head.sha }}` (the pull request's head), or leave `expected-commit` out: that is its default.";
  if (env.GITHUB_EVENT_NAME === 'pull_request')
    return `On \`pull_request\`, \`expected-commit\` is \`github.sha\`, the merge commit GitHub made of the pull request and its base branch, which no run of the pull request's head is of. ${instead}`;
  if (env.GITHUB_EVENT_NAME === 'pull_request_target')
    return `On \`pull_request_target\`, \`expected-commit\` is \`github.sha\`, the last commit of the base branch, not the pull request's head. ${instead}`;
  return undefined;
}
