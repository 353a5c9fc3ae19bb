/**
 * The step's verdict on a followed run as last read: its `outcome`, why it fails (the error message,
 * in plain text, from report/failures.ts) and what kind of refusal the summary heads it with.
 */
import { isJobTerminal, isRunTerminal, type WorkflowRun } from '../service/contract.js';
import type { PollOutcome } from '../service/poll.js';
import type { Reading } from './reading.js';
import { oneLine } from '../text/one-line.js';
import { selectedType } from './job-selection.js';
import type { FollowedRun } from './follow-inputs.js';
import type { Outcome } from './outcome.js';
import {
  awaitingApprovalMessage,
  endedBeforeListedJobsMessage,
  interruptedMessage,
  listedJobsFailedMessage,
  runEndedMessage,
  timedOutMessage,
  unknownCommitMessage,
  unknownJobsMessage,
  wrongCommitMessage,
} from './report/failures.js';

export { unsuccessful } from './report/failures.js';

/** Failures the summary heads with words of their own (they are `failure` as outcomes). */
export type Refusal = 'unknown-jobs' | 'wrong-commit';

interface Verdict {
  /** The step's `outcome` output. */
  outcome: Outcome;
  refusal?: Refusal;
  /** Why the step fails; undefined when it succeeds. */
  failure?: string;
  note: string;
}

/** The verdict on the last reading; `outcome.kind` says how following ended. */
export function judge(
  outcome: Pick<PollOutcome<unknown>, 'kind'>,
  followed: FollowedRun,
  reading: Reading | undefined,
  runUrl: string,
): Verdict {
  const run = reading?.run;
  const id = followed.runId;
  const fail = (outcome: Outcome, failure: string, refusal?: Refusal): Verdict => ({
    outcome,
    refusal,
    failure,
    note: '',
  });
  if (outcome.kind === 'aborted') return fail('interrupted', interruptedMessage(id, runUrl));
  // Another commit's run is refused on the read that shows it, whatever else it says.
  if (reading?.binding === 'other')
    return fail(
      'failure',
      wrongCommitMessage({
        runId: id,
        runCommit: run?.gitCommitHash ?? '',
        expectedCommit: followed.expectedCommit,
        hint: followed.expectedCommitHint,
        runUrl,
      }),
      'wrong-commit',
    );
  if (outcome.kind === 'timeout')
    return fail(
      'timed-out',
      timedOutMessage({
        runId: id,
        listedJobs: followed.jobs !== undefined,
        timeoutMs: followed.api.timeoutMs,
        lastStatus: run?.status,
        runUrl,
      }),
    );
  const final = reading!.run;
  if (reading!.binding === 'unknown')
    return fail('failure', unknownCommitMessage(id, followed.expectedCommit, runUrl), 'wrong-commit');
  if (!followed.jobs) {
    if (final.status === 'success') return { outcome: 'success', note: '' };
    if (final.status === 'action-required') return awaitingApproval(final, runUrl);
    return fail(final.status === 'canceled' ? 'canceled' : 'failure', runEndedMessage(final, runUrl));
  }
  const { followed: selected, unmatched } = reading!;
  if (unmatched.length > 0) return unknownJobs(final, unmatched, followed, runUrl);
  if (!selected.every(isJobTerminal)) {
    if (final.status === 'action-required') return awaitingApproval(final, runUrl);
    // The run ended while a selected job had not (a service that stops a run's jobs late).
    return fail(
      final.status === 'canceled' ? 'canceled' : 'failure',
      endedBeforeListedJobsMessage(final, runUrl),
    );
  }
  const notSucceeded = selected.filter((job) => job.status !== 'success');
  if (notSucceeded.length === 0)
    return {
      outcome: 'success',
      note: isRunTerminal(final) ? '' : ` (the run goes on: ${oneLine(final.status, 40)})`,
    };
  return fail(
    // A skipped job did not run because a job it needs did not succeed: that is a failure to gate on.
    notSucceeded.some((job) => job.status !== 'canceled') ? 'failure' : 'canceled',
    listedJobsFailedMessage(final, notSucceeded, runUrl),
  );
}

/** `on-action-required: fail` and the run waits for a manual action. */
function awaitingApproval(run: WorkflowRun, runUrl: string): Verdict {
  return { outcome: 'action-required', failure: awaitingApprovalMessage(run, runUrl), note: '' };
}

/** Selectors the run has no job for: a typo, or a job of another version of the workflow file. */
function unknownJobs(run: WorkflowRun, unmatched: string[], followed: FollowedRun, runUrl: string): Verdict {
  return {
    outcome: 'failure',
    refusal: 'unknown-jobs',
    failure: unknownJobsMessage({
      run,
      unmatched,
      byType: unmatched.some((selector) => selectedType(selector) !== undefined),
      startedGoesOn: followed.dispatched && !isRunTerminal(run),
      runUrl,
    }),
    note: '',
  };
}
