/**
 * Device run sessions: the state machine of the spec's table, remoteConfig per session type, limits, and
 * the test controls (readiness delay, errors, remoteConfig lag, extra statuses and fields).
 *
 * Simulator choices where the spec says "not shown":
 * - Reaching `maxDurationMinutes` (counted from `startedAt`) or `maxIdleTimeMinutes` of device inactivity
 *   stops the session automatically with status `stopped` and `finishedAt` set, like the stop operation.
 *   "Activity" is a request the session's controller accepts (simulator/controllers/) or
 *   `touchSession()`; polling the session through the HTTP interface is not device activity.
 * - `errored` sessions keep `finishedAt` null (the spec sets it only for the stop operation).
 * - An extra status from `extraStatusBeforeReady` (e.g. `queued`) replaces `new` right after the create
 *   response and lasts until the session becomes ready; such a session counts as active.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import {
  SESSION_TERMINAL,
  type DeviceSessionResource,
  type RemoteConfigResource,
} from '../src/service/contract.js';
import type { Project } from './accounts.js';
import { nextTimestamp, type TimerHandle, type Timers } from './clock.js';
import { controllerUrls } from './controllers/paths.js';
import { notFound } from './errors.js';
import type { SessionRequest } from './session-request.js';

/** The contract's `remoteConfig`, plus the fields of `extraRemoteConfigFields`. */
export type RemoteConfig = RemoteConfigResource & Record<string, unknown>;

/**
 * A session exactly as the service returns it: the contract's resource, except that `status` may also
 * be an extra status a newer service reports (`extraStatusBeforeReady`), which the contract does not list.
 */
export type DeviceSession = Omit<DeviceSessionResource, 'status' | 'remoteConfig'> & {
  /** A SessionStatus, or an extra status configured with `extraStatusBeforeReady`. */
  status: string;
  remoteConfig: RemoteConfig | null;
};

export interface SessionBehaviour {
  /** Time from creation to `in-progress` (the provisioning delay). */
  readinessDelayMs?: number;
  /** The session goes `errored` this long after creation (whether `new` or `in-progress` by then). */
  errorAfterMs?: number;
  /** After becoming `in-progress`, `remoteConfig` stays null this long. */
  remoteConfigLagMs?: number;
  /** argent sessions come without `toolsAuthToken`. */
  omitArgentToken?: boolean;
  /** A status a newer service reports between `new` and `in-progress` (e.g. `queued`, `starting`). */
  extraStatusBeforeReady?: string;
  /** Fields a newer service adds to `remoteConfig` (e.g. `previewApiUrl`, `webPreviewToken`). */
  extraRemoteConfigFields?: Record<string, unknown>;
  /** Length of a simulated minute in ms (for maxDuration/maxIdle auto-stop); default 60 000. */
  minuteMs?: number;
}

/** A change to the session behaviour: a key set to null (or undefined) returns to the default. */
export type SessionBehaviourPatch = { [K in keyof SessionBehaviour]?: SessionBehaviour[K] | null };

/** Why a session ended (simulator detail, not part of the session object). */
export type SessionEnd = 'stop-operation' | 'max-duration' | 'idle-timeout' | 'error';

interface SessionRecord {
  view: DeviceSession;
  project: Project;
  request: SessionRequest;
  behaviour: SessionBehaviour & { readinessDelayMs: number; minuteMs: number };
  timers: Set<TimerHandle>;
  idleTimer?: TimerHandle;
  endedBy?: SessionEnd;
}

const TERMINAL: readonly string[] = SESSION_TERMINAL;

export interface SessionManagerOptions {
  timers: Timers;
  events: EventEmitter;
  baseUrl: () => string;
  readinessDelayMs: number;
  minuteMs: number;
}

const secret = (): string => randomBytes(24).toString('base64url');

export class SessionManager {
  private readonly byId = new Map<string, SessionRecord>();
  private behaviour: SessionBehaviour = {};

  constructor(private readonly opts: SessionManagerOptions) {}

  /** Merges into the behaviour for sessions created afterwards; a key set to null or undefined is cleared. */
  setBehaviour(patch: SessionBehaviourPatch): void {
    const next: Record<string, unknown> = { ...this.behaviour };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || value === undefined) delete next[key];
      else next[key] = value;
    }
    this.behaviour = next as SessionBehaviour;
  }

  get currentBehaviour(): SessionBehaviour {
    return structuredClone(this.behaviour);
  }

  resetBehaviour(): void {
    this.behaviour = {};
  }

  /** Forgets every session (their timers cleared) and the behaviour. */
  reset(): void {
    for (const record of this.byId.values()) {
      for (const handle of record.timers) this.opts.timers.clear(handle);
      record.timers.clear();
    }
    this.byId.clear();
    this.resetBehaviour();
  }

  create(project: Project, request: SessionRequest, maxDurationMinutes: number): DeviceSession {
    const id = randomUUID();
    const now = nextTimestamp(undefined, this.opts.timers.now());
    const base = this.opts.baseUrl();
    let applicationArchiveUrl: string | null = null;
    if (request.applicationArchiveUrl !== undefined) applicationArchiveUrl = request.applicationArchiveUrl;
    else if (request.svcGo === true) {
      const ext = request.platform === 'android' ? 'apk' : 'tar.gz';
      applicationArchiveUrl = `${base}/_artifacts/svc-go/${request.platform}/${request.sdkVersion ?? 'latest'}/svc-go.${ext}`;
    }
    const record: SessionRecord = {
      project,
      request,
      behaviour: {
        ...this.behaviour,
        readinessDelayMs: this.behaviour.readinessDelayMs ?? this.opts.readinessDelayMs,
        minuteMs: this.behaviour.minuteMs ?? this.opts.minuteMs,
      },
      timers: new Set(),
      view: {
        id,
        appId: project.id,
        url: `${base}/accounts/${encodeURIComponent(project.account.name)}/projects/${encodeURIComponent(project.name)}/device-sessions/${id}`,
        jobRunId: randomUUID(),
        name: request.name ?? null,
        type: request.type,
        packageVersion: request.packageVersion ?? null,
        buildId: request.buildId ?? null,
        applicationArchiveUrl,
        platform: request.platform,
        status: 'new',
        remoteConfig: null,
        maxDurationMinutes,
        maxIdleTimeMinutes: request.maxIdleTimeMinutes ?? null,
        startedAt: null,
        finishedAt: null,
        createdAt: now,
        updatedAt: now,
      },
    };
    this.byId.set(id, record);
    this.emit('session-created', record);
    const b = record.behaviour;
    if (b.extraStatusBeforeReady !== undefined) {
      this.schedule(record, 0, () => {
        if (record.view.status === 'new') this.setStatus(record, b.extraStatusBeforeReady!);
      });
    }
    this.schedule(record, b.readinessDelayMs, () => this.becomeReady(record));
    if (b.errorAfterMs !== undefined)
      this.schedule(record, b.errorAfterMs, () => this.end(record, 'errored', 'error'));
    return this.view(record);
  }

  get(id: string): DeviceSession | undefined {
    const record = this.byId.get(id);
    return record && this.view(record);
  }

  projectOf(id: string): Project | undefined {
    return this.byId.get(id)?.project;
  }

  /** The create request of a session (the controllers read its `deviceIdentifier`). */
  requestOf(id: string): SessionRequest | undefined {
    return this.byId.get(id)?.request;
  }

  endedBy(id: string): SessionEnd | undefined {
    return this.byId.get(id)?.endedBy;
  }

  list(): DeviceSession[] {
    return [...this.byId.values()].map((r) => this.view(r));
  }

  /** Sessions not yet stopped or errored (a paid device may be running). */
  active(): DeviceSession[] {
    return this.list().filter((s) => !TERMINAL.includes(s.status));
  }

  /** The stop operation: an active session becomes `stopped`; a terminal one is returned unchanged. */
  stop(id: string): DeviceSession {
    const record = this.require(id);
    if (!TERMINAL.includes(record.view.status)) this.end(record, 'stopped', 'stop-operation');
    return this.view(record);
  }

  /** Moves an active session to `errored` now; a terminal session is left unchanged. */
  fail(id: string): DeviceSession {
    const record = this.require(id);
    if (!TERMINAL.includes(record.view.status)) this.end(record, 'errored', 'error');
    return this.view(record);
  }

  /** Provisioning finishes now: a session not yet ready becomes `in-progress` (no-op otherwise). */
  ready(id: string): DeviceSession {
    const record = this.require(id);
    this.becomeReady(record);
    return this.view(record);
  }

  /** Simulated device activity: restarts the idle timer of an in-progress session. */
  touch(id: string): void {
    const record = this.require(id);
    if (record.view.status === 'in-progress') this.armIdleTimer(record);
  }

  private require(id: string): SessionRecord {
    const record = this.byId.get(id);
    if (!record) throw notFound(`No device run session with id ${id}`);
    return record;
  }

  private view(record: SessionRecord): DeviceSession {
    return structuredClone(record.view);
  }

  private schedule(record: SessionRecord, ms: number, fn: () => void): TimerHandle | undefined {
    const handle = this.opts.timers.set(() => {
      record.timers.delete(handle!);
      fn();
    }, ms);
    if (handle) record.timers.add(handle);
    return handle;
  }

  private setStatus(record: SessionRecord, status: string): void {
    record.view.status = status;
    this.touchRecord(record);
  }

  private touchRecord(record: SessionRecord): void {
    record.view.updatedAt = nextTimestamp(record.view.updatedAt, this.opts.timers.now());
    this.emit('session-status', record);
  }

  private emit(event: 'session-created' | 'session-status', record: SessionRecord): void {
    try {
      this.opts.events.emit(event, this.view(record));
    } catch (error) {
      console.error(`simulator: a '${event}' listener threw:`, error);
    }
  }

  private becomeReady(record: SessionRecord): void {
    // Already ready (made ready early through the control route) or already ended.
    if (record.view.startedAt !== null || TERMINAL.includes(record.view.status)) return;
    const config = this.remoteConfigFor(record);
    const lag = record.behaviour.remoteConfigLagMs ?? 0;
    record.view.status = 'in-progress';
    record.view.startedAt = nextTimestamp(record.view.updatedAt, this.opts.timers.now());
    record.view.remoteConfig = lag > 0 ? null : config;
    this.touchRecord(record);
    if (lag > 0) {
      this.schedule(record, lag, () => {
        if (record.view.status !== 'in-progress') return;
        record.view.remoteConfig = config;
        this.touchRecord(record);
      });
    }
    const minute = record.behaviour.minuteMs;
    this.schedule(record, record.view.maxDurationMinutes * minute, () =>
      this.end(record, 'stopped', 'max-duration'),
    );
    this.armIdleTimer(record);
  }

  private armIdleTimer(record: SessionRecord): void {
    const idle = record.view.maxIdleTimeMinutes;
    if (idle === null) return;
    if (record.idleTimer) {
      this.opts.timers.clear(record.idleTimer);
      record.timers.delete(record.idleTimer);
    }
    record.idleTimer = this.schedule(record, idle * record.behaviour.minuteMs, () =>
      this.end(record, 'stopped', 'idle-timeout'),
    );
  }

  private end(record: SessionRecord, status: 'stopped' | 'errored', reason: SessionEnd): void {
    if (TERMINAL.includes(record.view.status)) return;
    for (const handle of record.timers) this.opts.timers.clear(handle);
    record.timers.clear();
    record.endedBy = reason;
    record.view.status = status;
    record.view.remoteConfig = null;
    if (status === 'stopped')
      record.view.finishedAt = nextTimestamp(record.view.updatedAt, this.opts.timers.now());
    this.touchRecord(record);
  }

  private remoteConfigFor(record: SessionRecord): RemoteConfig {
    const { type, platform, deviceIdentifier } = record.request;
    // Served by simulator/controllers/ while the session is in-progress.
    const urls = controllerUrls(this.opts.baseUrl(), record.view.id);
    // Only iOS sessions provide a browser preview; Android sessions have none.
    const preview = platform === 'ios' ? { webPreviewUrl: urls.preview } : {};
    let config: RemoteConfigResource;
    switch (type) {
      case 'agent-device':
        config = {
          agentDeviceRemoteSessionUrl: urls.agentDevice,
          agentDeviceRemoteSessionToken: secret(),
          ...preview,
        };
        break;
      case 'argent':
        config = {
          toolsUrl: urls.argent,
          ...(record.behaviour.omitArgentToken ? {} : { toolsAuthToken: secret() }),
          ...preview,
        };
        break;
      case 'appium':
        config = {
          appiumUrl: urls.appium,
          capabilities:
            platform === 'ios'
              ? {
                  platformName: 'iOS',
                  'appium:automationName': 'XCUITest',
                  'appium:deviceName': deviceIdentifier ?? 'iPhone 16',
                  'appium:platformVersion': '18.2',
                }
              : {
                  platformName: 'Android',
                  'appium:automationName': 'UiAutomator2',
                  'appium:deviceName': deviceIdentifier ?? 'pixel_8',
                  'appium:platformVersion': '15',
                },
          ...preview,
        };
        break;
      case 'serve-sim':
        config = { previewUrl: urls.preview };
        break;
    }
    return { ...config, ...structuredClone(record.behaviour.extraRemoteConfigFields ?? {}) };
  }
}
