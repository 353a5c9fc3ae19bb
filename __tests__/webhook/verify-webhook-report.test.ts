/**
 * verify-webhook, run from the sources in this process, for what a workflow does with a verified
 * delivery: the payload's error, artifact, page and logs as outputs; `fail-on-status`, which fails
 * the relay workflow with the service's reason once every output is set; and the job summary the
 * step writes, read from the GITHUB_STEP_SUMMARY file. The simulator runs a release whose Android
 * build and iOS submission fail and delivers the signed webhooks to a local receiver; their bodies go
 * to the step. An errored build failing the built bundle's step by `fail-on-status` is the
 * end-to-end tier's case (__tests__/e2e/webhook-bundles.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { WorkflowRun } from '../../simulator/index.js';
import { signWebhookBody } from '../../src/webhook/signature.js';
import { IN_PROCESS, runStep } from '../../testkit/runner/in-process.js';
import type { World } from '../../testkit/world/world.js';
import {
  deliveryVerifier,
  failingReleaseDeliveries,
  HOSTILE_ERROR,
  REPORT_SECRET as SECRET,
  type FailingDeliveries,
  type Json,
  type SignedDelivery as Delivery,
} from '../../testkit/world/webhook-fixtures.js';

let world: World;
let run: WorkflowRun;
/** Signed deliveries as the receiver got them. */
let finishedBuild: Delivery;
let erroredBuild: Delivery;
let erroredSubmission: Delivery;
let close: FailingDeliveries['close'] | undefined;

beforeAll(async () => {
  ({ world, run, finishedBuild, erroredBuild, erroredSubmission, close } = await failingReleaseDeliveries());
});

afterAll(async () => {
  await close?.();
});

const job = (key: string) => run.jobs.find((j) => j.key === key)!;

const verify = deliveryVerifier(IN_PROCESS, SECRET);

/** A delivery the service could send: `change` applied to a genuine payload, signed with the secret. */
function signed(from: Delivery, change: (json: Json) => void): Delivery {
  const json = structuredClone(from.json);
  change(json);
  const body = JSON.stringify(json);
  return { body, json, signature: signWebhookBody(body, SECRET) };
}

describe('verify-webhook outputs: error, artifact, page and logs from the payload', () => {
  it('a finished build: its artifact and page; no error, no logs URL (a build payload has none)', async () => {
    const result = await verify(finishedBuild);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toEqual({
      event: 'BUILD',
      id: job('build_ios').buildId,
      status: 'finished',
      platform: 'ios',
      'app-id': world.project.id,
      'error-code': '',
      'error-message': '',
      'artifact-url': finishedBuild.json.artifacts.buildUrl,
      'details-url': finishedBuild.json.buildDetailsPageUrl,
      'logs-url': '',
      payload: expect.any(String),
      'delivery-key': createHash('sha256')
        .update(JSON.stringify(['BUILD', job('build_ios').buildId, 'finished']))
        .digest('hex'),
    });
    expect(result.outputs['artifact-url']).toMatch(/^http:\/\/.+\.ipa$/);
    expect(result.outputs['details-url']).toMatch(new RegExp(`/builds/${job('build_ios').buildId}$`));
  });

  it('an errored build: the error code and message as sent (multi-line text kept); no artifact', async () => {
    const result = await verify(erroredBuild);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({
      id: job('build_android').buildId,
      status: 'errored',
      platform: 'android',
      'error-code': 'UNKNOWN_ERROR',
      'error-message': HOSTILE_ERROR,
      'artifact-url': '',
      'details-url': erroredBuild.json.buildDetailsPageUrl,
      'logs-url': '',
    });
  });

  it("an errored submission: submissionInfo's error and logs URL, the submitted archive, its page", async () => {
    const result = await verify(erroredSubmission);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({
      event: 'SUBMIT',
      id: job('submit_ios').submissionId,
      status: 'errored',
      'error-code': 'UNKNOWN_ERROR',
      'error-message': 'App Store Connect rejected the binary.',
      'artifact-url': erroredSubmission.json.archiveUrl,
      'details-url': erroredSubmission.json.submissionDetailsPageUrl,
      'logs-url': erroredSubmission.json.submissionInfo.logsUrl,
    });
    expect(result.outputs['logs-url']).toMatch(/^http:\/\//);
  });
});

describe('fail-on-status', () => {
  it('an errored submission, listed on its own line, fails naming the submission; a canceled one is not listed', async () => {
    const canceled = signed(erroredSubmission, (json) => {
      json.status = 'canceled';
      delete json.submissionInfo.error;
    });
    const [failed, passed] = await Promise.all([
      verify(erroredSubmission, { 'fail-on-status': '\nerrored\n' }),
      verify(canceled, { 'fail-on-status': 'errored' }),
    ]);
    expect(failed.exitCode).toBe(1);
    expect(failed.errors).toContain(
      `Submission ${job('submit_ios').submissionId} (SUBMIT) ended \`errored\`, which \`fail-on-status\` lists: ` +
        `UNKNOWN_ERROR: App Store Connect rejected the binary. Details: ${erroredSubmission.json.submissionDetailsPageUrl}`,
    );
    expect(failed.outputs['logs-url']).toBe(erroredSubmission.json.submissionInfo.logsUrl);
    expect(passed.exitCode).toBe(0);
    expect(passed.outputs.status).toBe('canceled');
  });

  it('a canceled build without an error says the payload gives none; a finished build passes', async () => {
    const canceled = signed(erroredBuild, (json) => {
      json.status = 'canceled';
      delete json.error;
    });
    const [failed, passed] = await Promise.all([
      runStep('root', {
        inputs: {
          command: 'verify-webhook',
          'webhook-secret': SECRET,
          signature: canceled.signature,
          payload: canceled.body,
          'fail-on-status': 'errored, canceled',
        },
      }),
      verify(finishedBuild, { 'fail-on-status': 'errored,canceled' }),
    ]);
    expect(failed.exitCode).toBe(1);
    expect(failed.annotations.filter(({ kind }) => kind === 'warning')).toEqual([]);
    expect(failed.errors).toContain(
      `Build ${canceled.json.id} (BUILD) ended \`canceled\`, which \`fail-on-status\` lists; ` +
        `the payload gives no error code or message. Details: ${canceled.json.buildDetailsPageUrl}`,
    );
    expect(failed.outputs).toMatchObject({ status: 'canceled', 'error-code': '', 'error-message': '' });
    expect(passed.exitCode).toBe(0);
    expect(passed.outputs.status).toBe('finished');
  });

  it('refuses a status that payloads do not have, with a did-you-mean, before anything is read', async () => {
    const result = await verify(erroredBuild, { 'fail-on-status': 'Errored,cancelled' });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toEqual({});
    expect(result.errors).toContain(
      'Invalid input: `fail-on-status` has values that are not allowed: ' +
        '`Errored` (did you mean `errored`?), `cancelled` (did you mean `canceled`?). ' +
        'Allowed, separated by commas or line breaks: finished, errored, canceled.',
    );
    expect(result.summary).toBe('');
  });
});

describe('the job summary', () => {
  /** The rows of the summary's table, as `label` → cell. */
  function rows(summary: string): Record<string, string> {
    return Object.fromEntries(
      summary
        .split('\n')
        .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
        .map((line) => {
          const [label, ...cells] = line.slice(2, -2).split(' | ');
          return [label, cells.join(' | ')];
        }),
    );
  }

  it('a verified build: status, platform, ids, its page linked, and how long it queued and ran', async () => {
    const build = signed(finishedBuild, (json) => {
      json.createdAt = '2025-01-31T12:00:00.000Z';
      json.enqueuedAt = '2025-01-31T12:00:10.000Z';
      json.provisioningStartedAt = '2025-01-31T12:01:40.000Z';
      json.workerStartedAt = '2025-01-31T12:02:10.000Z';
      json.completedAt = '2025-01-31T12:14:15.000Z';
      json.parentBuildId = '11111111-2222-4333-8444-555555555555';
    });
    const result = await verify(build);
    expect(result.exitCode).toBe(0);
    const { summary } = result;
    expect(summary).toContain('### Webhook delivery verified: build ✅ finished\n');
    expect(rows(summary)).toEqual({
      Build: `[${build.json.id}](<${build.json.buildDetailsPageUrl}>)`,
      Event: '`BUILD`',
      Status: '✅ finished',
      Platform: 'ios',
      Project: 'acme/app',
      'App id': `\`${world.project.id}\``,
      'Retry of build': '`11111111-2222-4333-8444-555555555555`',
      'Waited in queue': '1m30s',
      Provisioning: '30s',
      'Ran on the worker': '12m05s',
      'Total, from creation': '14m15s',
      Completed: '2025-01-31 12:14:15 UTC',
      'Delivery key': `\`${createHash('sha256')
        .update(JSON.stringify(['BUILD', build.json.id, 'finished']))
        .digest('hex')}\``,
    });
    expect(summary).not.toContain('step fails');
  });

  it("an errored build: the service's error as text (no HTML, mention, link or emphasis), and the step's failure", async () => {
    const result = await verify(erroredBuild, { 'fail-on-status': 'errored' });
    expect(result.exitCode).toBe(1);
    const { summary } = result;
    expect(summary).toContain('### Webhook delivery verified: build ❌ errored\n');
    const table = rows(summary);
    expect(table.Build).toBe(`[${erroredBuild.json.id}](<${erroredBuild.json.buildDetailsPageUrl}>)`);
    expect(table.Platform).toBe('android');
    // As sent, in a code span (a secret in it stays whole for the runner's masking); `|` is `\|` in a table.
    expect(table.Error).toBe(
      '`UNKNOWN_ERROR`: `Gradle failed <img src=x onerror=alert(1)> @octocat see [docs](https://evil.example/x) **now** \\| #12 ::warning::injected`',
    );
    // The only link is the build's page (inside a code span GitHub renders no link).
    expect(summary.replace(/`[^`\n]*`/g, '').match(/\]\(/g)).toHaveLength(1);
    expect(summary).toContain('**The step fails**: `fail-on-status` lists `errored`.');
  });

  it('a submission: its page linked, the build it submitted, its error; a javascript: page is not linked', async () => {
    const result = await verify(erroredSubmission);
    const table = rows(result.summary);
    expect(result.summary).toContain('### Webhook delivery verified: submission ❌ errored\n');
    expect(table).toMatchObject({
      Submission: `[${erroredSubmission.json.id}](<${erroredSubmission.json.submissionDetailsPageUrl}>)`,
      Event: '`SUBMIT`',
      'Submitted build': `\`${job('build_ios').buildId}\``,
      Error: '`UNKNOWN_ERROR`: `App Store Connect rejected the binary.`',
      'Total, from creation': expect.stringMatching(/^\d+s$/),
    });
    expect(table).not.toHaveProperty('Waited in queue');

    const scripted = signed(erroredSubmission, (json) => {
      json.submissionDetailsPageUrl = 'javascript:alert(document.cookie)';
    });
    const unlinked = await verify(scripted);
    expect(unlinked.exitCode).toBe(0);
    expect(rows(unlinked.summary).Submission).toBe(scripted.json.id);
    expect(unlinked.summary).not.toContain('javascript');
  });

  it('a rejected delivery: says it was rejected, and nothing from its body', async () => {
    const forged = signed(erroredBuild, () => undefined);
    const result = await runStep('verify-webhook', {
      inputs: {
        'webhook-secret': SECRET,
        signature: erroredBuild.signature,
        payload: forged.body.replace('UNKNOWN_ERROR', 'FORGED_ERROR'),
      },
    });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toEqual({});
    expect(result.summary.trim()).toBe(
      '### ❌ Webhook delivery rejected\n\n' +
        'Its `svc-signature` does not verify against the payload and the signing secret: ' +
        'the delivery was not used and no outputs were set. The log says why.',
    );
  });

  it('a payload file that cannot be read: not verified', async () => {
    const result = await runStep('verify-webhook', {
      inputs: {
        'webhook-secret': SECRET,
        signature: erroredBuild.signature,
        'payload-file': '/nonexistent/svc-webhook.json',
      },
    });
    expect(result.exitCode).toBe(1);
    expect(result.summary.trim()).toBe(
      '### ❌ Webhook delivery not verified\n\n' +
        'The payload could not be read, so nothing was verified and no outputs were set. The log says why.',
    );
  });

  it('a signed body that is not a payload: not used, and nothing from it', async () => {
    const body = JSON.stringify({ id: run.id, status: '@octocat <b>bold</b>' });
    const result = await runStep('verify-webhook', {
      inputs: { 'webhook-secret': SECRET, signature: signWebhookBody(body, SECRET), payload: body },
    });
    expect(result.exitCode).toBe(1);
    expect(result.summary).toContain('### ❌ Webhook delivery not used\n');
    expect(result.summary).not.toContain(run.id);
    expect(result.summary).not.toContain('octocat');
  });
});

describe('what the spec allows is accepted (issue 32 item 10)', () => {
  it('a build canceled in the queue: the points it never reached (null or absent) pass, and the summary says so', async () => {
    const canceled = signed(finishedBuild, (json) => {
      json.status = 'canceled';
      json.cancelingUserId = json.initiatingUserId;
      delete json.artifacts.buildUrl;
      json.provisioningStartedAt = null;
      delete json.workerStartedAt;
    });
    const result = await verify(canceled);
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({ status: 'canceled', 'artifact-url': '', 'logs-url': '' });
    expect(result.summary).toContain(
      '| Not reached | provisioning, the worker (the payload gives no time for them) |',
    );
  });

  it('a submission without a logs URL: passes, `logs-url` is empty, and the summary says so', async () => {
    const noLogs = signed(erroredSubmission, (json) => {
      delete json.submissionInfo.logsUrl;
    });
    const result = await verify(noLogs);
    expect(result.exitCode).toBe(0);
    expect(result.outputs['logs-url']).toBe('');
    expect(result.summary).toContain('| Logs | none in the payload: the `logs-url` output is empty |');
  });
});
