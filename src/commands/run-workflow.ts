/**
 * run-workflow: dispatch a workflow on a git ref, then (unless `wait: false`) follow the run the way
 * wait-for-run does (action-interface.md).
 */
import type { RunWorkflowSettings } from '../inputs/index.js';
import { renderRunSummary } from '../summary.js';
import { hostOf, type CommandContext } from './context.js';
import { followRun } from './wait-for-run.js';

export async function runWorkflow(settings: RunWorkflowSettings, context: CommandContext): Promise<void> {
  const { io, client, signal } = context;
  const now = context.now ?? Date.now;
  const startedAt = now();
  const deadline = startedAt + settings.api.timeoutMs;

  io.info(
    `Dispatching workflow ${settings.fileName} on ${settings.gitRef} at ${hostOf(settings.api.baseUrl)}.`,
  );
  const dispatched = await client.dispatchWorkflow(
    { appId: settings.appId, gitRef: settings.gitRef, fileName: settings.fileName, inputs: settings.inputs },
    { deadline, signal },
  );
  const runUrl = dispatched.url ?? '';
  // Outputs the user can act on (link, cancel) before any waiting.
  io.setOutput('run-id', dispatched.id);
  io.setOutput('run-url', runUrl);
  io.info(`Dispatched ${settings.fileName}: run ${dispatched.id} ${runUrl}`.trimEnd());

  if (!settings.wait) {
    io.setOutput('status', 'new');
    io.info(
      `Not waiting for the run (wait: false). Follow it later with the wait-for-run command and run-id: ${dispatched.id}.`,
    );
    await io.appendSummary(
      renderRunSummary(
        { title: settings.fileName, runId: dispatched.id, runUrl, outcome: 'not-followed' },
        io.redact,
      ),
    );
    return;
  }
  await followRun(
    { runId: dispatched.id, runUrl, title: settings.fileName, jobs: settings.jobs, api: settings.api },
    { ...context, now },
    { startedAt, firstReadAfterInterval: true },
  );
}
