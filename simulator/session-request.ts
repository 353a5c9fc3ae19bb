/**
 * Validation of `POST /v2/device-run-sessions` bodies: every rule of the spec's request table and rules
 * 1–4. Strict where the client is tolerant: it rejects what the real service rejects. The request's
 * shape, the enumerations and the limits come from the shared contract, so a field the client sends is
 * a field this checks.
 */
import {
  isUuid,
  PLATFORMS,
  SESSION_LIMITS,
  SESSION_TYPES,
  type CreateSessionRequest,
  type Platform,
  type SessionType,
} from '../src/service/contract.js';
import type { Account } from './accounts.js';
import { ApiError, badRequest } from './errors.js';

/** A valid create request, with the service's default `type` applied. */
export type SessionRequest = CreateSessionRequest & { type: SessionType };
type OptionalField = Exclude<keyof CreateSessionRequest, 'appId' | 'platform' | 'type'>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Checks the body's own rules (everything that needs no account). Every problem is reported, each
 * message naming its field. Absent fields are omitted; an explicit `null` is rejected as a wrong type
 * (the spec shows no nullable request field). Fields not in the table are ignored.
 */
export function validateSessionRequest(body: unknown): SessionRequest {
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  const errors: string[] = [];
  const has = (field: string): boolean => body[field] !== undefined;
  const str = (field: string): string | undefined => {
    if (!has(field)) return undefined;
    const value = body[field];
    if (typeof value !== 'string') {
      errors.push(`${field} must be a string`);
      return undefined;
    }
    return value;
  };
  const int = (field: string): number | undefined => {
    if (!has(field)) return undefined;
    const value = body[field];
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      errors.push(`${field} must be an integer`);
      return undefined;
    }
    return value;
  };

  const appId = body['appId'];
  if (appId === undefined) errors.push('appId is required');
  else if (typeof appId !== 'string' || !isUuid(appId)) errors.push('appId must be a valid UUID');

  const platform = body['platform'];
  if (platform === undefined) errors.push('platform is required (android or ios)');
  else if (!(PLATFORMS as readonly unknown[]).includes(platform))
    errors.push('platform must be one of: android, ios');

  const name = str('name');
  if (name !== undefined) {
    if (name.trim() === '') errors.push('name must not be blank');
    else if (name.length > SESSION_LIMITS.nameLength)
      errors.push(`name must be at most ${SESSION_LIMITS.nameLength} characters`);
  }

  let type: SessionType = 'agent-device';
  if (has('type')) {
    if ((SESSION_TYPES as readonly unknown[]).includes(body['type'])) type = body['type'] as SessionType;
    else errors.push(`type must be one of: ${SESSION_TYPES.join(', ')}`);
  }

  const packageVersion = str('packageVersion');
  if (packageVersion !== undefined && packageVersion.trim() === '')
    errors.push('packageVersion must not be blank');
  const deviceIdentifier = str('deviceIdentifier');
  if (deviceIdentifier !== undefined && deviceIdentifier.trim() === '') {
    errors.push('deviceIdentifier must not be blank');
  }

  const maxDurationMinutes = int('maxDurationMinutes');
  if (
    maxDurationMinutes !== undefined &&
    (maxDurationMinutes < 0 || maxDurationMinutes > SESSION_LIMITS.maxDurationMinutes)
  ) {
    errors.push(`maxDurationMinutes must be between 0 and ${SESSION_LIMITS.maxDurationMinutes} inclusive`);
  }
  const maxIdleTimeMinutes = int('maxIdleTimeMinutes');
  if (maxIdleTimeMinutes !== undefined) {
    const below = SESSION_LIMITS.maxIdleTimeMinutesExclusive;
    if (maxIdleTimeMinutes <= 0 || maxIdleTimeMinutes >= below) {
      errors.push(`maxIdleTimeMinutes must be positive and less than ${below}`);
    } else if (maxDurationMinutes !== undefined && maxIdleTimeMinutes >= maxDurationMinutes) {
      errors.push('maxIdleTimeMinutes must be smaller than maxDurationMinutes');
    }
    if (type === 'serve-sim') errors.push('maxIdleTimeMinutes is not supported for session type serve-sim');
  }
  if (type === 'serve-sim' && platform === 'android') {
    errors.push('type serve-sim is only available for platform ios');
  }

  let buildId: string | undefined;
  if (has('buildId')) {
    const value = body['buildId'];
    if (typeof value === 'string' && isUuid(value)) buildId = value;
    else errors.push('buildId must be a valid UUID');
  }
  const applicationArchiveUrl = str('applicationArchiveUrl');
  if (applicationArchiveUrl !== undefined) {
    if (applicationArchiveUrl.length > SESSION_LIMITS.applicationArchiveUrlLength) {
      errors.push(
        `applicationArchiveUrl must be at most ${SESSION_LIMITS.applicationArchiveUrlLength} characters`,
      );
    } else if (!isHttpUrl(applicationArchiveUrl)) {
      errors.push('applicationArchiveUrl must be an http or https URL');
    }
  }
  let svcGo: boolean | undefined;
  if (has('svcGo')) {
    if (typeof body['svcGo'] === 'boolean') svcGo = body['svcGo'];
    else errors.push('svcGo must be a boolean');
  }
  const sources = [
    has('buildId') && 'buildId',
    has('applicationArchiveUrl') && 'applicationArchiveUrl',
    svcGo === true && 'svcGo',
  ].filter((s): s is string => typeof s === 'string');
  if (sources.length > 1) {
    errors.push(
      `At most one application source may be given, got ${sources.join(', ')} (buildId, applicationArchiveUrl, svcGo)`,
    );
  }

  const sdkVersion = str('sdkVersion');
  if (has('sdkVersion')) {
    if (sdkVersion !== undefined && sdkVersion.trim() === '') errors.push('sdkVersion must not be blank');
    if (svcGo !== true) errors.push('sdkVersion is only valid with svcGo: true');
  }

  let launchArgs: string[] | undefined;
  if (has('launchArgs')) {
    const value = body['launchArgs'];
    if (Array.isArray(value) && value.every((a) => typeof a === 'string')) launchArgs = value;
    else errors.push('launchArgs must be an array of strings');
    if (sources.length === 0) {
      errors.push(
        'launchArgs requires an application source (buildId, applicationArchiveUrl or svcGo: true)',
      );
    }
  }
  const openUrl = str('openUrl');
  if (has('openUrl')) {
    if (openUrl !== undefined && openUrl.trim() === '') errors.push('openUrl must not be blank');
    if (sources.length === 0) {
      errors.push('openUrl requires an application source (buildId, applicationArchiveUrl or svcGo: true)');
    }
  }

  if (errors.length) throw ApiError.validation(errors);
  // Every optional field of the shared request type must be read above: a field added to the contract
  // fails to compile here until the simulator validates it.
  const optional = {
    name,
    packageVersion,
    deviceIdentifier,
    maxDurationMinutes,
    maxIdleTimeMinutes,
    buildId,
    applicationArchiveUrl,
    svcGo,
    sdkVersion,
    launchArgs,
    openUrl,
  } satisfies { [K in OptionalField]-?: CreateSessionRequest[K] | undefined };
  const request: SessionRequest = { appId: appId as string, platform: platform as Platform, type };
  return Object.assign(
    request,
    Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  );
}

/**
 * The account-level rules, checked once the project is known: rule 4 (feature enabled) and the
 * account's duration limit. Returns the effective `maxDurationMinutes` (account default when omitted,
 * capped by the limit).
 */
export function applyAccountRules(account: Account, request: SessionRequest): number {
  if (!account.deviceSessions) {
    throw badRequest(
      `Remote device sessions are not enabled for account "${account.name}" (limited-access preview)`,
      'FEATURE_NOT_ENABLED',
    );
  }
  const limit = Math.min(account.maxDurationLimitMinutes, SESSION_LIMITS.maxDurationMinutes);
  const duration = request.maxDurationMinutes;
  if (duration !== undefined && duration > limit) {
    throw badRequest(
      `maxDurationMinutes ${duration} exceeds the account's duration limit of ${limit} minutes`,
    );
  }
  // The spec compares maxIdleTimeMinutes with maxDurationMinutes only when both are set, so an
  // idle time above the account default is accepted.
  const effective = duration ?? Math.min(account.defaultDurationMinutes, limit);
  return effective;
}
