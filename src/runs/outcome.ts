/**
 * How a run-workflow or wait-for-run step ended: the one vocabulary of its `outcome` output, set on every
 * path. The run's own statuses keep the service's spelling (`canceled`); the step's own cancellation is
 * `interrupted`, so the two never read alike.
 */
import type { OutputWriter } from '../runner/outputs.js';
import { ActionFailure } from '../errors.js';

export const OUTCOMES = [
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

/** What each outcome means, for the output's description. */
export const OUTCOME_MEANINGS: Record<Outcome, string> = {
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
