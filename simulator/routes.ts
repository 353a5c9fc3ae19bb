/**
 * The service's routes: device run sessions and workflows. Check order on every route: Authorization
 * header (400 UNAUTHORIZED_ERROR) → token (401) → request validation incl. UUID format (400) →
 * existence (404) → permission (403) → account rules and the rest. A dispatch's project that does not
 * exist is a 403 (the spec's dispatch 404s are about the Git ref and the workflow file).
 */
import type { DispatchedRunResource } from '../src/service/contract.js';
import type { Registry, Role } from './accounts.js';
import { startRun, validateDispatch } from './dispatch.js';
import { forbidden, notFound, requireUuid } from './errors.js';
import { ok, parseJsonBody, type RequestContext, type Route } from './server.js';
import { applyAccountRules, validateSessionRequest } from './session-request.js';
import type { SessionManager } from './sessions.js';
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
        // The spec's dispatch has no 404 for a project: its 403 is "Token has no access to appId".
        if (!project) throw forbidden(`Token has no access to project ${body.appId} (appId)`);
        registry.requireRole(
          actor,
          project,
          PERMISSIONS.dispatchWorkflow[1],
          PERMISSIONS.dispatchWorkflow[0],
        );
        const run = await startRun(workflows, project, body);
        return ok({ id: run.id, url: run.url } satisfies DispatchedRunResource);
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
