/**
 * How a job of a run is named wherever it is shown: by its key (the workflow file's word, what `jobs`
 * takes), with its name beside it when the file gave it one that differs. One rule for the log
 * (`build_ios (Build iOS)`), the job summary and the pull-request comment (`Build iOS (`build_ios`)`,
 * escaped), so a job reads as the same job in all three.
 */
import { markdownCode, markdownText } from './markdown.js';
import { oneLine } from './one-line.js';

interface NamedJob {
  key: string;
  name?: string | null;
}

/** The job's name when it says more than its key. */
function distinctName(job: NamedJob): string | undefined {
  return job.name && job.name !== job.key ? job.name : undefined;
}

/** For a log line or an error message: the key first (what `jobs` takes), then the name. */
export function jobLabel(job: NamedJob): string {
  const name = distinctName(job);
  return `${oneLine(job.key, 80)}${name ? ` (${oneLine(name, 80)})` : ''}`;
}

/** For Markdown: the name as text, then the key as code; the key alone when there is no other name. */
export function markdownJobLabel(job: NamedJob): string {
  const name = distinctName(job);
  return name ? `${markdownText(name, 80)} (${markdownCode(job.key, 60)})` : markdownCode(job.key, 60);
}
