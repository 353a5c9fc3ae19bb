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
import { oneLine } from '../text/one-line.js';
import { basePathOf } from './base-url.js';
import { ServiceHttp, type HttpSettings } from './http.js';
import type { ZodMiniType } from 'zod/mini';

export type { CreateSessionRequest, DispatchRequest } from './contract.js';

/** Limits a call: no attempt starts after `deadline`; `signal` abandons it at once. */
interface CallLimits {
  deadline?: number;
  signal?: AbortSignal;
}

export class ServiceClient {
  private readonly http: ServiceHttp;
  /** The base URL's path ('' for none): a prefix the service may not have, which a dispatch's 404 names. */
  private readonly basePath: string;

  constructor(settings: HttpSettings) {
    this.http = new ServiceHttp(settings);
    this.basePath = basePathOf(settings.baseUrl);
  }

  dispose(): void {
    this.http.dispose();
  }

  dispatchWorkflow(request: DispatchRequest, limits: CallLimits = {}): Promise<DispatchedRun> {
    const call = {
      operation: `Dispatching workflow ${request.fileName}`,
      what: 'run',
      path: '/v2/workflows/dispatch',
      notFound: dispatchNotFound(request, this.basePath),
      forbidden: dispatchForbidden(request.appId),
    };
    return this.create(call, request, dispatchedRunSchema, limits);
  }

  getWorkflowRun(runId: string, limits: CallLimits = {}): Promise<WorkflowRun> {
    const path = (id: string) => `/v2/workflows/runs/${id}`;
    const call = { verb: 'Reading', what: 'workflow run', path, notFound: noSuch('workflow run') };
    return this.byId(runId, { ...call, schema: workflowRunSchema }, limits);
  }

  createDeviceSession(request: CreateSessionRequest, limits: CallLimits = {}): Promise<DeviceSession> {
    const call = {
      operation: 'Creating the device session',
      what: 'session',
      path: '/v2/device-run-sessions',
      notFound: `Not found (404): there is no project with the id ${shownId(request.appId)} that \`app-id\` gives`,
      forbidden: SESSION_ROLE,
    };
    return this.create(call, request, deviceSessionSchema, limits);
  }

  getDeviceSession(sessionId: string, limits: CallLimits = {}): Promise<DeviceSession> {
    const path = (id: string) => `/v2/device-run-sessions/${id}`;
    const call = {
      verb: 'Reading',
      what: 'device session',
      path,
      notFound: noSuch('device session'),
      forbidden: SESSION_ROLE,
    };
    return this.byId(sessionId, { ...call, schema: deviceSessionSchema }, limits);
  }

  /**
   * A read of a run by an id that is not a UUID, which the spec answers 400: the dry run's second
   * read, because a server that answers every path with a 404 (GitHub's `{"message":"Not Found"}`,
   * a gateway under a path) answers the first one, of a random UUID, as the service does. The id is
   * a fixed word of plain letters, so the path goes nowhere else. Resolves only on a 2xx.
   */
  async readRunByIdNotAUuid(limits: CallLimits = {}): Promise<void> {
    await this.http.request({
      operation: `Reading workflow run ${NOT_A_UUID} (an id that is not a UUID)`,
      method: 'GET',
      path: `/v2/workflows/runs/${NOT_A_UUID}`,
      idempotent: true,
      schema: workflowRunSchema,
      ...limits,
    });
  }

  /** Stop is idempotent on the service (a terminal session is returned unchanged), so it is retried like a read. */
  stopDeviceSession(sessionId: string, limits: CallLimits = {}): Promise<DeviceSession> {
    const path = (id: string) => `/v2/device-run-sessions/${id}/stop`;
    const call = {
      verb: 'Stopping',
      what: 'device session',
      method: 'POST' as const,
      path,
      notFound: noSuch('device session'),
      forbidden: SESSION_ROLE,
    };
    return this.byId(sessionId, { ...call, schema: deviceSessionSchema }, limits);
  }

  /**
   * A POST that makes something new: not idempotent, so never retried once it may have arrived
   * (retry.ts). The id goes into every later path: an answer the action cannot name is one it cannot follow.
   */
  private async create<T extends { id: string }>(
    call: { operation: string; what: string; path: string; notFound: string; forbidden: string },
    body: unknown,
    schema: ZodMiniType<T>,
    limits: CallLimits,
  ): Promise<T> {
    const { operation, what, path, notFound, forbidden } = call;
    const answer = await this.http.request({
      operation,
      method: 'POST',
      path,
      notFound,
      forbidden,
      body,
      idempotent: false,
      schema,
      ...limits,
    });
    if (!isUuid(answer.id)) throw answeredBadId(operation, what, answer.id);
    return answer;
  }

  /**
   * An idempotent call about one resource by id (a read, or a stop): retried, and its answer must be
   * about that resource: an answer about another does not confirm anything about this one.
   */
  private async byId<T extends { id: string }>(
    id: string,
    call: ByIdCall<T>,
    limits: CallLimits,
  ): Promise<T> {
    const operation = `${call.verb} ${call.what} ${shownId(id)}`;
    const answer = await this.http.request({
      operation,
      method: call.method ?? 'GET',
      path: call.path(pathId(operation, call.what, id)),
      idempotent: true,
      notFound: call.notFound,
      forbidden: call.forbidden,
      schema: call.schema,
      ...limits,
    });
    return sameId(operation, call.what, id, answer);
  }
}

interface ByIdCall<T> {
  verb: string;
  what: string;
  method?: 'GET' | 'POST';
  /** The path, given the id once it is known to be a UUID. */
  path: (id: string) => string;
  /** What a 404 means, when it means more than "not found". */
  notFound?: string;
  /** What a 403 needs, where the spec says it. */
  forbidden?: string;
  schema: ZodMiniType<T>;
}

/** The spec's minimum role for device sessions (create, read, stop): what their 403 needs. */
const SESSION_ROLE =
  'the token needs access to the project and a role that allows this operation (Developer or above for device sessions)';

/**
 * The spec's 404 of a read or stop by id: no such resource. A resource of a project the token cannot
 * reach is a 403 there, so a 404 never means "not visible to this token".
 */
const noSuch = (what: string): string => `Not found (404): there is no ${what} with that id`;

/** The id of the dry run's second read: no UUID, and nothing a path could misread. */
const NOT_A_UUID = 'not-a-uuid';

/**
 * The spec's 404 of a dispatch: the ref, or the file on it, is not in the project's repository. A
 * base URL with a path may also put a server's 404 in the service's shape there (a gateway that
 * serves other things under /api), so its path is named too: the user may have typed either.
 */
function dispatchNotFound(request: DispatchRequest, basePath: string): string {
  const orPath = basePath
    ? `, or the path ${oneLine(basePath, 100)} of the base URL (\`base-url\`) is not the service's`
    : '';
  return (
    `Not found (404): the Git ref ${oneLine(request.gitRef, 100)} (\`git-ref\`) does not exist in the repository linked to the project, ` +
    `or the workflow file ${oneLine(request.fileName, 100)} (\`workflow\`) is not on that ref${orPath}`
  );
}

/** The spec's 403 of a dispatch: the token has no access to the project `appId` names. */
function dispatchForbidden(appId: string): string {
  return (
    `the token has no access to project ${shownId(appId)}: check \`app-id\`, and that the token ` +
    "(a robot's or a person's, of the account that owns the project) has access to that project and a role that may dispatch workflows"
  );
}

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
