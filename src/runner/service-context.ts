/**
 * What the domain code (following a run, waiting for a session, stopping one) works with: where it
 * writes, the service client of the step, and the step's cancellation. The commands build it.
 */
import type { ActionIO } from './io.js';
import type { ServiceClient } from '../service/client.js';

/** What the code shared by several commands (following a run, waiting for a session) works with. */
export interface ServiceContext {
  io: ActionIO;
  client: ServiceClient;
  signal?: AbortSignal;
}
