/** wait-for-run: follow an existing run by id, exactly as run-workflow follows the run it dispatched. */
import * as parse from '../inputs/parsers.js';
import {
  apiSettings,
  baseUrl,
  comment,
  githubToken,
  jobs,
  onActionRequired,
  pollInterval,
  timeout,
  token,
} from '../inputs/table.js';
import { RUN_OUTPUTS, followRun, withOutcome } from '../follow-run.js';
import { defineCommand, hostOf } from './command.js';

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
    jobs,
    'on-action-required': onActionRequired,
    'poll-interval-seconds': pollInterval(10),
    'timeout-minutes': timeout(60, 'for the run (or the listed jobs) to end'),
    comment,
    'github-token': githubToken,
  },
  outputs: RUN_OUTPUTS,
  failureOutputs: { outcome: 'failure' },
  // A run's comment (the same layout as run-workflow's), one per run id.
  comment: (values) => ({ kind: 'run-workflow', subject: `run ${values['run-id']}` }),

  run: (values, context) =>
    withOutcome(context.io, context.signal, async () => {
      const { io, signal } = context;
      const api = apiSettings(values);
      const runId = values['run-id'];
      io.setOutput('run-id', runId);
      const which = values.jobs ? `jobs ${values.jobs.join(', ')} of ` : '';
      io.info(`Following ${which}workflow run ${runId} at ${hostOf(api.baseUrl)}.`);
      return followRun(
        {
          runId,
          title: `run ${runId}`,
          jobs: values.jobs,
          onActionRequired: values['on-action-required'],
          dispatched: false,
          api,
        },
        { io, client: context.client(api), signal },
        { startedAt: Date.now(), firstReadAfterInterval: false },
      );
    }),
});
