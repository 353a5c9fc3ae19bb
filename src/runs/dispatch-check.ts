/**
 * Everything run-workflow checks before it dispatches (and all that a dry run checks in the
 * workspace): the workflow file in the workspace against `inputs` and `jobs` (workflow-file.ts),
 * then the deadline and the cancellation, so that nothing is dispatched by a step that is already
 * out of time or cancelled. What could not be checked is said once, with what would let it be
 * checked. What the workspace showed also explains a dispatch the service answers with its 404.
 */
import type { ActionIO } from '../runner/io.js';
import type { DispatchInputs } from '../inputs/parsers.js';
import { ActionFailure } from '../errors.js';
import { ServiceError } from '../service/errors.js';
import { oneLine } from '../text/one-line.js';
import { RunFailure } from './outcome.js';
import { checkWorkflowFile, type FileCheck } from './workflow-file.js';
import {
  CANCELLED_BEFORE_DISPATCH,
  dispatchNotFoundMessage,
  fileRefusesMessage,
  timedOutBeforeDispatchMessage,
  workspaceShows,
} from './report/dispatch-failures.js';
import { stepClock } from '../text/clock.js';

export interface Planned {
  workflow: string;
  'git-ref': string;
  inputs?: DispatchInputs;
  jobs?: string[];
  'timeout-minutes': number;
  'dry-run': boolean;
}

interface Context {
  io: ActionIO;
  signal: AbortSignal;
  workspace?: string;
}

/** What the check found: the file check itself, and the sentences of what it checked and did not. */
export interface DispatchCheck {
  file: FileCheck;
  checked: string[];
  /** Each with what it is about: a dry run says the workflow file's otherwise after a near miss. */
  unchecked: Array<{ about: 'workflow-file' | 'jobs'; words: string }>;
}

/** Checks the dispatch; says what was checked and what was not; throws when it must not happen. */
export async function checkBeforeDispatch(
  plan: Planned,
  context: Context,
  deadline: number,
): Promise<DispatchCheck> {
  const { io, signal, workspace } = context;
  const check: FileCheck = workspace
    ? await checkWorkflowFile({
        workspace,
        workflow: plan.workflow,
        gitRef: plan['git-ref'],
        inputs: plan.inputs,
        jobs: plan.jobs,
        signal,
      })
    : {
        problems: [],
        skipped: 'the job has no workspace',
        uncheckedJobs: plan.jobs && { selectors: plan.jobs, why: 'the job has no workspace' },
      };
  if (check.skipped)
    io.debug(`Not checked against the workspace's workflow file before the dispatch: ${check.skipped}.`);
  if (check.problems.length > 0) throw new ActionFailure(fileRefusesMessage(check.file, check.problems));
  const checked: string[] = ['The inputs are valid.'];
  const unchecked: DispatchCheck['unchecked'] = [];
  if (check.commit)
    checked.push(`git-ref ${oneLine(plan['git-ref'], 100)} is commit ${check.commit} in the workspace.`);
  if (check.file) {
    const what = plan.jobs && !check.uncheckedJobs ? 'inputs and jobs' : 'inputs';
    io.info(`Checked ${what} against ${check.file} in the workspace.`);
    checked.push(`${check.file} accepts the ${what}.`);
  } else if (!check.absent)
    unchecked.push({ about: 'workflow-file', words: `The workflow file: ${check.skipped ?? 'unknown'}.` });
  if (check.uncheckedJobs) {
    // Once, here: the run's jobs are checked on every read, and only this step knows why it could not be earlier.
    const { selectors, why } = check.uncheckedJobs;
    const line = (because: string): string =>
      `\`jobs\` (${selectors.map((selector) => oneLine(selector, 80)).join(', ')}) could not be checked before the dispatch${because}. ` +
      `${plan['dry-run'] ? 'A dry run cannot check it otherwise' : "It is checked against the run's jobs once the run is read"}` +
      `${check.commit ? '' : `; a checkout of the commit git-ref names (actions/checkout with \`ref: ${oneLine(plan['git-ref'], 100)}\`) before this step lets it be checked before the dispatch`}.`;
    io.info(line(`: ${why}`));
    // In the list of what was not checked, the reason the workflow file gave already is not said again.
    unchecked.push({
      about: 'jobs',
      words: line(check.file || check.absent ? `: ${why}` : ' (the workflow file was not checked)'),
    });
  }
  if (signal.aborted) throw new RunFailure(CANCELLED_BEFORE_DISPATCH, 'interrupted');
  if (stepClock().now() >= deadline)
    throw new RunFailure(timedOutBeforeDispatchMessage(plan['timeout-minutes']), 'timed-out');
  return { file: check, checked, unchecked };
}

/** A dispatch's 404 from the service, told with what the workspace shows; any other error as it is. */
export function explainDispatchFailure(error: unknown, plan: Planned, check: FileCheck): unknown {
  if (!(error instanceof ServiceError) || error.status !== 404 || error.baseUrlAdvice) return error;
  const shows = workspaceShows(plan, check);
  if (shows) error.message = dispatchNotFoundMessage(error.message, shows);
  return error;
}
