/**
 * Webhook deliveries for the recipes, the relay test, `npm run recipe` and the demo: a run whose
 * completed builds make the simulator sign and send its webhooks, the deliveries a receiver got, and
 * the `repository_dispatch` event the README's relay makes of one (verify-webhook/README.md).
 */
import type { Simulator } from '../../simulator/index.js';
import type { Json } from '../runner/expressions.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/** One delivery as the receiver got it: the raw body and its `svc-signature` header. */
export interface Delivery {
  body: Buffer;
  signature: string;
}

/** A receiver that acknowledges every delivery, set up as the project's BUILD webhook with `secret`. */
export async function receiveBuildWebhooks(
  sim: Simulator,
  project: { id: string },
  secret: string,
): Promise<Receiver> {
  const receiver = await startReceiver(() => 200);
  sim.webhooks.add({ projectId: project.id, event: 'BUILD', url: receiver.url, secret });
  return receiver;
}

/**
 * Dispatches `fileName` on main, then waits for the run to end and for every webhook delivery it
 * caused (acknowledged, or given up after the simulator's attempts).
 */
export async function runAndDeliver(
  sim: Simulator,
  project: { id: string },
  token: string,
  fileName: string,
): Promise<void> {
  const reply = await fetch(`${sim.url}/v2/workflows/dispatch`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appId: project.id, gitRef: 'main', fileName }),
  });
  if (!reply.ok) throw new Error(`dispatch of ${fileName}: ${reply.status} ${await reply.text()}`);
  const runId = ((await reply.json()) as { data: { id: string } }).data.id;
  // The simulator runs in this process: waiting on its own state, not on a clock.
  while (!['success', 'failure', 'canceled'].includes(sim.getRun(runId)?.status ?? ''))
    await new Promise((resolve) => setTimeout(resolve, 10));
  await sim.webhooks.idle();
}

/** The deliveries `receiver` got, in order. */
export function deliveriesOf(receiver: Receiver): Delivery[] {
  return receiver.received.map((request) => ({
    body: request.body,
    signature: String(request.headers['svc-signature'] ?? ''),
  }));
}

/**
 * The github context of the `repository_dispatch` event the README's relay makes of `delivery`, in the
 * repository `acme/app` of GitHub's stand-in at `apiUrl` (where the recipe's release job creates its tag).
 */
export function relayEvent(delivery: Delivery, apiUrl: string): Record<string, Json> {
  return {
    event_name: 'repository_dispatch',
    repository: 'acme/app',
    api_url: apiUrl,
    event: {
      action: 'svc-webhook',
      client_payload: { signature: delivery.signature, body_base64: delivery.body.toString('base64') },
    },
  };
}
