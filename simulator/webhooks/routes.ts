/**
 * Control routes for webhooks (the service's own HTTP endpoints for webhooks are "not shown"):
 *   GET    /_sim/webhooks               the configured webhooks (without secrets)
 *   POST   /_sim/webhooks               body: { projectId, event: BUILD|SUBMIT, url, secret } → the webhook
 *   DELETE /_sim/webhooks/:id
 *   GET    /_sim/webhook-deliveries     every delivery attempt, oldest first
 */
import { badRequest, notFound } from '../errors.js';
import { ok, parseJsonBody, type Route } from '../server.js';
import type { WebhookEvent } from '../../src/webhook/payloads.js';
import type { WebhookDispatcher } from './delivery.js';

export function webhookControlRoutes(
  dispatcher: WebhookDispatcher,
  hasProject: (id: string) => boolean,
): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/_sim\/webhooks\/?$/,
      handler: () => ok(dispatcher.list()),
    },
    {
      method: 'POST',
      pattern: /^\/_sim\/webhooks\/?$/,
      handler(ctx) {
        const body = parseJsonBody(ctx);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw badRequest('The body must be a JSON object: { projectId, event, url, secret }');
        }
        const { projectId, event, url, secret } = body as Record<string, unknown>;
        if (typeof projectId !== 'string' || !hasProject(projectId))
          throw badRequest('projectId must be the id of a project');
        if (typeof url !== 'string' || typeof secret !== 'string')
          throw badRequest('url and secret must be strings');
        try {
          return ok(dispatcher.add({ projectId, event: event as WebhookEvent, url, secret }));
        } catch (error) {
          throw badRequest((error as Error).message);
        }
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/_sim\/webhooks\/([^/]+)\/?$/,
      handler(_ctx, [id]) {
        if (!dispatcher.remove(id)) throw notFound(`No webhook with id ${id}`);
        return ok({});
      },
    },
    {
      method: 'GET',
      pattern: /^\/_sim\/webhook-deliveries\/?$/,
      handler: () => ok(dispatcher.deliveries),
    },
  ];
}
