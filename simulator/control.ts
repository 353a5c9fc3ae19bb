/**
 * Control routes under `/_sim/` for people running the simulator as a command (no auth; loopback only;
 * recorded in `sim.requests` with `control: true`):
 *   GET    /_sim/state                          runs, sessions, active sessions, projects, pending faults
 *   POST   /_sim/runs/:id/approve|reject|cancel
 *   POST   /_sim/sessions/:id/error             move a session to errored now
 *   POST   /_sim/sessions/:id/touch             simulated device activity (restarts the idle timer)
 *   POST   /_sim/session-behaviour              body: SessionBehaviour (for sessions created afterwards)
 *   POST   /_sim/jobs/:key/behaviour            body: { durationMs?, outcome?, errorMessage? }
 *   POST   /_sim/faults                         body: a fault without functions (see faults.ts)
 *   DELETE /_sim/faults
 */
import type { Registry } from './accounts.js';
import { badRequest } from './errors.js';
import { faultFromJson, type FaultRegistry } from './faults.js';
import { ok, parseJsonBody, type Route } from './server.js';
import type { SessionBehaviour, SessionManager } from './sessions.js';
import type { JobBehaviour, WorkflowEngine } from './workflows.js';

export interface ControlDeps {
  registry: Registry;
  sessions: SessionManager;
  workflows: WorkflowEngine;
  faults: FaultRegistry;
}

function objectBody(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest('The body must be a JSON object');
  return raw as Record<string, unknown>;
}

export function controlRoutes({ registry, sessions, workflows, faults }: ControlDeps): Route[] {
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
            repoPath: p.repoPath,
          })),
          runs: workflows.list(),
          sessions: sessions.list(),
          activeSessions: sessions.active(),
          faults: faults
            .pending()
            .map((f) => ({ ...f, path: f.path instanceof RegExp ? String(f.path) : f.path })),
        }),
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
      pattern: /^\/_sim\/sessions\/([^/]+)\/error\/?$/,
      handler: (_ctx, [id]) => ok(sessions.fail(id)),
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
        sessions.setBehaviour(objectBody(parseJsonBody(ctx)) as SessionBehaviour);
        return ok({});
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/jobs\/([^/]+)\/behaviour\/?$/,
      handler(ctx, [key]) {
        workflows.setJobBehaviour(key, objectBody(parseJsonBody(ctx)) as JobBehaviour);
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
