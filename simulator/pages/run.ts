/** The page of a workflow run: its status, commit, times and jobs, reloaded until the run ends. */
import { WORKFLOW_RUN_TERMINAL } from '../../src/service/contract.js';
import type { ApiResponse } from '../server.js';
import type { JobError, WorkflowRun } from '../workflows.js';
import { html, link, page, rows, statusBadge } from './html.js';

const TERMINAL: readonly string[] = WORKFLOW_RUN_TERMINAL;

/** `projectUrl` is the run's project page address (`…/accounts/a/projects/p`), for the build links. */
export function runPage(run: WorkflowRun, projectUrl: string): ApiResponse {
  const jobs = html`<table class="list" id="jobs">
    <tr>
      <th>Job</th>
      <th>Name</th>
      <th>Type</th>
      <th>Status</th>
      <th>Needs</th>
      <th>Updated</th>
      <th>Record</th>
    </tr>
    ${run.jobs.map(
      (job) =>
        html`<tr data-job="${job.key}">
            <td><code>${job.key}</code></td>
            <td>${job.name}</td>
            <td>${job.type}</td>
            <td>${statusBadge(job.status)}</td>
            <td>${job.requiredJobKeys.join(', ')}</td>
            <td>${job.updatedAt}</td>
            <td>
              ${job.buildId ? link(`${projectUrl}/builds/${job.buildId}`, 'build') : ''}${job.submissionId ? link(`${projectUrl}/submissions/${job.submissionId}`, 'submission') : ''}
            </td>
          </tr>
          ${(job.errors as JobError[]).map(
            (error) =>
              html`<tr class="error">
                <td></td>
                <td colspan="6">${error.title}: ${error.message}</td>
              </tr>`,
          )}
          ${
            Object.keys(job.outputs).length
              ? html`<tr class="outputs">
                  <td></td>
                  <td colspan="6">
                    outputs:
                    ${Object.entries(job.outputs).map(([name, value]) => html`<code>${name}</code>=<code>${value}</code> `)}
                  </td>
                </tr>`
              : ''
          }`,
    )}
  </table>`;
  return page({
    title: `Workflow run ${run.id}`,
    refresh: !TERMINAL.includes(run.status),
    body: html`${rows([
        ['Status', statusBadge(run.status)],
        ['Commit', html`<code>${run.gitCommitHash}</code> ${run.gitCommitMessage}`],
        ['Ref', run.requestedGitRef],
        ['Trigger', run.triggerEventType],
        ['Created', run.createdAt],
        ['Updated', run.updatedAt],
      ])}
      <h2>Jobs</h2>
      ${jobs}`,
  });
}
