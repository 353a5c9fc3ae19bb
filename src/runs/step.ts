/**
 * What run-workflow and wait-for-run share as steps: the inputs that follow a run, the outputs of a
 * followed run, and the one vocabulary for how the step ended (`outcome`), set on every path. The
 * run's own statuses keep the service's spelling (`canceled`); the step's own cancellation is
 * `interrupted`, so the two never read alike.
 */
import type { OutputTable, OutputWriter } from '../github/outputs.js';
import {
  comment,
  githubToken,
  jobs,
  onActionRequired,
  pollInterval,
  timeout,
  type ApiSettings,
  type InputSpec,
} from '../inputs/table.js';
import * as parse from '../inputs/parsers.js';
import { InputProblem, type InputNote } from '../inputs/parsers.js';
import { ActionFailure } from '../errors.js';

const OUTCOMES = [
  'success',
  'failure',
  'canceled',
  'timed-out',
  'interrupted',
  'action-required',
  'dispatched',
  'dry-run',
] as const;
/** How a run-workflow or wait-for-run step ended: its `outcome` output. */
export type Outcome = (typeof OUTCOMES)[number];

const commitStatuses = {
  description:
    '`true`: post a GitHub commit status for the run (`svc/<workflow>`) and one for each job it follows ' +
    '(`svc/<workflow>/<job key>`, at most 60) on the commit the run is of (its `gitCommitHash`, never another commit), ' +
    "so a ruleset can require a remote job. A status says `success` only when the step's verdict on that commit does, " +
    'and none is left `pending` when the step ends. Needs `statuses: write`.',
  default: 'false',
  parse: parse.boolean,
} satisfies InputSpec<boolean>;

/** What a status context may be: a ruleset names it by hand, so plain characters and bounded. */
const STATUS_CONTEXT = /^[\w./:-]{1,60}$/;

const statusContext = {
  description:
    'Replaces the `svc/<workflow>` prefix of the commit statuses (for the same workflow dispatched from ' +
    'several matrix legs or with several inputs): `<status-context>` for the run, ' +
    '`<status-context>/<job key>` for each job. Letters, digits and `_` `.` `/` `:` `-`, at most 60.',
  hint: 'a status context such as `svc/e2e-ios`.',
  parse: (value: string, name: string) => {
    if (STATUS_CONTEXT.test(value)) return value;
    const allowed = 'letters, digits, `_`, `.`, `/`, `:` and `-`, such as `svc/e2e-ios`';
    const chars = [...value];
    const bad = chars.findIndex((char) => !/^[\w./:-]$/.test(char));
    if (bad >= 0)
      throw new InputProblem(
        `\`${name}\` may hold only ${allowed}; ${characterName(chars[bad])} at position ${bad + 1} is not one of them.`,
      );
    throw new InputProblem(
      `\`${name}\` is ${chars.length} characters long; at most 60 ${allowed} are allowed.`,
    );
  },
} satisfies InputSpec<string>;

/** A character as an error message can show it: a space, an invisible one by its code point. */
function characterName(char: string): string {
  if (char === ' ') return 'a space';
  if (char === '`') return 'a backtick (`` ` ``)';
  if (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)) return `\`${char}\``;
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `status-context` names commit statuses: without `commit-statuses: true` there are none. */
export function statusContextAdvice(values: {
  'commit-statuses'?: boolean;
  'status-context'?: string;
}): InputNote[] {
  if (!values['status-context'] || values['commit-statuses']) return [];
  return [
    {
      level: 'warning',
      text: '`status-context` is set, but `commit-statuses` is not `true`: no commit status is posted, so it names none. Add `commit-statuses: true`, or remove `status-context`.',
    },
  ];
}

/** The inputs of following a run, the same rows in run-workflow and wait-for-run. */
export const FOLLOW_INPUTS = {
  jobs,
  'on-action-required': onActionRequired,
  'poll-interval-seconds': pollInterval(10),
  'timeout-minutes': timeout(60, 'for the run (or the listed jobs) to end'),
  comment,
  'commit-statuses': commitStatuses,
  'status-context': statusContext,
  'github-token': {
    ...githubToken,
    description: 'Token for the pull-request comment and the commit statuses. Masked.',
  },
};

const OUTCOME_MEANINGS: Record<Outcome, string> = {
  success: 'the run succeeded; with `jobs`, every selected job did',
  failure:
    'the run failed; with `jobs`, a selected job failed or was skipped, or a key or type is not in the run; ' +
    'or the step failed for any other reason: invalid inputs, a refused request, a run that cannot be read, a run of another commit',
  canceled: 'the run was canceled; with `jobs`, a selected job was canceled and none failed',
  'timed-out': '`timeout-minutes` reached, the run goes on',
  interrupted: 'the step itself was cancelled, the run goes on',
  'action-required': 'the run waits for an approval and `on-action-required` is `fail`',
  dispatched: '`wait: false`',
  'dry-run': 'run-workflow with `dry-run: true`: everything was checked, nothing was dispatched',
};

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

/** The run a step follows, and how. */
export interface FollowedRun {
  runId: string;
  /** The run's page, when known before the first read (from the dispatch). */
  runUrl?: string;
  /** What the summary calls the run: the workflow file name, or the run id. */
  title: string;
  /** The `jobs` selectors: job keys and `type:<job type>`. */
  jobs?: string[];
  /** `fail`: end at once when the run waits for a manual action (`action-required`). */
  onActionRequired: 'wait' | 'fail';
  /** The commit the run must be of (wait-for-run's `expected-commit`): lower case, whole or a prefix. */
  expectedCommit?: string;
  /** Why `expectedCommit` may be the wrong commit to expect, said when a run is not of it. */
  expectedCommitHint?: string;
  /** Whether this step dispatched the run: then it exists, and this step started it. */
  dispatched: boolean;
  api: ApiSettings;
}

/** A failure of the step with an outcome of its own; any other failure is `failure`. */
export class RunFailure extends ActionFailure {
  constructor(
    message: string,
    readonly outcome: Outcome,
  ) {
    super(message);
  }
}

/**
 * Runs a command's body and sets `outcome` once, whatever happens: what the body returns, a
 * RunFailure's own outcome, `interrupted` once the step was cancelled, otherwise `failure`.
 */
export async function withOutcome(
  outputs: OutputWriter<'outcome'>,
  signal: AbortSignal,
  body: () => Promise<Outcome>,
): Promise<void> {
  let outcome: Outcome = 'failure';
  try {
    outcome = await body();
  } catch (error) {
    outcome = error instanceof RunFailure ? error.outcome : 'failure';
    throw error;
  } finally {
    // A cancellation that cut a request short, or came just as the body ended, is what happened.
    outputs.set('outcome', signal.aborted ? 'interrupted' : outcome);
  }
}
