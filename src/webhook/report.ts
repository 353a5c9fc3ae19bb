/**
 * The job summary and the failure sentences of verify-webhook. A verified delivery: what happened (event, status, platform),
 * which build or submission (linked to its page on the service), why it failed (the error code and
 * message), and how long it waited and ran (from the payload's timestamps). A delivery that was not
 * used: that it was rejected, and nothing from its body, which nobody vouches for.
 *
 * Every value from the payload passes through markdown.ts: text shows as text (no links, images,
 * mentions, emphasis or HTML) and the only link is the page URL the payload gives for the purpose,
 * and only when it is http(s).
 */
import { redactDeep } from '../runner/io.js';
import { markdownCode, markdownLink, markdownText } from '../text/markdown.js';
import { oneLine, withoutFinalDots } from '../text/one-line.js';
import { formatElapsed } from '../text/time.js';
import { noneLeft, pickShown } from '../text/shown.js';
import { status } from '../text/status.js';
import { formatTimestamp, msBetween } from '../text/time.js';
import type { WebhookFields } from './fields.js';

const capitalised = (kind: string): string => kind[0].toUpperCase() + kind.slice(1);

/**
 * The fields of the delivery the summary shows (text/shown.ts); `artifactUrl` is an output only:
 * the summary links the page on the service, never an artifact.
 */
const WEBHOOK_SUMMARY_FIELDS = [
  'event',
  'kind',
  'id',
  'status',
  'platform',
  'appId',
  'accountName',
  'projectName',
  'detailsUrl',
  'logsUrl',
  'error',
  'parentId',
  'submittedBuildId',
  'times',
] as const;
type ShownFields = Pick<WebhookFields, (typeof WEBHOOK_SUMMARY_FIELDS)[number]>;

interface WebhookReport {
  fields: WebhookFields;
  /** The statuses of `fail-on-status`; the step fails when the payload's status is one of them. */
  failOn: readonly string[];
  /** The `delivery-key` output: the same for every delivery of this event. */
  deliveryKey: string;
}

/** `redact` is applied to every value first: escaping would change a secret's characters. */
export function renderWebhookSummary(input: WebhookReport, redact: (text: string) => string): string {
  const { fields, failOn, deliveryKey } = redactDeep(
    { ...input, fields: pickShown(input.fields, WEBHOOK_SUMMARY_FIELDS) },
    redact,
  );
  const {
    event,
    kind: kindWord,
    id,
    status: deliveryStatus,
    platform,
    appId,
    accountName,
    projectName,
    detailsUrl,
    logsUrl,
    error,
    parentId,
    submittedBuildId,
    times,
    ...unrendered
  } = fields;
  noneLeft(unrendered);
  const kind = capitalised(kindWord);
  const lines = [`### Webhook delivery verified: ${kindWord} ${status(deliveryStatus)}`, ''];
  lines.push(`| ${kind} | ${markdownLink(id, detailsUrl, 60)} |`, '| --- | --- |');
  const row = (label: string, value: string | undefined): void => {
    if (value) lines.push(`| ${label} | ${value} |`);
  };
  row('Event', markdownCode(event, 20));
  row('Status', status(deliveryStatus));
  row('Platform', markdownText(platform, 20));
  row('Project', markdownText(`${accountName}/${projectName}`, 120));
  row('App id', markdownCode(appId, 60));
  row(`Retry of ${kindWord}`, parentId && markdownCode(parentId, 60));
  row('Submitted build', submittedBuildId && markdownCode(submittedBuildId, 60));
  if (error) {
    const code = markdownCode(error.errorCode, 80);
    row('Error', [code, markdownCode(error.message, 1000)].filter(Boolean).join(': '));
  }
  for (const [label, ms] of durations(times)) row(label, ms === undefined ? undefined : formatElapsed(ms));
  row('Not reached', notReached(kindWord, times));
  if (kindWord === 'submission' && !logsUrl)
    row('Logs', 'none in the payload: the `logs-url` output is empty');
  row('Completed', formatTimestamp(times.completedAt));
  row('Delivery key', markdownCode(deliveryKey, 64));
  lines.push('');
  if (failOn.includes(deliveryStatus))
    lines.push(`**The step fails**: \`fail-on-status\` lists ${markdownCode(deliveryStatus, 40)}.`, '');
  return lines.join('\n');
}

/**
 * How long the build waited and ran, from the payload's timestamps: in the queue (`enqueuedAt` →
 * `provisioningStartedAt`), provisioning the worker (→ `workerStartedAt`), on the worker (→
 * `completedAt`), and in all from its creation. A submission has only its creation and completion.
 */
function durations(times: ShownFields['times']): [string, number | undefined][] {
  const { createdAt, enqueuedAt, provisioningStartedAt, workerStartedAt, completedAt } = times;
  return [
    ['Waited in queue', msBetween(enqueuedAt, provisioningStartedAt)],
    ['Provisioning', msBetween(provisioningStartedAt, workerStartedAt)],
    ['Ran on the worker', msBetween(workerStartedAt, completedAt)],
    ['Total, from creation', msBetween(createdAt, completedAt)],
  ];
}

/**
 * The points of a build the payload gives no time for (null or absent: a build canceled in the
 * queue never reached them), said so rather than left out without a word.
 */
function notReached(kind: ShownFields['kind'], times: ShownFields['times']): string | undefined {
  if (kind !== 'build') return undefined;
  const { enqueuedAt, provisioningStartedAt, workerStartedAt } = times;
  const missed = (
    [
      ['the queue', enqueuedAt],
      ['provisioning', provisioningStartedAt],
      ['the worker', workerStartedAt],
    ] as const
  ).flatMap(([point, at]) => (at ? [] : [point]));
  return missed.length > 0 ? `${missed.join(', ')} (the payload gives no time for them)` : undefined;
}

/** Why a delivery was not used; none of it comes from the delivery's body. */
type WebhookRejection = 'signature' | 'unusable' | 'unreadable';

const REJECTIONS: Record<WebhookRejection, [string, string]> = {
  signature: [
    '### ❌ Webhook delivery rejected',
    'Its `svc-signature` does not verify against the payload and the signing secret: the delivery was not used and no outputs were set. The log says why.',
  ],
  unusable: [
    '### ❌ Webhook delivery not used',
    'It is signed correctly, but it is not a build or submission payload the action can read: no outputs were set. The log says why.',
  ],
  unreadable: [
    '### ❌ Webhook delivery not verified',
    'The payload could not be read, so nothing was verified and no outputs were set. The log says why.',
  ],
};

export function renderWebhookRejected(reason: WebhookRejection): string {
  const [heading, text] = REJECTIONS[reason];
  return `${heading}\n\n${text}\n`;
}

/** The step's failure when the signature does not verify: the check's words, then what became of the delivery. */
export function rejectedMessage(checkMessage: string, hint: string): string {
  return `${checkMessage}${hint} The delivery was rejected; no outputs were set.`;
}

/** How the failures about a `payload-file` name it. */
export function payloadFileShown(path: string): string {
  return `\`payload-file\` (${oneLine(path, 200)})`;
}

/** The payload file is larger than a webhook body can be. */
export function payloadTooLargeMessage(shown: string, maxBytes: number): string {
  return `${shown} is larger than ${maxBytes} bytes; a webhook body is a few kilobytes.`;
}

/** The payload file could not be read (`reason`: no such file, permission denied, …). */
export function payloadUnreadableMessage(shown: string, reason: string): string {
  return `${shown} cannot be read: ${reason}.`;
}

/** The payload file is a device, a pipe or a folder. */
export function payloadNotRegularMessage(shown: string): string {
  return `${shown} is not a regular file; give the path of the file that holds the body.`;
}

/** A correctly signed body that is not a payload the action can read. */
export function unusableMessage(problem: string): string {
  return `The delivery is signed correctly, but it cannot be used: ${problem}`;
}

/** The failure `fail-on-status` asks for: which delivery, its status, the service's reason, where to look. */
export function failedStatusMessage(fields: WebhookFields): string {
  const kind = fields.kind === 'build' ? 'Build' : 'Submission';
  const reason = fields.error
    ? `: ${oneLine(fields.error.errorCode, 100)}: ${withoutFinalDots(oneLine(fields.error.message, 1000))}`
    : '; the payload gives no error code or message';
  const details = fields.detailsUrl ? ` Details: ${oneLine(fields.detailsUrl, 500)}` : '';
  return `${kind} ${fields.id} (${fields.event}) ended \`${fields.status}\`, which \`fail-on-status\` lists${reason}.${details}`;
}
