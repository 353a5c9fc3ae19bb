/**
 * The service's operations in its own vocabulary. Each method is one endpoint of
 * service-interface.md; retry behaviour follows from `idempotent` (see retry.ts). Requests,
 * resources and answer schemas come from contract.ts, which the simulator shares.
 */
import { ActionFailure } from '../errors.js';
import {
  deviceSessionSchema,
  dispatchedRunSchema,
  isUuid,
  workflowRunSchema,
  type CreateSessionRequest,
  type DeviceSession,
  type DispatchedRun,
  type DispatchRequest,
  type WorkflowRun,
} from './contract.js';
import { ResponseFormatError } from './errors.js';
import { ServiceHttp, type HttpSettings } from './http.js';

export type { CreateSessionRequest, DispatchRequest } from './contract.js';

/** Limits a call: no attempt starts after `deadline`; `signal` abandons it at once. */
interface CallLimits {
  deadline?: number;
  signal?: AbortSignal;
}

export class ServiceClient {
  private readonly http: ServiceHttp;

  constructor(settings: HttpSettings) {
    this.http = new ServiceHttp(settings);
  }

  dispose(): void {
    this.http.dispose();
  }

  async dispatchWorkflow(request: DispatchRequest, limits: CallLimits = {}): Promise<DispatchedRun> {
    const operation = `Dispatching workflow ${request.fileName}`;
    const run = await this.http.request({
      operation,
      method: 'POST',
      path: '/v2/workflows/dispatch',
      body: request,
      idempotent: false,
      schema: dispatchedRunSchema,
      ...limits,
    });
    // The id goes into every later path: a run the action cannot name is a run it cannot follow.
    if (!isUuid(run.id)) throw answeredBadId(operation, 'run', run.id);
    return run;
  }

  async getWorkflowRun(runId: string, limits: CallLimits = {}): Promise<WorkflowRun> {
    const operation = `Reading workflow run ${shownId(runId)}`;
    const run = await this.http.request({
      operation,
      method: 'GET',
      path: `/v2/workflows/runs/${pathId(operation, 'workflow run', runId)}`,
      idempotent: true,
      notFound: NOT_VISIBLE,
      schema: workflowRunSchema,
      ...limits,
    });
    return sameId(operation, 'workflow run', runId, run);
  }

  async createDeviceSession(request: CreateSessionRequest, limits: CallLimits = {}): Promise<DeviceSession> {
    const operation = 'Creating the device session';
    const session = await this.http.request({
      operation,
      method: 'POST',
      path: '/v2/device-run-sessions',
      body: request,
      idempotent: false,
      schema: deviceSessionSchema,
      ...limits,
    });
    if (!isUuid(session.id)) throw answeredBadId(operation, 'session', session.id);
    return session;
  }

  async getDeviceSession(sessionId: string, limits: CallLimits = {}): Promise<DeviceSession> {
    const operation = `Reading device session ${shownId(sessionId)}`;
    const session = await this.http.request({
      operation,
      method: 'GET',
      path: `/v2/device-run-sessions/${pathId(operation, 'device session', sessionId)}`,
      idempotent: true,
      notFound: NOT_VISIBLE,
      schema: deviceSessionSchema,
      ...limits,
    });
    return sameId(operation, 'device session', sessionId, session);
  }

  /** Stop is idempotent on the service (a terminal session is returned unchanged), so it is retried like a read. */
  async stopDeviceSession(sessionId: string, limits: CallLimits = {}): Promise<DeviceSession> {
    const operation = `Stopping device session ${shownId(sessionId)}`;
    const session = await this.http.request({
      operation,
      method: 'POST',
      path: `/v2/device-run-sessions/${pathId(operation, 'device session', sessionId)}/stop`,
      idempotent: true,
      schema: deviceSessionSchema,
      ...limits,
    });
    // An answer about another session does not confirm that this one stopped.
    return sameId(operation, 'device session', sessionId, session);
  }
}

/** What a 404 on a read by id means: the id is wrong, or the token's account cannot see it. */
const NOT_VISIBLE =
  'Not found (404): it does not exist, or this token cannot see it (another project or account)';

/** An id as it may appear in a message: a UUID as is, anything else only as a hint of its length. */
function shownId(id: string): string {
  return isUuid(id) ? id : `(an id that is not a UUID, ${id.length} characters)`;
}

/**
 * Ids come from inputs, the step's saved state and earlier answers. Only a UUID goes into a path:
 * anything else (`..`, `/`, `?`) could send the request, and the token, to another endpoint.
 */
function pathId(operation: string, what: string, id: string): string {
  if (!isUuid(id)) {
    throw new ActionFailure(
      `${operation} was refused before any request: a ${what} id must be a UUID such as 3f0c8a4e-5b1d-4c2e-9a7f-1b2c3d4e5f60.`,
    );
  }
  return id;
}

function answeredBadId(operation: string, what: string, id: string): ResponseFormatError {
  const reason = `the service answered with a ${what} id that is not a UUID (${id.length} characters), so it cannot be followed`;
  return new ResponseFormatError(`${operation} failed: ${reason}`, reason);
}

function sameId<T extends { id: string }>(operation: string, what: string, asked: string, answer: T): T {
  if (answer.id.toLowerCase() === asked.toLowerCase()) return answer;
  const reason = `the service answered about ${isUuid(answer.id) ? `${what} ${answer.id}` : `another ${what}`}, not the one asked for`;
  throw new ResponseFormatError(`${operation} failed: ${reason}`, reason);
}
