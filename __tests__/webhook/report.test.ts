/**
 * Every job summary and failure sentence of verify-webhook (src/webhook/report.ts), each compared
 * whole: a changed word, line or blank line fails here and shows in review. The inputs are the
 * fields the step reads from a verified payload (webhook/fields.ts), given explicitly.
 */
import type { WebhookFields } from '../../src/webhook/fields.js';
import {
  failedStatusMessage,
  payloadFileShown,
  payloadNotRegularMessage,
  payloadTooLargeMessage,
  payloadUnreadableMessage,
  rejectedMessage,
  renderWebhookRejected,
  renderWebhookSummary,
  unusableMessage,
} from '../../src/webhook/report.js';

const same = (text: string): string => text;
const lines = (...each: string[]): string => each.join('\n');

const BUILD_PAGE =
  'https://svc.example.com/accounts/acme/projects/app/builds/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const build: WebhookFields = {
  event: 'BUILD',
  kind: 'build',
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  status: 'finished',
  platform: 'ios',
  appId: '0d3b9a52-4c1e-4f6a-8b2d-7e9f0a1b2c3d',
  accountName: 'acme',
  projectName: 'app',
  detailsUrl: BUILD_PAGE,
  artifactUrl: 'https://storage.example.com/app.ipa',
  times: {
    createdAt: '2026-11-22T09:30:00.000Z',
    enqueuedAt: '2026-11-22T09:30:05.000Z',
    provisioningStartedAt: '2026-11-22T09:30:35.000Z',
    workerStartedAt: '2026-11-22T09:31:00.000Z',
    completedAt: '2026-11-22T09:42:30.000Z',
  },
};

const erroredBuild: WebhookFields = {
  ...build,
  status: 'errored',
  artifactUrl: undefined,
  error: { errorCode: 'XCODE_BUILD_ERROR', message: 'The archive step failed.' },
  parentId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  times: {
    createdAt: '2026-11-22T09:30:00.000Z',
    enqueuedAt: '2026-11-22T09:30:05.000Z',
    completedAt: '2026-11-22T09:31:00.000Z',
  },
};

const submission: WebhookFields = {
  event: 'SUBMIT',
  kind: 'submission',
  id: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
  status: 'canceled',
  platform: 'android',
  appId: '0d3b9a52-4c1e-4f6a-8b2d-7e9f0a1b2c3d',
  accountName: 'acme',
  projectName: 'app',
  detailsUrl:
    'https://svc.example.com/accounts/acme/projects/app/submissions/4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
  submittedBuildId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  times: { createdAt: '2026-11-22T09:30:00.000Z', completedAt: '2026-11-22T09:30:20.000Z' },
};

describe("verify-webhook's summary", () => {
  test("a build's delivery, verified", () => {
    expect(renderWebhookSummary({ fields: build, failOn: [], deliveryKey: 'k'.repeat(64) }, same)).toBe(
      lines(
        '### Webhook delivery verified: build ✅ finished',
        '',
        '| Build | [9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d](<https://svc.example.com/accounts/acme/projects/app/builds/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d>) |',
        '| --- | --- |',
        '| Event | `BUILD` |',
        '| Status | ✅ finished |',
        '| Platform | ios |',
        '| Project | acme/app |',
        '| App id | `0d3b9a52-4c1e-4f6a-8b2d-7e9f0a1b2c3d` |',
        '| Waited in queue | 30s |',
        '| Provisioning | 25s |',
        '| Ran on the worker | 11m30s |',
        '| Total, from creation | 12m30s |',
        '| Completed | 2026-11-22 09:42:30 UTC |',
        '| Delivery key | `kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk` |',
        '',
      ),
    );
  });

  test('an errored build that `fail-on-status` lists (a retry, never provisioned)', () => {
    expect(
      renderWebhookSummary(
        { fields: erroredBuild, failOn: ['errored', 'canceled'], deliveryKey: 'k'.repeat(64) },
        same,
      ),
    ).toBe(
      lines(
        '### Webhook delivery verified: build ❌ errored',
        '',
        '| Build | [9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d](<https://svc.example.com/accounts/acme/projects/app/builds/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d>) |',
        '| --- | --- |',
        '| Event | `BUILD` |',
        '| Status | ❌ errored |',
        '| Platform | ios |',
        '| Project | acme/app |',
        '| App id | `0d3b9a52-4c1e-4f6a-8b2d-7e9f0a1b2c3d` |',
        '| Retry of build | `1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e` |',
        '| Error | `XCODE_BUILD_ERROR`: `The archive step failed.` |',
        '| Total, from creation | 1m00s |',
        '| Not reached | provisioning, the worker (the payload gives no time for them) |',
        '| Completed | 2026-11-22 09:31:00 UTC |',
        '| Delivery key | `kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk` |',
        '',
        '**The step fails**: `fail-on-status` lists `errored`.',
        '',
      ),
    );
  });

  test('a canceled submission without logs', () => {
    expect(renderWebhookSummary({ fields: submission, failOn: [], deliveryKey: 'k'.repeat(64) }, same)).toBe(
      lines(
        '### Webhook delivery verified: submission ⏹️ canceled',
        '',
        '| Submission | [4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a](<https://svc.example.com/accounts/acme/projects/app/submissions/4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a>) |',
        '| --- | --- |',
        '| Event | `SUBMIT` |',
        '| Status | ⏹️ canceled |',
        '| Platform | android |',
        '| Project | acme/app |',
        '| App id | `0d3b9a52-4c1e-4f6a-8b2d-7e9f0a1b2c3d` |',
        '| Submitted build | `9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d` |',
        '| Total, from creation | 20s |',
        '| Logs | none in the payload: the `logs-url` output is empty |',
        '| Completed | 2026-11-22 09:30:20 UTC |',
        '| Delivery key | `kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk` |',
        '',
      ),
    );
  });

  test('a delivery that was not used', () => {
    expect(renderWebhookRejected('signature')).toBe(
      lines(
        '### ❌ Webhook delivery rejected',
        '',
        'Its `svc-signature` does not verify against the payload and the signing secret: the delivery was not used and no outputs were set. The log says why.',
        '',
      ),
    );
    expect(renderWebhookRejected('unusable')).toBe(
      lines(
        '### ❌ Webhook delivery not used',
        '',
        'It is signed correctly, but it is not a build or submission payload the action can read: no outputs were set. The log says why.',
        '',
      ),
    );
    expect(renderWebhookRejected('unreadable')).toBe(
      lines(
        '### ❌ Webhook delivery not verified',
        '',
        'The payload could not be read, so nothing was verified and no outputs were set. The log says why.',
        '',
      ),
    );
  });
});

describe("verify-webhook's failure sentences", () => {
  test('`fail-on-status` lists the status', () => {
    expect(failedStatusMessage(erroredBuild)).toBe(
      lines(
        'Build 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d (BUILD) ended `errored`, which `fail-on-status` lists: XCODE_BUILD_ERROR: The archive step failed. Details: https://svc.example.com/accounts/acme/projects/app/builds/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      ),
    );
    expect(failedStatusMessage(submission)).toBe(
      lines(
        'Submission 4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a (SUBMIT) ended `canceled`, which `fail-on-status` lists; the payload gives no error code or message. Details: https://svc.example.com/accounts/acme/projects/app/submissions/4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
      ),
    );
  });

  test('the signature does not verify, or the body cannot be used', () => {
    expect(
      rejectedMessage(
        'The svc-signature header does not match the payload and the webhook-secret.',
        ' The payload file ends with a line break the service did not send.',
      ),
    ).toBe(
      lines(
        'The svc-signature header does not match the payload and the webhook-secret. The payload file ends with a line break the service did not send. The delivery was rejected; no outputs were set.',
      ),
    );
    expect(unusableMessage('its `event` is missing.')).toBe(
      lines('The delivery is signed correctly, but it cannot be used: its `event` is missing.'),
    );
  });

  test('the payload file cannot be read', () => {
    const shown = payloadFileShown('/home/runner/work/app/app/build.json');
    expect(payloadTooLargeMessage(shown, 1024 * 1024)).toBe(
      lines(
        '`payload-file` (/home/runner/work/app/app/build.json) is larger than 1048576 bytes; a webhook body is a few kilobytes.',
      ),
    );
    expect(payloadUnreadableMessage(shown, 'no such file')).toBe(
      lines('`payload-file` (/home/runner/work/app/app/build.json) cannot be read: no such file.'),
    );
    expect(payloadNotRegularMessage(payloadFileShown('/dev/zero'))).toBe(
      lines(
        '`payload-file` (/dev/zero) is not a regular file; give the path of the file that holds the body.',
      ),
    );
  });
});
