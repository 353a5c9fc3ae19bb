/**
 * The service's operations in its own vocabulary. Each method is one endpoint of
 * service-interface.md; retry behaviour follows from `idempotent` (see retry.ts).
 */
import { ServiceHttp, type HttpSettings } from './http.js';
import { type DeviceSession, type DispatchedRun, type WorkflowRun } from './schemas.js';

export interface DispatchRequest {
  appId: string;
  gitRef: string;
  fileName: string;
  inputs?: Record<string, unknown>;
}

/** The body of POST /v2/device-run-sessions (service-interface.md); fields left undefined are not sent. */
export interface CreateSessionRequest {
  appId: string;
  platform: 'android' | 'ios';
  name?: string;
  type?: string;
  packageVersion?: string;
  deviceIdentifier?: string;
  maxDurationMinutes?: number;
  maxIdleTimeMinutes?: number;
  buildId?: string;
  applicationArchiveUrl?: string;
  svcGo?: boolean;
  sdkVersion?: string;
  launchArgs?: string[];
  openUrl?: string;
}

/** Limits a call: no attempt starts after `deadline`; `signal` abandons it at once. */
export interface CallLimits {
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

  dispatchWorkflow(request: DispatchRequest, limits: CallLimits = {}): Promise<DispatchedRun> {
    return this.http.request({
      operation: `Dispatching workflow ${request.fileName}`,
      method: 'POST',
      path: '/v2/workflows/dispatch',
      body: request,
      idempotent: false,
      schema: (schemas) => schemas.dispatchedRunSchema,
      ...limits,
    });
  }

  getWorkflowRun(runId: string, limits: CallLimits = {}): Promise<WorkflowRun> {
    return this.http.request({
      operation: `Reading workflow run ${runId}`,
      method: 'GET',
      path: `/v2/workflows/runs/${encodeURIComponent(runId)}`,
      idempotent: true,
      schema: (schemas) => schemas.workflowRunSchema,
      ...limits,
    });
  }

  createDeviceSession(request: CreateSessionRequest, limits: CallLimits = {}): Promise<DeviceSession> {
    return this.http.request({
      operation: 'Creating the device session',
      method: 'POST',
      path: '/v2/device-run-sessions',
      body: request,
      idempotent: false,
      schema: (schemas) => schemas.deviceSessionSchema,
      ...limits,
    });
  }

  getDeviceSession(sessionId: string, limits: CallLimits = {}): Promise<DeviceSession> {
    return this.http.request({
      operation: `Reading device session ${sessionId}`,
      method: 'GET',
      path: `/v2/device-run-sessions/${encodeURIComponent(sessionId)}`,
      idempotent: true,
      schema: (schemas) => schemas.deviceSessionSchema,
      ...limits,
    });
  }

  /** Stop is idempotent on the service (a terminal session is returned unchanged), so it is retried like a read. */
  stopDeviceSession(sessionId: string, limits: CallLimits = {}): Promise<DeviceSession> {
    return this.http.request({
      operation: `Stopping device session ${sessionId}`,
      method: 'POST',
      path: `/v2/device-run-sessions/${encodeURIComponent(sessionId)}/stop`,
      idempotent: true,
      schema: (schemas) => schemas.deviceSessionSchema,
      ...limits,
    });
  }
}
