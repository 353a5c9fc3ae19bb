/**
 * The job summary of verify-webhook. A verified delivery: what happened (event, status, platform),
 * which build or submission (linked to its page on the service), why it failed (the error code and
 * message), and how long it waited and ran (from the payload's timestamps). A delivery that was not
 * used: that it was rejected, and nothing from its body, which nobody vouches for.
 *
 * Every value from the payload passes through markdown.ts: text shows as text (no links, images,
 * mentions, emphasis or HTML) and the only link is the page URL the payload gives for the purpose,
 * and only when it is http(s).
 */
import { redactDeep } from '../github/io.js';
import { markdownCode, markdownLink, markdownText } from '../text/markdown.js';
import { formatElapsed } from '../text/plain.js';
import { status } from '../text/status.js';
import { formatTimestamp, msBetween } from '../text/time.js';
import type { WebhookFields } from './fields.js';

const capitalised = (kind: string): string => kind[0].toUpperCase() + kind.slice(1);

interface WebhookReport {
  fields: WebhookFields;
  /** The statuses of `fail-on-status`; the step fails when the payload's status is one of them. */
  failOn: readonly string[];
  /** The `delivery-key` output: the same for every delivery of this event. */
  deliveryKey: string;
}

/** `redact` is applied to every value first: escaping would change a secret's characters. */
export function renderWebhookSummary(input: WebhookReport, redact: (text: string) => string): string {
  const { fields, failOn, deliveryKey } = redactDeep(input, redact);
  const kind = capitalised(fields.kind);
  const lines = [`### Webhook delivery verified: ${fields.kind} ${status(fields.status)}`, ''];
  lines.push(`| ${kind} | ${markdownLink(fields.id, fields.detailsUrl, 60)} |`, '| --- | --- |');
  const row = (label: string, value: string | undefined): void => {
    if (value) lines.push(`| ${label} | ${value} |`);
  };
  row('Event', markdownCode(fields.event, 20));
  row('Status', status(fields.status));
  row('Platform', markdownText(fields.platform, 20));
  row('Project', markdownText(`${fields.accountName}/${fields.projectName}`, 120));
  row('App id', markdownCode(fields.appId, 60));
  row(`Retry of ${fields.kind}`, fields.parentId && markdownCode(fields.parentId, 60));
  row('Submitted build', fields.submittedBuildId && markdownCode(fields.submittedBuildId, 60));
  if (fields.error) {
    const code = markdownCode(fields.error.errorCode, 80);
    row('Error', [code, markdownCode(fields.error.message, 1000)].filter(Boolean).join(': '));
  }
  for (const [label, ms] of durations(fields)) row(label, ms === undefined ? undefined : formatElapsed(ms));
  row('Not reached', notReached(fields));
  if (fields.kind === 'submission' && !fields.logsUrl)
    row('Logs', 'none in the payload: the `logs-url` output is empty');
  row('Completed', formatTimestamp(fields.times.completedAt));
  row('Delivery key', markdownCode(deliveryKey, 64));
  lines.push('');
  if (failOn.includes(fields.status))
    lines.push(`**The step fails**: \`fail-on-status\` lists ${markdownCode(fields.status, 40)}.`, '');
  return lines.join('\n');
}

/**
 * How long the build waited and ran, from the payload's timestamps: in the queue (`enqueuedAt` →
 * `provisioningStartedAt`), provisioning the worker (→ `workerStartedAt`), on the worker (→
 * `completedAt`), and in all from its creation. A submission has only its creation and completion.
 */
function durations(fields: WebhookFields): [string, number | undefined][] {
  const { createdAt, enqueuedAt, provisioningStartedAt, workerStartedAt, completedAt } = fields.times;
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
function notReached(fields: WebhookFields): string | undefined {
  if (fields.kind !== 'build') return undefined;
  const { enqueuedAt, provisioningStartedAt, workerStartedAt } = fields.times;
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
