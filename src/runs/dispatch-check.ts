/**
 * Everything run-workflow checks before it dispatches (and all that `dry-run: true` does): the
 * workflow file in the workspace against `inputs` and `jobs` (workflow-file.ts), then the deadline
 * and the cancellation, so that nothing is dispatched by a step that is already out of time or
 * cancelled. What could not be checked is said once, with what would let it be checked.
 */
import type { ActionIO } from '../github/io.js';
import type { DispatchInputs } from '../inputs/parsers.js';
import { ActionFailure } from '../errors.js';
import { oneLine } from '../text/plain.js';
import { RunFailure } from './step.js';
import { checkWorkflowFile, type FileCheck } from './workflow-file.js';

interface Planned {
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

/** Checks the dispatch; returns what was checked, in a sentence; throws when it must not happen. */
export async function checkBeforeDispatch(
  plan: Planned,
  context: Context,
  deadline: number,
): Promise<string> {
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
  if (check.problems.length > 0)
    throw new ActionFailure(
      `Not dispatched: the workflow file ${check.file} (in the workspace, the commit git-ref names) does not accept this dispatch. ${check.problems.join(' ')}`,
    );
  const said: string[] = ['The inputs are valid.'];
  if (check.commit)
    said.push(`git-ref ${oneLine(plan['git-ref'], 100)} is commit ${check.commit} in the workspace.`);
  if (check.file) {
    const what = plan.jobs && !check.uncheckedJobs ? 'inputs and jobs' : 'inputs';
    io.info(`Checked ${what} against ${check.file} in the workspace.`);
    said.push(`${check.file} accepts the ${what}.`);
  } else said.push(`The workflow file was not checked: ${check.skipped ?? 'unknown'}.`);
  if (check.uncheckedJobs) {
    // Once, here: the run's jobs are checked on every read, and only this step knows why it could not be earlier.
    const unchecked =
      `\`jobs\` (${check.uncheckedJobs.selectors.map((selector) => oneLine(selector, 80)).join(', ')}) could not be checked before the dispatch: ` +
      `${check.uncheckedJobs.why}. ${plan['dry-run'] ? 'A dry run cannot check it otherwise' : "It is checked against the run's jobs once the run is read"}${check.commit ? '' : `; a checkout of the commit git-ref names (actions/checkout with \`ref: ${oneLine(plan['git-ref'], 100)}\`) before this step lets it be checked before the dispatch`}.`;
    io.info(unchecked);
    said.push(unchecked);
  }
  if (signal.aborted)
    throw new RunFailure(
      'The step was cancelled before the dispatch: nothing was dispatched.',
      'interrupted',
    );
  if (Date.now() >= deadline)
    throw new RunFailure(
      `timeout-minutes (${plan['timeout-minutes']}) was reached before the dispatch, while the workflow file was checked: nothing was dispatched.`,
      'timed-out',
    );
  return said.join(' ');
}
