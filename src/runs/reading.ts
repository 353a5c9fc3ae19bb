/**
 * One read of a followed run, judged once: which jobs the gate follows, which commit the run is of
 * and whether that is the commit it must be of, and whether following can stop here. The poll, the
 * outputs, the commit statuses, the verdict and the summary all take this one judgement, so none of
 * them can see a read another has refused (a run of another commit sets no status).
 */
import { isJobTerminal, isRunTerminal, type WorkflowJob, type WorkflowRun } from '../service/contract.js';
import { selectJobs } from './job-selection.js';
import type { FollowedRun } from './follow-inputs.js';

/** A commit as GitHub names it: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits. */
const FULL_COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export interface Reading {
  run: WorkflowRun;
  /** The jobs the gate follows, in the run's order: every job, or those `jobs` selects. */
  followed: WorkflowJob[];
  /** `jobs` selectors that pick no job of the run. */
  unmatched: string[];
  /** The run's own commit, whole and in lower case; undefined when the run does not name one. */
  commit?: string;
  /**
   * Whether the run may gate: `yes` when it is of the expected commit (or none is expected),
   * `other` when it is of another, `unknown` when a commit is expected and the run names none.
   */
  binding: 'yes' | 'other' | 'unknown';
  /** Whether following ends with this read. */
  done: boolean;
}

export function readRun(
  run: WorkflowRun,
  followed: Pick<FollowedRun, 'jobs' | 'expectedCommit' | 'onActionRequired'>,
): Reading {
  const { selected, unmatched } = followed.jobs
    ? selectJobs(run.jobs, followed.jobs)
    : { selected: run.jobs, unmatched: [] as string[] };
  const hash = (run.gitCommitHash ?? '').trim().toLowerCase();
  const binding = ofCommit(hash, followed.expectedCommit);
  // A run lists its jobs from its workflow file: once it lists any, a selector that picks none
  // never will, and waiting longer cannot help.
  const jobsDone =
    followed.jobs !== undefined &&
    run.jobs.length > 0 &&
    (unmatched.length > 0 || selected.every(isJobTerminal));
  return {
    run,
    followed: selected,
    unmatched,
    commit: FULL_COMMIT.test(hash) ? hash : undefined,
    binding,
    done:
      isRunTerminal(run) ||
      binding === 'other' ||
      jobsDone ||
      (followed.onActionRequired === 'fail' && run.status === 'action-required'),
  };
}

/** Whether `hash` is of the expected commit (a given prefix matches); `unknown` when it names none. */
function ofCommit(hash: string, expected: string | undefined): Reading['binding'] {
  if (!expected) return 'yes';
  if (!hash) return 'unknown';
  return hash.startsWith(expected) ? 'yes' : 'other';
}
