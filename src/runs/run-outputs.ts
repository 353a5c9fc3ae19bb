/**
 * The outputs of a followed run, shared by run-workflow and wait-for-run, and the bound of the outputs
 * of its jobs.
 */
import type { OutputTable } from '../runner/outputs.js';
import { OUTCOMES, OUTCOME_MEANINGS, type Outcome } from './outcome.js';

/**
 * The step's outputs of jobs together stay under this many bytes (follow.ts's setRunOutputs): GitHub
 * keeps 1 MB of outputs per job (every step's together), and a run of thousands of jobs would take
 * all of it, or more.
 */
export const JOB_OUTPUTS_BOUND = 512 * 1024;

/** What each output of jobs says of its bound. */
const BOUND =
  `Bounded: \`jobs\`, \`job-outputs\`, \`build-ids\`, \`submission-ids\` and \`failed-jobs\` together stay under ${JOB_OUTPUTS_BOUND / 1024} KiB ` +
  '(GitHub keeps 1 MB of outputs per job); a run too large for that gets the first jobs in pipeline order ' +
  '(the followed jobs first) and a warning that says how many were left out.';

/** The outputs of a followed run, shared by run-workflow and wait-for-run. */
export const RUN_OUTPUTS = {
  'run-id': { description: 'The id of the run followed.', when: 'started' },
  'run-url': { description: "The run's page on the service.", when: 'run-read' },
  status: { description: 'The last status seen.', when: 'run-read' },
  'git-commit-hash': { description: 'The commit the run ran on, once read.', when: 'run-read' },
  jobs: {
    description: "JSON array of the run's jobs as the service returned them, in its order. " + BOUND,
    when: 'run-read',
  },
  'failed-jobs': {
    description:
      'Keys of the jobs that did not succeed (`failure`, `canceled`, `skipped`), comma-separated, in the order of the run; with `jobs`, among the listed ones. Empty when none. ' +
      BOUND,
    when: 'run-read',
  },
  'build-ids': {
    description: 'JSON array of the non-null build ids across jobs. ' + BOUND,
    when: 'run-read',
  },
  'submission-ids': {
    description: 'JSON array of the non-null submission ids across jobs. ' + BOUND,
    when: 'run-read',
  },
  'job-outputs': { description: "JSON object: job key → that job's `outputs`. " + BOUND, when: 'run-read' },
  outcome: {
    description: `How the step ended, set on every path: ${OUTCOMES.map((value) => `\`${value}\` (${OUTCOME_MEANINGS[value]})`).join('; ')}.`,
    when: 'always',
    // The step's inputs were refused.
    onInvalidInputs: 'failure' satisfies Outcome,
  },
} satisfies OutputTable;

/** An output of a followed run. */
export type RunOutput = keyof typeof RUN_OUTPUTS;
/** What following a run writes (follow.ts): its page, and what each read shows. */
export type FollowOutput = Exclude<RunOutput, 'run-id' | 'outcome'>;
