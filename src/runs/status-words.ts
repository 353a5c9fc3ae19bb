/**
 * What a commit status says of a run or a job, the same for a step that follows the run
 * (commit-statuses.ts) and for sync-statuses (sync.ts): the context of each job, the state and
 * words for each status the spec lists, in this action's own words, never the service's free text.
 */
import { createHash } from 'node:crypto';
import { isJobTerminal, type WorkflowJob } from '../service/contract.js';
import type { StatusState } from '../github/statuses.js';

/** Contexts at most this long (GitHub's own limit is larger): a ruleset names them by hand. */
const MAX_CONTEXT = 100;

/**
 * Job statuses at most, per run: a ruleset requires a few jobs by name. 60 (it was 100) so that the
 * first read of a large run, one `pending` per job, stays under GitHub's 80 posts a minute; the
 * run's own status covers every job.
 */
export const MAX_JOB_STATUSES = 60;

/** Hexadecimal digits of the hash a job context carries when its key cannot be used as it is. */
const HASH_DIGITS = 12;

/**
 * `<prefix>/<key>`: a key of letters, digits, `_`, `.` and `-` as it is; any other key (the
 * workflow file's author chose it) with those characters only, then `~` and a hash of the key.
 * A plain key has no `~`, so only two hashed keys can meet: jobContexts finds them (and a key
 * listed twice, and two keys that differ only in case).
 */
function jobContext(prefix: string, key: string): string {
  const plain = key.replace(/[^\w.-]/g, '-');
  const room = MAX_CONTEXT - prefix.length - 1;
  if (plain === key && key.length <= room) return `${prefix}/${key}`;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, HASH_DIGITS);
  return `${prefix}/${plain.slice(0, Math.max(1, room - HASH_DIGITS - 1))}~${hash}`;
}

/**
 * The context of each of `jobs`, in the order first seen (in the spelling first seen), with the job
 * it stands for and, when two jobs of the run meet there (a key listed twice, two keys flattened or
 * hashed alike, two keys that differ only in case: GitHub's contexts ignore case), why it is
 * ambiguous: such a context says `error`, never what the last job listed says.
 */
export function jobContexts(
  prefix: string,
  jobs: readonly WorkflowJob[],
  redact: (text: string) => string = (text) => text,
): Map<string, { job: WorkflowJob; ambiguous?: string }> {
  const contexts = new Map<string, { job: WorkflowJob; ambiguous?: string }>();
  /** Each context as GitHub compares it → the spelling first seen. */
  const spelling = new Map<string, string>();
  for (const job of jobs) {
    const own = jobContext(prefix, job.key);
    // A job key that holds one of the step's secrets (a service that echoes it) never becomes a
    // context: GitHub keeps a context for good and shows it to everyone who can read the commit.
    if (redact(own) !== own) continue;
    const context = spelling.get(own.toLowerCase()) ?? own;
    spelling.set(own.toLowerCase(), context);
    const first = contexts.get(context);
    if (!first) contexts.set(context, { job });
    else
      first.ambiguous ??=
        first.job.key === job.key
          ? `the run lists job ${job.key} twice`
          : `jobs ${first.job.key} and ${job.key} share it`;
  }
  return contexts;
}

/** Each status of a run or a job the spec lists, as a commit status and its words. */
export const STATES: Record<string, [StatusState, string]> = {
  new: ['pending', 'Queued'],
  'in-progress': ['pending', 'Running'],
  'action-required': ['pending', 'Waiting for approval'],
  'pending-cancel': ['pending', 'Being canceled'],
  success: ['success', 'Succeeded'],
  failure: ['failure', 'Failed'],
  canceled: ['error', 'Canceled'],
};
export const UNKNOWN: [StatusState, string] = [
  'pending',
  'In a status this action does not know; still followed',
];

export function jobState(job: WorkflowJob, byKey: ReadonlyMap<string, WorkflowJob>): [StatusState, string] {
  if (job.status !== 'skipped') return STATES[job.status] ?? UNKNOWN;
  // The spec's skipped: a job it needs did not succeed. Named (by key, a workflow file's word) only
  // once that job has ended without success; a job still running is no reason yet.
  const needed = (job.requiredJobKeys ?? [])
    .map((key) => byKey.get(key))
    .find((other) => other !== undefined && isJobTerminal(other) && other.status !== 'success');
  return ['failure', needed ? `Skipped: needed job ${needed.key} did not succeed` : 'Skipped'];
}
