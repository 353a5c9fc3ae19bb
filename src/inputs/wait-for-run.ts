/** Inputs of `wait-for-run`: follow an existing run by id, exactly as run-workflow follows its own. */
import * as parse from './parsers.js';
import {
  apiSettings,
  baseUrl,
  comment,
  githubToken,
  jobs,
  pollInterval,
  readTable,
  settled,
  timeout,
  token,
  type ApiSettings,
  type CommandSpec,
  type InputSource,
} from './table.js';

/** The outputs of a followed run, shared by run-workflow and wait-for-run. */
export const RUN_OUTPUTS = {
  'run-id': 'The run id (set right after the dispatch, before any waiting).',
  'run-url': "The run's page on the service.",
  status: 'The last status seen.',
  'git-commit-hash': 'The commit the run ran on, once read.',
  jobs: "JSON array of the run's jobs as the service returned them.",
  'build-ids': 'JSON array of the non-null build ids across jobs.',
  'submission-ids': 'JSON array of the non-null submission ids across jobs.',
  'job-outputs': "JSON object: job key → that job's `outputs`.",
};

export const waitForRun = {
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
    'poll-interval-seconds': pollInterval(10),
    'timeout-minutes': timeout(60, 'for the run (or the listed jobs) to end'),
    comment,
    'github-token': githubToken,
  },
  outputs: RUN_OUTPUTS,
} satisfies CommandSpec;

export interface WaitForRunSettings {
  command: 'wait-for-run';
  api: ApiSettings;
  runId: string;
  jobs?: string[];
  comment?: { githubToken: string };
}

export function readWaitForRun(source: InputSource): WaitForRunSettings {
  const { values, problems } = readTable(waitForRun.inputs, source);
  return settled(
    {
      command: 'wait-for-run',
      api: apiSettings(values),
      runId: values['run-id'] ?? '',
      jobs: values.jobs,
      comment: values.comment ? { githubToken: values['github-token'] ?? '' } : undefined,
    },
    problems,
  );
}
