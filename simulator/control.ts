/**
 * Control routes under `/_sim/` for people running the simulator as a command and for tests (no auth;
 * loopback only; bodies as JSON, web pages refused: request-guard.ts; recorded in `sim.requests` with
 * `control: true`). The list people read is `CONTROL_ROUTES` (printed by the CLI); each entry below
 * implements one line of it.
 */
import type { Registry } from './accounts.js';
import { parseJobBehaviour, parseSessionBehaviour } from './control-bodies.js';
import { startRun, validateDispatch } from './dispatch.js';
import { badRequest, notFound } from './errors.js';
import { faultFromJson, type FaultRegistry } from './faults.js';
import { ok, parseJsonBody, type Route } from './server.js';
import type { SessionManager } from './sessions.js';
import type { WorkflowEngine } from './workflows.js';

/** Every control route with its body and what it does: the CLI prints this list. */
export const CONTROL_ROUTES: ReadonlyArray<readonly [method: string, path: string, what: string]> = [
  ['GET', '/_sim/state', 'projects, runs, sessions, behaviours, pending faults'],
  ['POST', '/_sim/reset', 'forget runs, sessions, behaviours, faults, requests, webhooks, deliveries'],
  [
    'POST',
    '/_sim/runs',
    'start a run as if someone else dispatched it: {"appId","gitRef","fileName","inputs"}',
  ],
  ['', '', 'defaults: the only project, gitRef "main", fileName "e2e.yml"'],
  ['POST', '/_sim/runs/:id/approve', 'approve the jobs waiting for approval (also: reject, cancel)'],
  ['POST', '/_sim/runs/:id/jobs/:key/finish', 'a running job ends now (as its behaviour says)'],
  [
    'POST',
    '/_sim/jobs/:key/behaviour',
    'for jobs with this key started later: {"durationMs","outcome","errorMessage"}',
  ],
  ['DELETE', '/_sim/jobs/:key/behaviour', 'jobs with this key use the defaults again'],
  ['POST', '/_sim/session-behaviour', 'for sessions created later, merged; null clears a field:'],
  ['', '', '{"readinessDelayMs","errorAfterMs","remoteConfigLagMs","omitArgentToken",'],
  ['', '', ' "extraStatusBeforeReady","extraRemoteConfigFields","minuteMs"}'],
  ['DELETE', '/_sim/session-behaviour', 'sessions use the defaults again'],
  ['POST', '/_sim/sessions/:id/ready', 'provisioning finishes now (in-progress, with remoteConfig)'],
  ['POST', '/_sim/sessions/:id/error', 'the session goes errored now'],
  ['POST', '/_sim/sessions/:id/touch', 'device activity (restarts the idle timer)'],
  [
    'POST',
    '/_sim/faults',
    'next matching request fails: {"kind":"status","status":503,"path":"/v2/","times":1}',
  ],
  ['DELETE', '/_sim/faults', 'drop pending faults'],
  ['GET', '/_sim/webhooks', 'configured webhooks'],
  ['POST', '/_sim/webhooks', '{"projectId","event":"BUILD"|"SUBMIT","url","secret"}'],
  ['DELETE', '/_sim/webhooks/:id', 'remove a webhook'],
  ['GET', '/_sim/webhook-deliveries', 'every delivery attempt'],
  ['POST', '/_sim/github/pull-requests', 'a pull request on the GitHub stand-in: {"number","head","title"}'],
];

export interface ControlDeps {
  registry: Registry;
  sessions: SessionManager;
  workflows: WorkflowEngine;
  faults: FaultRegistry;
  /** Everything `POST /_sim/reset` forgets (accounts, projects and tokens stay). */
  reset: () => void;
}

function objectBody(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest('The body must be a JSON object');
  return raw as Record<string, unknown>;
}

export function controlRoutes({ registry, sessions, workflows, faults, reset }: ControlDeps): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/_sim\/state\/?$/,
      handler: () =>
        ok({
          projects: [...registry.projects.values()].map((p) => ({
            id: p.id,
            name: p.name,
            accountName: p.account.name,
            repository: p.repository.describe(),
          })),
          runs: workflows.list(),
          sessions: sessions.list(),
          sessionBehaviour: sessions.currentBehaviour,
          jobBehaviours: workflows.jobBehaviours(),
          activeSessions: sessions.active(),
          faults: faults
            .pending()
            .map((f) => ({ ...f, path: f.path instanceof RegExp ? String(f.path) : f.path })),
        }),
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/reset\/?$/,
      handler() {
        reset();
        return ok({});
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/runs\/?$/,
      async handler(ctx) {
        const body = objectBody(parseJsonBody(ctx));
        let appId = body['appId'];
        if (appId === undefined) {
          if (registry.projects.size !== 1)
            throw badRequest(`appId is required: the simulator has ${registry.projects.size} projects`);
          appId = [...registry.projects.keys()][0];
        }
        const request = validateDispatch({ gitRef: 'main', fileName: 'e2e.yml', ...body, appId });
        const project = registry.projects.get(request.appId);
        if (!project) throw notFound(`No project with id ${request.appId} (appId)`);
        return ok(await startRun(workflows, project, request));
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/runs\/([^/]+)\/(approve|reject|cancel)\/?$/,
      handler(_ctx, [id, action]) {
        if (action === 'approve') workflows.approve(id);
        else if (action === 'reject') workflows.reject(id);
        else workflows.cancel(id);
        return ok(workflows.get(id));
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/runs\/([^/]+)\/jobs\/([^/]+)\/finish\/?$/,
      handler(_ctx, [id, key]) {
        workflows.finishJob(id, key);
        return ok(workflows.get(id));
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/sessions\/([^/]+)\/error\/?$/,
      handler: (_ctx, [id]) => ok(sessions.fail(id)),
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/sessions\/([^/]+)\/ready\/?$/,
      handler: (_ctx, [id]) => ok(sessions.ready(id)),
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/sessions\/([^/]+)\/touch\/?$/,
      handler(_ctx, [id]) {
        sessions.touch(id);
        return ok(sessions.get(id));
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/session-behaviour\/?$/,
      handler(ctx) {
        sessions.setBehaviour(parseSessionBehaviour(parseJsonBody(ctx)));
        return ok(sessions.currentBehaviour);
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/_sim\/session-behaviour\/?$/,
      handler() {
        sessions.resetBehaviour();
        return ok(sessions.currentBehaviour);
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/jobs\/([^/]+)\/behaviour\/?$/,
      handler(ctx, [key]) {
        const behaviour = parseJobBehaviour(parseJsonBody(ctx));
        workflows.setJobBehaviour(key, behaviour);
        return ok(behaviour);
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/_sim\/jobs\/([^/]+)\/behaviour\/?$/,
      handler(_ctx, [key]) {
        workflows.clearJobBehaviour(key);
        return ok({});
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/faults\/?$/,
      handler(ctx) {
        try {
          faults.add(faultFromJson(parseJsonBody(ctx)));
        } catch (error) {
          throw badRequest((error as Error).message);
        }
        return ok({ pending: faults.pending().length });
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/_sim\/faults\/?$/,
      handler() {
        faults.clear();
        return ok({});
      },
    },
  ];
}
