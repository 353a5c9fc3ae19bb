/**
 * run-workflow's refusals before and instead of a dispatch, in one place: a workflow file that does
 * not accept the dispatch, a step out of time or cancelled before it, a dry run that found what a
 * dispatch would fail on, and what the workspace shows of a dispatch the service answered with its
 * 404. Each is a function of explicit values (no I/O), so a test compares the whole sentence; the
 * checks themselves are dispatch-check.ts's and dry-run.ts's.
 */
import { oneLine, withoutFinalDots } from '../../text/one-line.js';
import { WORKFLOWS_FOLDER, type FileCheck } from '../workflow-file.js';

/** The workflow file in the workspace refuses the dispatch (`problems`: its sentences). */
export function fileRefusesMessage(file: string | undefined, problems: readonly string[]): string {
  return `Not dispatched: the workflow file ${file} (in the workspace, the commit git-ref names) does not accept this dispatch. ${problems.join(' ')}`;
}

/** The step was cancelled while the workflow file was checked. */
export const CANCELLED_BEFORE_DISPATCH =
  'The step was cancelled before the dispatch: nothing was dispatched.';

/** `timeout-minutes` was reached while the workflow file was checked. */
export function timedOutBeforeDispatchMessage(timeoutMinutes: number): string {
  return `timeout-minutes (${timeoutMinutes}) was reached before the dispatch, while the workflow file was checked: nothing was dispatched.`;
}

/** A dry run: the workspace's commit has no such workflow file (`shows`: what the workspace shows). */
export function dryRunFileAbsentMessage(shows: string | undefined): string {
  return `Dry run: the workflow file is not in the commit git-ref names, so a dispatch would fail. ${shows} Check \`workflow\` and \`git-ref\`. Nothing was dispatched.`;
}

/**
 * A dry run: git-ref is no branch or tag of the checkout, but close to one (`near`). A warning, for
 * the dry run passes: the service's repository may have the ref the checkout did not fetch.
 */
export function dryRunNearRefWarning(gitRef: string, near: string): string {
  return `\`git-ref\` ${oneLine(gitRef, 100)} is not a branch or tag of this checkout; did you mean \`${oneLine(near, 100)}\`? (a checkout holds only what it fetched)`;
}

/** The step was cancelled during a dry run's read. */
export const CANCELLED_DURING_DRY_RUN = 'The step was cancelled during the dry run: nothing was dispatched.';

/** A dry run's read: the service refused the token. */
export function dryRunTokenRefusedMessage(baseUrl: string, reason: string): string {
  return `Dry run: the service at ${oneLine(baseUrl, 200)} did not accept the token (\`token\`, or SVC_TOKEN): ${withoutFinalDots(reason)}. Nothing was dispatched.`;
}

/** A dry run's read: the address did not answer as the service does. */
export function dryRunNotTheServiceMessage(baseUrl: string, reason: string): string {
  return `Dry run: \`base-url\` ${oneLine(baseUrl, 200)} did not answer as the service does: ${withoutFinalDots(reason)}. Nothing was dispatched.`;
}

/** A dispatch's 404 from the service, told with what the workspace shows. */
export function dispatchNotFoundMessage(message: string, shows: string): string {
  return `${withoutFinalDots(message)}. ${shows}`;
}

/** The plan of a dispatch, as far as the workspace's words need it. */
interface PlannedRef {
  workflow: string;
  'git-ref': string;
}

/**
 * What the workspace shows about a Git ref and a workflow file, for a dispatch the service answered
 * with its 404 (no such ref, or no such file on it); undefined when the workspace shows nothing.
 */
export function workspaceShows(plan: PlannedRef, check: FileCheck): string | undefined {
  const ref = oneLine(plan['git-ref'], 100);
  if (check.absent) return `In the workspace, ${absentFile(plan.workflow, check.commit ?? '', check.absent)}`;
  if (check.commit)
    return (
      `In the workspace, git-ref ${ref} is the checked-out commit ${check.commit.slice(0, 12)} and has ${WORKFLOWS_FOLDER}/${plan.workflow}: ` +
      'the repository linked to the project may not have that commit (push it) or may be another repository.'
    );
  // Only what is about the ref: "no workspace" or "not a repository" says nothing of it.
  return check.skipped?.includes(ref) ? `In the workspace, ${withoutFinalDots(check.skipped)}.` : undefined;
}

/** A workflow file that is not in the commit: what its workflows folder holds instead. */
function absentFile(workflow: string, commit: string, absent: NonNullable<FileCheck['absent']>): string {
  const at = `commit ${commit.slice(0, 12)} (the one git-ref names)`;
  if (absent.folder.length === 0) return `${at} has no ${WORKFLOWS_FOLDER}/ folder.`;
  const shown = absent.folder.slice(0, 20).map((name) => oneLine(name, 80));
  const more = absent.folder.length > shown.length ? ` and ${absent.folder.length - shown.length} more` : '';
  const sameButCase = absent.sameButCase
    ? ` ${oneLine(absent.sameButCase, 80)} differs from \`workflow: ${oneLine(workflow, 80)}\` only in case: file names are case-sensitive.`
    : '';
  return `${at} has no ${WORKFLOWS_FOLDER}/${oneLine(workflow, 80)}; its ${WORKFLOWS_FOLDER}/ holds ${shown.join(', ')}${more}.${sameButCase}`;
}
