/**
 * The warnings and notices of a step that follows a run (run-workflow, wait-for-run) while it goes
 * on: a run that waits for approval, outputs bounded, and what its commit statuses cannot say. Each
 * is a function of explicit values (no I/O), so a test compares the whole sentence; follow.ts and
 * commit-statuses.ts only pick which one.
 */

/** The run waits for a manual action (approval), and the step keeps waiting. */
export function waitingForApprovalNotice(runUrl: string): string {
  return `The workflow run is waiting for a manual action (approval); still waiting. ${runUrl}`.trimEnd();
}

/**
 * The job outputs hold the first `kept` of `total` jobs (`failedLeftOut` of those left out not
 * successful), under `boundKiB` together; `runUrl` lists every job.
 */
export function jobOutputsBoundedWarning(
  total: number,
  kept: number,
  failedLeftOut: number,
  boundKiB: number,
  runUrl: string | null | undefined,
): string {
  return (
    `The run has ${total} jobs; the \`jobs\`, \`job-outputs\`, \`build-ids\`, \`submission-ids\` and \`failed-jobs\` outputs ` +
    `hold the first ${kept} in pipeline order (the followed jobs first) and leave out ${total - kept}` +
    `${failedLeftOut > 0 ? `, ${failedLeftOut} of them not successful` : ''}, ` +
    `so that these outputs stay under ${boundKiB} KiB together (GitHub keeps at most 1 MB of outputs per job). ` +
    `The run's page lists every job${runUrl ? `: ${runUrl}` : ''}.`
  );
}

/** The run now names another commit (`now`) than the one its statuses are on (`before`). */
export function commitChangedWarning(now: string, before: string | undefined): string {
  return `The run now says it is of commit ${now}, not ${before} as before: its commit statuses end in error.`;
}

/** The run names no whole commit SHA: no status is posted. */
export const NO_RUN_COMMIT_WARNING =
  'commit-statuses: the run does not name its commit as a whole SHA (`gitCommitHash`), so no commit status is posted: a status goes only on the commit the run is of.';

/** More jobs to follow than statuses posted: the first `max` and the run's own context (`prefix`). */
export function tooManyJobStatusesWarning(count: number, max: number, prefix: string): string {
  return (
    `commit-statuses: the run has ${count} jobs to follow; a status is posted for the first ` +
    `${max} seen and for the run (\`${prefix}\`), which covers them all. ` +
    'Use `jobs` to choose the jobs a ruleset requires.'
  );
}
