/**
 * The service's routes: device run sessions and workflows. Check order on every route: Authorization
 * header (400 UNAUTHORIZED_ERROR) → token (401) → request validation incl. UUID format (400) →
 * existence (404) → permission (403) → account rules and the rest.
 */
import type { Registry, Role } from './accounts.js';
import { ApiError, badRequest, isUuid, notFound, requireUuid } from './errors.js';
import { readCommitMessage, readWorkflowFile, resolveGitRef } from './git.js';
import { ok, parseJsonBody, type RequestContext, type Route } from './server.js';
import { applyAccountRules, validateSessionRequest } from './session-request.js';
import type { SessionManager } from './sessions.js';
import { parseWorkflowFile, validateInputs } from './workflow-file.js';
import type { WorkflowEngine } from './workflows.js';

/** Carried by all responses of the three session operations (errors included). */
export const SESSION_CACHE_HEADERS = { 'cache-control': 'private, no-store', pragma: 'no-cache' };

/** Permission names used in 403 messages, with the minimum role. */
const PERMISSIONS = {
  readSession: ['DEVICE_RUN_SESSION_READ', 'viewer'],
  createSession: ['DEVICE_RUN_SESSION_CREATE', 'developer'],
  stopSession: ['DEVICE_RUN_SESSION_STOP', 'developer'],
  dispatchWorkflow: ['WORKFLOW_RUN_CREATE', 'developer'],
  readRun: ['WORKFLOW_RUN_READ', 'viewer'],
} as const satisfies Record<string, readonly [string, Role]>;

export interface RouteDeps {
  registry: Registry;
  sessions: SessionManager;
  workflows: WorkflowEngine;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Body rules of POST /v2/workflows/dispatch; every problem reported, each naming its field. */
function validateDispatch(body: unknown): {
  appId: string;
  gitRef: string;
  fileName: string;
  inputs?: Record<string, unknown>;
} {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  const errors: string[] = [];
  const { appId, gitRef, fileName, inputs } = body;
  if (appId === undefined) errors.push('appId is required');
  else if (!isUuid(appId)) errors.push('appId must be a valid UUID');
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
  return {
    appId: appId as string,
    gitRef: gitRef as string,
    fileName: fileName as string,
    ...(inputs !== undefined ? { inputs: inputs as Record<string, unknown> } : {}),
  };
}

export function serviceRoutes({ registry, sessions, workflows }: RouteDeps): Route[] {
  const auth = (ctx: RequestContext) => registry.authenticate(ctx.headers.authorization);

  const sessionFor = (rawId: string) => {
    const id = requireUuid(rawId, 'deviceRunSessionId');
    const project = sessions.projectOf(id);
    if (!project) throw notFound(`No device run session with id ${id}`);
    return { id, project };
  };

  return [
    {
      method: 'POST',
      pattern: /^\/v2\/device-run-sessions\/?$/,
      headers: SESSION_CACHE_HEADERS,
      handler(ctx) {
        const actor = auth(ctx);
        const request = validateSessionRequest(parseJsonBody(ctx));
        const project = registry.projects.get(request.appId);
        if (!project) throw notFound(`No project with id ${request.appId} (appId)`);
        registry.requireRole(actor, project, PERMISSIONS.createSession[1], PERMISSIONS.createSession[0]);
        const duration = applyAccountRules(project.account, request);
        return ok(sessions.create(project, request, duration));
      },
    },
    {
      method: 'GET',
      pattern: /^\/v2\/device-run-sessions\/([^/]+)\/?$/,
      headers: SESSION_CACHE_HEADERS,
      handler(ctx, [rawId]) {
        const actor = auth(ctx);
        const { id, project } = sessionFor(rawId);
        registry.requireRole(actor, project, PERMISSIONS.readSession[1], PERMISSIONS.readSession[0]);
        return ok(sessions.get(id));
      },
    },
    {
      method: 'POST',
      pattern: /^\/v2\/device-run-sessions\/([^/]+)\/stop\/?$/,
      headers: SESSION_CACHE_HEADERS,
      handler(ctx, [rawId]) {
        // "No body": whatever is sent is ignored.
        const actor = auth(ctx);
        const { id, project } = sessionFor(rawId);
        registry.requireRole(actor, project, PERMISSIONS.stopSession[1], PERMISSIONS.stopSession[0]);
        return ok(sessions.stop(id));
      },
    },
    {
      method: 'POST',
      pattern: /^\/v2\/workflows\/dispatch\/?$/,
      async handler(ctx) {
        const actor = auth(ctx);
        const body = validateDispatch(parseJsonBody(ctx));
        const project = registry.projects.get(body.appId);
        if (!project) throw notFound(`No project with id ${body.appId} (appId)`);
        registry.requireRole(
          actor,
          project,
          PERMISSIONS.dispatchWorkflow[1],
          PERMISSIONS.dispatchWorkflow[0],
        );
        const ref = await resolveGitRef(project.repoPath, body.gitRef);
        if (!ref)
          throw notFound(`gitRef "${body.gitRef}" does not exist in the repository linked to the project`);
        const text = await readWorkflowFile(project.repoPath, ref.sha, body.fileName);
        if (text === null) {
          throw notFound(
            `Workflow file .eas/workflows/${body.fileName} (fileName) not found at ${ref.requestedGitRef}`,
          );
        }
        const spec = parseWorkflowFile(text, body.fileName);
        const inputs = validateInputs(spec.inputs, body.inputs);
        const message = await readCommitMessage(project.repoPath, ref.sha);
        const run = workflows.createRun(project, { ...ref, message }, spec, inputs);
        return ok({ id: run.id, url: run.url });
      },
    },
    {
      method: 'GET',
      pattern: /^\/v2\/workflows\/runs\/([^/]+)\/?$/,
      handler(ctx, [rawId]) {
        const actor = auth(ctx);
        const id = requireUuid(rawId, 'workflowRunId');
        const project = workflows.projectOf(id);
        if (!project) throw notFound(`No workflow run with id ${id}`);
        registry.requireRole(actor, project, PERMISSIONS.readRun[1], PERMISSIONS.readRun[0]);
        return ok(workflows.get(id));
      },
    },
  ];
}
