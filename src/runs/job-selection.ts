/**
 * What the `jobs` input selects: a job key as the workflow file writes it (`build_ios`), or
 * `type:<job type>` for every job whose `type` is that (`type:build`: all the builds, whatever their
 * keys). One reading for the follower (follow.ts), the summary and the check of the workflow file
 * before a dispatch (workflow-file.ts).
 */

import type { WorkflowJob } from '../service/contract.js';

const TYPE_SELECTOR = 'type:';

/** The job type a selector names (`type:build` → `build`), undefined for a job key. */
export function selectedType(selector: string): string | undefined {
  return selector.startsWith(TYPE_SELECTOR) ? selector.slice(TYPE_SELECTOR.length) : undefined;
}

/**
 * The job types whose reported name is known, by the word the workflow file writes: the service
 * reports the jobs of `type: submit` as `submission`. A `type:` selector takes the service's word.
 */
export const REPORTED_TYPES: Readonly<Record<string, string>> = { build: 'build', submit: 'submission' };

/**
 * For a `type:` selector written with the file's word where the service says another
 * (`type:submit`): the selector to write instead (`type:submission`).
 */
export function serviceWordFor(selector: string): string | undefined {
  const type = selectedType(selector);
  if (type === undefined || !Object.hasOwn(REPORTED_TYPES, type)) return undefined;
  const reported = REPORTED_TYPES[type];
  return reported === type ? undefined : `${TYPE_SELECTOR}${reported}`;
}

type SelectableJob = Pick<WorkflowJob, 'key' | 'type'>;

export function selects(selector: string, job: SelectableJob): boolean {
  const type = selectedType(selector);
  return type === undefined ? job.key === selector : job.type === type;
}

/** The jobs the selectors pick (in the run's order, each once) and the selectors that pick none. */
export function selectJobs<J extends SelectableJob>(
  jobs: readonly J[],
  selectors: readonly string[],
): { selected: J[]; unmatched: string[] } {
  return {
    selected: jobs.filter((job) => selectors.some((selector) => selects(selector, job))),
    unmatched: selectors.filter((selector) => !jobs.some((job) => selects(selector, job))),
  };
}
