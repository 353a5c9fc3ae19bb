/**
 * run-workflow: dispatch a workflow on a git ref, then (unless `wait: false`) follow the run the way
 * wait-for-run does (action-interface.md).
 */
import * as parse from '../inputs/parsers.js';
import { apiSettings, appId, baseUrl, token, type InputSource } from '../inputs/table.js';
import { eventCommit, isGatedEvent, pullRequestEvent, sameRepository } from '../github/event.js';
import { followRun, sayMergeQueue, setRunOutputs } from '../runs/follow.js';
import { readRun } from '../runs/reading.js';
import { startStatuses, statusPrefix, statusRules } from '../runs/commit-statuses.js';
import { FOLLOW_INPUTS, statusContextAdvice } from '../runs/follow-inputs.js';
import { withOutcome } from '../runs/outcome.js';
import { RUN_OUTPUTS } from '../runs/run-outputs.js';
import { renderRunSummary } from '../runs/report/run-summary.js';
import { checkBeforeDispatch, explainDispatchFailure } from '../runs/dispatch-check.js';
import { dryRun } from '../runs/dry-run.js';
import { defineCommand } from './command.js';
import { hostOf } from '../service/base-url.js';
import { shortHash } from '../github/comment-body.js';
import { stepClock } from '../text/clock.js';

export const runWorkflow = defineCommand({
  description:
    'Dispatch a workflow of the project on a git ref and (unless `wait: false`) follow the run to its end; the step fails unless it succeeded.',
  inputs: {
    token,
    'base-url': baseUrl,
    'app-id': appId,
    workflow: {
      description: 'The workflow file name only, such as `e2e.yml` (a `.yml` or `.yaml` name, no directory).',
      required: true,
      hint: 'the workflow file name, such as `e2e.yml`.',
      parse: parse.workflowFileName,
    },
    'git-ref': {
      description:
        "Branch, tag, commit SHA or full ref to run on. Default: the pull request's head commit on `pull_request` and `pull_request_target` events, the merge queue's commit (`merge_group.head_sha`) on `merge_group`, otherwise `GITHUB_SHA`. " +
        "Quote a ref that reads as a number (`git-ref: '1.10'`): unquoted, the runner's YAML turns it into another (`1.1`).",
      fallback: defaultGitRef,
      required: true,
      hint: 'outside a GitHub event with a commit (no GITHUB_SHA), give a branch, tag or SHA.',
      parse: parse.gitRef,
      advise: parse.gitRefAdvice,
    },
    inputs: {
      description:
        '`workflow_dispatch` inputs as a YAML or JSON mapping of names to strings, numbers or booleans.',
      parse: parse.dispatchInputs,
    },
    wait: {
      description:
        '`false`: return right after the dispatch (status `new`); follow the run later with `wait-for-run`.',
      default: 'true',
      parse: parse.boolean,
    },
    'dry-run': {
      description:
        '`true`: make every check that creates nothing (the inputs; ' +
        'with a checkout of the commit, that the workflow file is there and takes `inputs` and `jobs`; ' +
        'two reads that create nothing, of a run that does not exist (the service answers 404) and of a run by an id that is not a UUID (400), ' +
        'for the address and the token), then stop with outcome `dry-run`: ' +
        "nothing is dispatched. The summary says what only a real dispatch can tell (the project and the token's access to it).",
      default: 'false',
      parse: parse.boolean,
    },
    ...FOLLOW_INPUTS,
  },
  outputs: {
    ...RUN_OUTPUTS,
    'run-id': {
      description: 'The run id, set right after the dispatch, before any waiting.',
      when: 'dispatched',
    },
    'run-url': { ...RUN_OUTPUTS['run-url'], when: 'dispatched' },
    status: {
      description: 'The last status seen (`new` right after a dispatch with `wait: false`).',
      when: 'run-read',
    },
  },
  advice: statusContextAdvice,
  rules: (values, source) => [
    ...(values.wait === false && values.jobs
      ? ['`jobs` has no effect with `wait: false`; remove one of them.']
      : []),
    ...(values.wait === false && values['on-action-required'] === 'fail'
      ? ['`on-action-required: fail` has no effect with `wait: false`; remove one of them.']
      : []),
    // sync-statuses settles what a `wait: false` dispatch leaves pending on the commits it looks at:
    // open pull requests' heads and their merge-queue entries' commits.
    ...(values.wait === false && values['commit-statuses'] && !isGatedEvent(source.env.GITHUB_EVENT_NAME)
      ? [
          '`commit-statuses: true` with `wait: false` needs a `pull_request`, `pull_request_target` or `merge_group` event: sync-statuses settles the statuses it leaves pending on the heads of open pull requests and on their merge-queue commits. Remove `wait: false` (follow the run to its end) or `commit-statuses`.',
        ]
      : []),
    ...statusRules(values),
  ],
  // One sticky comment per dispatch of this workflow with these settings: stable across pushes
  // (the default git-ref, the head commit, is not in the key), apart for two matrix legs.
  // Its heading names the leg by status-context, else by that hash. A dry run, whatever its outcome,
  // writes none: its comment would replace the real gate's.
  comment: (values, source) => {
    const variant = shortHash({
      inputs: values.inputs ?? null,
      appId: values['app-id'],
      gitRef: source.input('git-ref').trim() ? values['git-ref'] : null,
    });
    const context = values['status-context'];
    return {
      kind: 'run-workflow',
      subject: values.workflow,
      variant,
      leg: context ? { statusContext: context } : { settingsHash: variant },
      ...(values['dry-run'] ? { withheld: 'Dry run: no pull request comment was posted.' } : {}),
    };
  },

  run: (values, context) =>
    withOutcome(context.outputs, context.signal, async () => {
      const { io, outputs, signal } = context;
      const api = apiSettings(values);
      const startedAt = stepClock().now();
      const deadline = startedAt + api.timeoutMs;

      const queue = sayMergeQueue(io, values['git-ref']);
      const check = await checkBeforeDispatch(values, context, deadline);
      const client = context.client(api);
      if (values['dry-run']) {
        const said = await dryRun(values, check, {
          io,
          client,
          baseUrl: api.baseUrl,
          appId: values['app-id'],
          deadline,
          signal,
        });
        io.info(
          `Dry run: nothing was dispatched, and nothing was written to GitHub (no commit status, no pull request comment). Checked: ${said.checked.join(' ')} Not checked: ${said.unchecked.join(' ')}`,
        );
        await io.appendSummary(
          renderRunSummary(
            { title: values.workflow, runId: '', runUrl: '', outcome: 'dry-run', dryRun: said },
            io.redact,
          ),
        );
        return 'dry-run';
      }

      io.info(`Dispatching workflow ${values.workflow} on ${values['git-ref']} at ${hostOf(api.baseUrl)}.`);
      const dispatched = await client
        .dispatchWorkflow(
          {
            appId: values['app-id'],
            gitRef: values['git-ref'],
            fileName: values.workflow,
            inputs: values.inputs,
          },
          { deadline, signal },
        )
        .catch((error: unknown) => {
          throw explainDispatchFailure(error, values, check.file);
        });
      const runUrl = dispatched.url ?? '';
      // No status before the read that shows the run's commit (commit-statuses.ts).
      const statuses = values['commit-statuses']
        ? startStatuses(io, {
            githubToken: values['github-token'] ?? '',
            prefix: statusPrefix(values.workflow, values['status-context']),
            serviceRunId: dispatched.id,
          })
        : undefined;
      // Outputs the user can act on (link, cancel) before any waiting.
      outputs.set('run-id', dispatched.id);
      outputs.set('run-url', runUrl);
      io.info(`Dispatched ${values.workflow}: run ${dispatched.id} ${runUrl}`.trimEnd());

      if (!values.wait) {
        outputs.set('status', 'new');
        // With statuses: one read shows the run's commit; its statuses are left for sync-statuses.
        const read = statuses ? await client.getWorkflowRun(dispatched.id, { deadline, signal }) : undefined;
        if (read && statuses) {
          const reading = readRun(read, { onActionRequired: 'wait' });
          setRunOutputs(outputs, io, reading);
          await statuses.leave(reading, { cancelled: signal.aborted });
        }
        io.info(
          `Not waiting for the run (wait: false). Follow it later with the wait-for-run command and run-id: ${dispatched.id}` +
            (statuses ? '; sync-statuses settles its commit statuses.' : '.'),
        );
        await io.appendSummary(
          renderRunSummary(
            {
              title: values.workflow,
              runId: dispatched.id,
              runUrl,
              outcome: 'dispatched',
              gitRef: values['git-ref'],
              queue,
            },
            io.redact,
          ) + (statuses?.summary() ?? ''),
        );
        return 'dispatched';
      }
      return followRun(
        {
          runId: dispatched.id,
          runUrl,
          title: values.workflow,
          jobs: values.jobs,
          onActionRequired: values['on-action-required'],
          dispatched: true,
          queue,
          api,
        },
        { io, outputs, client, signal, statuses },
        { startedAt, firstReadAfterInterval: true },
      );
    }),
});

/**
 * The ref to run on when none is given: the pull request's head commit, otherwise GITHUB_SHA. On
 * `pull_request_target` the step runs with the base repository's secrets: a head from a fork is
 * someone else's code and workflow file, so it is never dispatched by default (the README, "Pull
 * requests from forks").
 */
function defaultGitRef(source: InputSource): string | undefined {
  const event = pullRequestEvent(source);
  if (event?.event === 'pull_request_target' && !sameRepository(event.pullRequest))
    throw new parse.InputProblem(
      `\`git-ref\` is required on \`pull_request_target\` when the pull request comes from another repository (${event.pullRequest?.headRepo || 'unknown'}): ` +
        "this event runs with this repository's secrets, and the default would dispatch the fork's code and workflow file with them. " +
        'Use the `pull_request` event, or give `git-ref` explicitly once the change has been reviewed.',
    );
  return eventCommit(source, event);
}
