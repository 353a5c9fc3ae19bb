/**
 * The pages of a build and of a submission (the records a run's build and submission jobs point to,
 * whose addresses the webhook payloads carry), and the small files their artifact links download.
 * A build or submission is its job seen from the other side: its status is the webhook's word for the
 * job's (`finished`, `errored`, `canceled`; `in-progress` while the job has not ended).
 */
import type { Project } from '../accounts.js';
import type { ApiResponse } from '../server.js';
import type { JobError, WorkflowEngine, WorkflowJob, WorkflowRun } from '../workflows.js';
import { html, link, page, rows, statusBadge } from './html.js';

export type RecordKind = 'build' | 'submission';

export interface JobRecordOf {
  kind: RecordKind;
  id: string;
  run: WorkflowRun;
  job: WorkflowJob;
  project: Project;
}

const STATUS: Record<string, string> = { success: 'finished', failure: 'errored', canceled: 'canceled' };

export const recordStatus = (job: WorkflowJob): string => STATUS[job.status] ?? 'in-progress';

/** The build or submission with this id, from the runs (the same state the JSON routes read). */
export function findRecord(workflows: WorkflowEngine, kind: RecordKind, id: string): JobRecordOf | undefined {
  for (const run of workflows.list()) {
    const job = run.jobs.find((j) => (kind === 'build' ? j.buildId : j.submissionId) === id);
    const project = job && workflows.projectOf(run.id);
    if (job && project) return { kind, id, run, job, project };
  }
  return undefined;
}

/** The file name of a build's artifact, as the webhook payload names it. */
export function artifactName(record: JobRecordOf, platform: string): string {
  const slug = record.project.name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'app';
  return `${slug}.${platform === 'ios' ? 'ipa' : 'aab'}`;
}

/**
 * `origin` is the simulator's address; `projectUrl` the project's page address. `platform` is the
 * job's (`params.platform`, android by default), `artifactPath` the download of a finished build, or
 * of what a submission submitted.
 */
export function recordPage(
  record: JobRecordOf,
  projectUrl: string,
  artifactPath: string | null,
): ApiResponse {
  const { kind, id, run, job } = record;
  const status = recordStatus(job);
  const title = `${kind === 'build' ? 'Build' : 'Submission'} ${id}`;
  return page({
    title,
    refresh: status === 'in-progress',
    body: html`${rows([
      ['Status', statusBadge(status)],
      ['Job', html`<code>${job.key}</code> ${job.name} (${job.status})`],
      ['Workflow run', link(`${projectUrl}/workflows/${run.id}`, run.id)],
      ['Commit', html`<code>${run.gitCommitHash}</code> ${run.gitCommitMessage}`],
      ['Created', job.createdAt],
      ['Updated', job.updatedAt],
      [
        'Artifact',
        artifactPath
          ? html`<a href="${artifactPath}" download id="artifact">${artifactPath.split('/').pop() ?? ''}</a>`
          : status === 'in-progress'
            ? 'not yet'
            : 'none',
      ],
    ])}
    ${
      job.errors.length
        ? html`<h2>Errors</h2>
            ${(job.errors as JobError[]).map((error) => html`<p>${error.title}: ${error.message}</p>`)}`
        : ''
    }`,
  });
}

/** A small file standing in for a build's artifact (the simulator builds nothing). */
export function artifactFile(record: JobRecordOf, name: string): ApiResponse {
  const text = `svc simulator artifact ${name}\n${record.kind} ${record.id}\nworkflow run ${record.run.id}\ncommit ${record.run.gitCommitHash}\n`;
  return {
    status: 200,
    body: Buffer.from(text, 'utf8'),
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  };
}
