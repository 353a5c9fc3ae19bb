/**
 * POST /v2/workflows/dispatch without the HTTP: the body's rules, then the run from the workflow file
 * at the ref. The service route uses it after authentication; the control route `POST /_sim/runs` uses
 * it to start a run "dispatched by someone else", which a test then follows by id.
 */
import { isUuid, type DispatchRequest } from '../src/service/contract.js';
import type { Project } from './accounts.js';
import { ApiError, badRequest, notFound } from './errors.js';
import { parseWorkflowFile, validateInputs } from './workflow-file.js';
import { resolveRef } from './workflow-source.js';
import type { WorkflowEngine, WorkflowRun } from './workflows.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Body rules of POST /v2/workflows/dispatch; every problem reported, each naming its field. */
export function validateDispatch(body: unknown): DispatchRequest {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  const errors: string[] = [];
  const { appId, gitRef, fileName, inputs } = body;
  if (appId === undefined) errors.push('appId is required');
  else if (typeof appId !== 'string' || !isUuid(appId)) errors.push('appId must be a valid UUID');
  if (gitRef === undefined) errors.push('gitRef is required');
  else if (typeof gitRef !== 'string' || gitRef.trim() === '')
    errors.push('gitRef must be a non-empty string');
  else if (gitRef.startsWith('-')) errors.push('gitRef must not start with "-"');
  if (fileName === undefined) errors.push('fileName is required');
  else if (typeof fileName !== 'string' || fileName === '')
    errors.push('fileName must be a non-empty string');
  else if (/[/\\]/.test(fileName) || fileName.includes('..')) {
    errors.push('fileName must be a file name only, without directory or path segments (e.g. e2e.yml)');
  } else if (!/\.ya?ml$/.test(fileName)) errors.push('fileName must end in .yml or .yaml');
  else if (/[\x00-\x1f]/.test(fileName)) errors.push('fileName must not contain control characters');
  if (inputs !== undefined && !isObject(inputs)) errors.push('inputs must be an object');
  if (errors.length) throw ApiError.validation(errors);
  const request: DispatchRequest = {
    appId: appId as string,
    gitRef: gitRef as string,
    fileName: fileName as string,
  };
  if (inputs !== undefined) request.inputs = inputs as Record<string, unknown>;
  return request;
}

/** Resolves the ref, reads and checks the workflow file and its inputs, and enqueues the run. */
export async function startRun(
  workflows: WorkflowEngine,
  project: Project,
  request: DispatchRequest,
): Promise<WorkflowRun> {
  const repository = project.repository;
  const ref = await resolveRef(repository, request.gitRef);
  if (!ref)
    throw notFound(`gitRef "${request.gitRef}" does not exist in the repository linked to the project`);
  const text = await repository.workflowFile(ref.sha, request.fileName);
  if (text === null) {
    throw notFound(
      `Workflow file .eas/workflows/${request.fileName} (fileName) not found at ${ref.requestedGitRef}`,
    );
  }
  const spec = parseWorkflowFile(text, request.fileName);
  const inputs = validateInputs(spec.inputs, request.inputs);
  const message = await repository.commitMessage(ref.sha);
  return workflows.createRun(project, { ...ref, message }, spec, inputs);
}
