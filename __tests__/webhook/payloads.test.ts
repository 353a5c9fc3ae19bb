/**
 * Build and submission payloads as the spec's tables describe them: every status, every conditional
 * field present and absent, unknown fields kept, and clear errors naming the field (never its value).
 */
import { describe, expect, it } from '@jest/globals';
import {
  detectWebhookEvent,
  parseWebhookBody,
  parseWebhookPayload,
  WebhookPayloadError,
  type BuildPayload,
  type SubmissionPayload,
} from '../../src/webhook/payloads.js';

const APP_ID = '0f9a1d4e-2b3c-4d5e-8f60-718293a4b5c6';
const BUILD_ID = '5e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b';
const USER_ID = '11111111-2222-4333-8444-555555555555';

/** A build payload with every unconditional field of the spec's table, for a finished build. */
function buildFixture(): Record<string, unknown> {
  return {
    id: BUILD_ID,
    accountName: 'acme',
    projectName: 'app',
    buildDetailsPageUrl: `https://expo.example/accounts/acme/projects/app/builds/${BUILD_ID}`,
    appId: APP_ID,
    initiatingUserId: USER_ID,
    cancelingUserId: null,
    platform: 'ios',
    status: 'finished',
    artifacts: { buildUrl: 'https://files.example/app.ipa', logsS3KeyPrefix: `production/${BUILD_ID}` },
    metadata: {
      appName: 'App',
      username: 'robot',
      workflow: 'managed',
      appVersion: '1.2.3',
      appBuildVersion: '45',
      cliVersion: '16.0.0',
      sdkVersion: '54.0.0',
      buildProfile: 'production',
      distribution: 'store',
      appIdentifier: 'com.acme.app',
      gitCommitHash: 'a'.repeat(40),
      gitCommitMessage: 'Release 1.2.3',
      runtimeVersion: '1.2.3',
      reactNativeVersion: '0.81.4',
      trackingContext: {
        platform: 'ios',
        account_id: USER_ID,
        dev_client: false,
        project_id: APP_ID,
        tracking_id: USER_ID,
        project_type: 'managed',
        dev_client_version: '6.0.0',
      },
      credentialsSource: 'remote',
      isGitWorkingTreeDirty: false,
      message: 'nightly',
      runFromCI: true,
    },
    metrics: {
      memory: 4294967296,
      buildEndTimestamp: 1767225900000,
      totalDiskReadBytes: 123456789,
      buildStartTimestamp: 1767225660000,
      totalDiskWriteBytes: 98765432,
      cpuActiveMilliseconds: 512345.5,
      buildEnqueuedTimestamp: 1767225600000,
      totalNetworkEgressBytes: 1234567,
      totalNetworkIngressBytes: 765432100,
    },
    createdAt: '2026-01-01T00:00:00.000Z',
    enqueuedAt: '2026-01-01T00:00:00.120Z',
    provisioningStartedAt: '2026-01-01T00:00:30.000Z',
    workerStartedAt: '2026-01-01T00:01:00.000Z',
    completedAt: '2026-01-01T00:05:00.000Z',
    updatedAt: '2026-01-01T00:05:00.001Z',
    expirationDate: '2026-01-31T00:05:00.000Z',
    priority: 'normal',
    resourceClass: 'medium',
    actualResourceClass: 'ios-m-medium',
    maxRetryTimeMinutes: 1440,
  };
}

function submissionFixture(): Record<string, unknown> {
  return {
    id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    accountName: 'acme',
    projectName: 'app',
    submissionDetailsPageUrl: 'https://expo.example/accounts/acme/projects/app/submissions/9a8b7c6d',
    appId: APP_ID,
    archiveUrl: 'https://files.example/app.aab',
    initiatingUserId: USER_ID,
    cancelingUserId: null,
    platform: 'android',
    status: 'finished',
    submissionInfo: { logsUrl: 'https://logs.example/submission' },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:02:00.000Z',
    completedAt: '2026-01-01T00:02:00.000Z',
    maxRetryTimeMinutes: 60,
  };
}

function parseError(value: unknown): string {
  try {
    parseWebhookPayload(value);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookPayloadError);
    return (error as Error).message;
  }
  throw new Error('expected the payload to be refused');
}

describe('build payload', () => {
  it.each(['finished', 'errored', 'canceled'])('parses status %s', (status) => {
    const value = { ...buildFixture(), status };
    const parsed = parseWebhookPayload(value);
    expect(parsed.event).toBe('BUILD');
    expect(parsed.payload.status).toBe(status);
    expect(parsed.payload).toEqual(value);
  });

  it('parses an errored build with its error object and no build URL', () => {
    const fixture = buildFixture();
    const value = {
      ...fixture,
      status: 'errored',
      artifacts: { logsS3KeyPrefix: 'logs/x' },
      error: { message: 'Gradle failed', errorCode: 'EAS_BUILD_UNKNOWN_GRADLE_ERROR' },
    };
    const { payload } = parseWebhookPayload(value) as { payload: BuildPayload };
    expect(payload.error).toEqual({ message: 'Gradle failed', errorCode: 'EAS_BUILD_UNKNOWN_GRADLE_ERROR' });
    expect(payload.artifacts.buildUrl).toBeUndefined();
    expect(payload.artifacts.logsS3KeyPrefix).toBe('logs/x');
  });

  it('parses a canceled build with a canceling user', () => {
    const { payload } = parseWebhookPayload({
      ...buildFixture(),
      status: 'canceled',
      cancelingUserId: USER_ID,
    });
    expect(payload.cancelingUserId).toBe(USER_ID);
  });

  it.each([
    ['parentBuildId (a retry)', { parentBuildId: USER_ID }, (p: BuildPayload) => p.parentBuildId, USER_ID],
    [
      'metadata.channel',
      { metadata: { channel: 'production' } },
      (p: BuildPayload) => p.metadata.channel,
      'production',
    ],
    [
      'metadata.releaseChannel',
      { metadata: { releaseChannel: 'default' } },
      (p: BuildPayload) => p.metadata.releaseChannel,
      'default',
    ],
    [
      'artifacts.buildUrl',
      { artifacts: { buildUrl: 'https://x/app.apk', logsS3KeyPrefix: 'p' } },
      (p: BuildPayload) => p.artifacts.buildUrl,
      'https://x/app.apk',
    ],
    [
      'error',
      { error: { message: 'boom', errorCode: 'E1' } },
      (p: BuildPayload) => p.error,
      { message: 'boom', errorCode: 'E1' },
    ],
  ])('keeps the conditional field %s when present, and parses without it', (_name, extra, pick, expected) => {
    const base = buildFixture();
    const merged: Record<string, unknown> = { ...base, ...extra };
    if ('metadata' in extra) merged.metadata = { ...(base.metadata as object), ...extra.metadata };
    const { payload } = parseWebhookPayload(merged) as { payload: BuildPayload };
    expect(pick(payload)).toEqual(expected);

    const without = buildFixture();
    delete (without.artifacts as Record<string, unknown>).buildUrl;
    const parsed = parseWebhookPayload(without) as { payload: BuildPayload };
    expect(pick(parsed.payload)).toBeUndefined();
  });

  it.each([
    ['parentBuildId', { parentBuildId: 'not-a-uuid' }, '`parentBuildId` must be a UUID'],
    ['error without errorCode', { error: { message: 'x' } }, '`error.errorCode` is missing'],
    [
      'artifacts.buildUrl as a number',
      { artifacts: { buildUrl: 1, logsS3KeyPrefix: 'p' } },
      '`artifacts.buildUrl` must be a string, not a number',
    ],
    [
      'metadata.channel as a boolean',
      { metadata: { channel: true } },
      '`metadata.channel` must be a string, not a boolean',
    ],
  ])('refuses a conditional field of the wrong type: %s', (_name, extra, message) => {
    expect(parseError({ ...buildFixture(), ...extra })).toContain(message);
  });

  it('keeps unknown fields from a newer service, at every level', () => {
    const value = {
      ...buildFixture(),
      gitRef: 'main',
      metrics: { ...(buildFixture().metrics as object), gpu: 1 },
    };
    const { payload } = parseWebhookPayload(value);
    expect(payload).toEqual(value);
  });

  it('passes on an unknown status instead of refusing an authentic delivery', () => {
    expect(parseWebhookPayload({ ...buildFixture(), status: 'expired' }).payload.status).toBe('expired');
  });

  it('tolerates missing metadata and metrics entries, but not wrong types in them', () => {
    const value = { ...buildFixture(), metadata: {}, metrics: {} };
    expect(parseWebhookPayload(value).event).toBe('BUILD');
    expect(parseError({ ...buildFixture(), metrics: { memory: '4 GB' } })).toContain(
      '`metrics.memory` must be a number, not a string',
    );
  });

  it.each([
    ['id', '`id` is missing'],
    ['appId', '`appId` is missing'],
    ['platform', '`platform` is missing'],
    ['metadata', '`metadata` is missing'],
    ['completedAt', '`completedAt` is missing'],
    ['cancelingUserId', '`cancelingUserId` is missing'],
    ['maxRetryTimeMinutes', '`maxRetryTimeMinutes` is missing'],
  ])('names a missing required field: %s', (field, message) => {
    const value = buildFixture();
    delete value[field];
    expect(parseError(value)).toContain(`The payload is not a valid build payload: ${message}`);
  });

  it('names wrongly typed fields without echoing their values', () => {
    const message = parseError({
      ...buildFixture(),
      platform: 'windows',
      completedAt: '01/01/2026 secret-value',
      maxRetryTimeMinutes: 1.5,
    });
    expect(message).toContain('`platform` must be one of android, ios');
    expect(message).toContain('`completedAt` must be an ISO 8601 UTC timestamp');
    expect(message).toContain('`maxRetryTimeMinutes` must be an integer, not a fractional number');
    expect(message).not.toContain('secret-value');
    expect(message).not.toContain('windows');
  });
});

describe('submission payload', () => {
  it.each(['finished', 'errored', 'canceled'])('parses status %s', (status) => {
    const value = { ...submissionFixture(), status };
    const parsed = parseWebhookPayload(value);
    expect(parsed.event).toBe('SUBMIT');
    expect(parsed.payload).toEqual(value);
  });

  it.each([
    [
      'parentSubmissionId (a retry)',
      { parentSubmissionId: USER_ID },
      (p: SubmissionPayload) => p.parentSubmissionId,
      USER_ID,
    ],
    [
      'turtleBuildId (a build of the service)',
      { turtleBuildId: BUILD_ID },
      (p: SubmissionPayload) => p.turtleBuildId,
      BUILD_ID,
    ],
    [
      'submissionInfo.error',
      {
        status: 'errored',
        submissionInfo: { logsUrl: 'l', error: { message: 'rejected', errorCode: 'SUBMISSION_FAILED' } },
      },
      (p: SubmissionPayload) => p.submissionInfo.error,
      { message: 'rejected', errorCode: 'SUBMISSION_FAILED' },
    ],
  ])('keeps the conditional field %s when present, and parses without it', (_name, extra, pick, expected) => {
    const { payload } = parseWebhookPayload({ ...submissionFixture(), ...extra }) as {
      payload: SubmissionPayload;
    };
    expect(pick(payload)).toEqual(expected);
    const parsed = parseWebhookPayload(submissionFixture()) as { payload: SubmissionPayload };
    expect(pick(parsed.payload)).toBeUndefined();
  });

  it('refuses conditional fields of the wrong type', () => {
    expect(parseError({ ...submissionFixture(), turtleBuildId: 42 })).toContain(
      '`turtleBuildId` must be a string, not a number',
    );
    expect(
      parseError({ ...submissionFixture(), submissionInfo: { logsUrl: 'l', error: 'failed' } }),
    ).toContain('`submissionInfo.error` must be an object, not a string');
  });

  it('names missing required fields', () => {
    const value = submissionFixture();
    delete value.archiveUrl;
    delete value.completedAt;
    // A submission without logs is one the spec allows (one canceled before it ran): not named.
    delete (value.submissionInfo as Record<string, unknown>).logsUrl;
    const message = parseError(value);
    expect(message).toContain('not a valid submission payload');
    expect(message).toContain('`archiveUrl` is missing');
    expect(message).toContain('`completedAt` is missing');
    expect(message).not.toContain('logsUrl');
  });
});

describe('telling BUILD from SUBMIT', () => {
  it('uses the fields only one kind has', () => {
    expect(detectWebhookEvent(buildFixture())).toBe('BUILD');
    expect(detectWebhookEvent({ artifacts: {} })).toBe('BUILD');
    expect(detectWebhookEvent(submissionFixture())).toBe('SUBMIT');
    expect(detectWebhookEvent({ archiveUrl: 'x' })).toBe('SUBMIT');
    expect(detectWebhookEvent({ id: 'x', status: 'finished' })).toBeUndefined();
    expect(detectWebhookEvent({ ...buildFixture(), archiveUrl: 'x' })).toBeUndefined();
    expect(detectWebhookEvent([buildFixture()])).toBeUndefined();
  });

  it('refuses a body that is neither, or both', () => {
    expect(parseError({ id: BUILD_ID, status: 'finished' })).toMatch(
      /neither a build payload .* nor a submission payload/,
    );
    expect(parseError({ ...buildFixture(), ...submissionFixture() })).toMatch(
      /both a build and a submission payload/,
    );
    expect(parseError([1])).toBe('The payload is JSON but not an object (it is an array).');
    expect(parseError(null)).toBe('The payload is JSON but not an object (it is null).');
  });
});

describe('parseWebhookBody', () => {
  it('decodes raw UTF-8 bytes and returns the JSON as sent', () => {
    const text = JSON.stringify({ ...buildFixture(), note: 'café ✓' });
    const result = parseWebhookBody(Buffer.from(text, 'utf8'));
    expect(result.event).toBe('BUILD');
    expect(result.json).toEqual(JSON.parse(text));
    expect(parseWebhookBody(text).payload.id).toBe(BUILD_ID);
  });

  it.each([
    ['empty', Buffer.alloc(0), 'The payload is empty; expected a JSON object.'],
    ['not JSON', Buffer.from('id=1&status=finished'), 'The payload is not valid JSON.'],
    [
      'invalid UTF-8',
      Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      'The payload is not UTF-8 text, so it is not a JSON webhook payload.',
    ],
    ['a JSON string', Buffer.from('"hello"'), 'The payload is JSON but not an object (it is a string).'],
  ])('refuses a body that is %s', (_name, body, message) => {
    expect(() => parseWebhookBody(body)).toThrow(WebhookPayloadError);
    expect(() => parseWebhookBody(body)).toThrow(message);
  });
});
