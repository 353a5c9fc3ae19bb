/**
 * `verify-webhook`: checks that a relayed webhook delivery really comes from the service, then passes
 * its fields on as outputs. Order matters: the raw bytes are read exactly as given, the signature is
 * checked on them (constant time, no digest ever printed), and only an authentic body is parsed. A
 * forged or altered delivery sets no output at all.
 */
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { ActionFailure } from '../errors.js';
import * as parse from '../inputs/parsers.js';
import type { InputTable } from '../inputs/table.js';
import { defineCommand } from './command.js';
import { oneLine } from '../text/one-line.js';
import {
  checkWebhookSignature,
  deliveryKey,
  mismatchHint,
  MIN_SECRET_LENGTH,
  SIGNATURE_HEADER,
  webhookSecretProblem,
} from '../webhook/signature.js';
import { parseWebhookBody, WEBHOOK_STATUSES, WebhookPayloadError } from '../webhook/payloads.js';
import { webhookFields, type WebhookFields } from '../webhook/fields.js';
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
} from '../webhook/report.js';
import type { ActionIO } from '../runner/io.js';
import type { OutputTable, OutputWriter } from '../runner/outputs.js';

/** Webhook bodies are a few kilobytes; anything this large is not one. */
const MAX_PAYLOAD_BYTES = 1024 * 1024;

const inputs = {
  'webhook-secret': {
    description: `The webhook's signing secret, at least ${MIN_SECRET_LENGTH} characters. Masked.`,
    required: true,
    secret: true,
    untrimmed: true,
    hint: `the webhook's signing secret (at least ${MIN_SECRET_LENGTH} characters).`,
    parse: (value: string, name: string) => {
      const problem = webhookSecretProblem(value, `\`${name}\``);
      if (problem) throw new parse.InputProblem(problem);
      return value;
    },
  },
  signature: {
    description: "The value of the delivery's `svc-signature` header (`sha1=` and 40 hexadecimal digits).",
    required: true,
    hint: 'the value of the `svc-signature` header of the delivery.',
    parse: (value: string) => value,
  },
  payload: {
    description: 'The raw request body, byte for byte. Exactly one of `payload` and `payload-file`.',
    untrimmed: true,
    parse: (value: string) => value,
  },
  'payload-file': {
    description:
      'Path to a regular file holding the raw request body (at most 1 MiB). Exactly one of `payload` and `payload-file`.',
    parse: (value: string) => value,
  },
  'fail-on-status': {
    description:
      `Payload statuses that fail the step, separated by commas or line breaks (${WEBHOOK_STATUSES.map((status) => `\`${status}\``).join(', ')}), ` +
      'for example `errored,canceled`: every output is set first, then the step fails with the error code and ' +
      'message of the build or submission and a link to its page. Default: none (an authentic delivery passes, whatever its status).',
    parse: parse.oneOfList(WEBHOOK_STATUSES),
  },
} satisfies InputTable;

/** Every output is set once the delivery is verified and read; a refused delivery sets none. */
const webhookOutputs = {
  event: { description: '`BUILD` or `SUBMIT`.', when: 'verified' },
  id: { description: 'The build or submission id.', when: 'verified' },
  status: {
    description: 'The build or submission status (`finished`, `errored` or `canceled`).',
    when: 'verified',
  },
  platform: { description: '`ios` or `android`.', when: 'verified' },
  'app-id': { description: 'The project id.', when: 'verified' },
  'error-code': {
    description:
      'The `errorCode` of a failed build (`error`) or submission (`submissionInfo.error`); empty when absent.',
    when: 'verified',
  },
  'error-message': { description: 'The `message` of that error; empty when absent.', when: 'verified' },
  'artifact-url': {
    description:
      "A build's `artifacts.buildUrl` (successful builds), a submission's `archiveUrl`; empty when absent.",
    when: 'verified',
  },
  'details-url': {
    description:
      'The page of the build or submission on the service (`buildDetailsPageUrl` / `submissionDetailsPageUrl`).',
    when: 'verified',
  },
  'logs-url': {
    description:
      "A submission's `submissionInfo.logsUrl`; empty for a build (its payload has no logs URL) and for a submission that has none (canceled before it ran).",
    when: 'verified',
  },
  payload: { description: 'The parsed body as JSON.', when: 'verified' },
  'delivery-key': {
    description:
      'The SHA-256, in hex, of the event\'s identity, the JSON array `["<event>","<id>","<status>"]`: ' +
      'the same for every delivery of one completion of one build or submission, even when a redelivery is ' +
      'serialised differently. The service delivers again when the receiver did not acknowledge a delivery, ' +
      'and a captured body verifies for ever, so a workflow acts once per key (the relay recipe creates a tag named after it).',
    when: 'verified',
  },
} satisfies OutputTable;

/** What the delivery's fields give (writeDeliveryOutputs); the delivery key is computed from them. */
type WebhookOutput = Exclude<keyof typeof webhookOutputs, 'delivery-key'>;

export const verifyWebhook = defineCommand({
  description:
    'Check the `svc-signature` of a webhook delivery the service sent (relayed into a workflow) and expose its fields.',
  inputs,
  outputs: webhookOutputs,
  rules: (values) => {
    if (values.payload !== undefined && values['payload-file'] !== undefined)
      return ['set exactly one of `payload` and `payload-file`, not both.'];
    if (values.payload === undefined && values['payload-file'] === undefined)
      return ['one of `payload` (the raw request body) or `payload-file` (a path to it) is required.'];
    return [];
  },

  async run(values, { io, outputs }) {
    const body = await readBody(values.payload, values['payload-file']).catch(async (error: unknown) => {
      await io.appendSummary(renderWebhookRejected('unreadable'));
      throw error;
    });

    const check = checkWebhookSignature(body, values.signature, values['webhook-secret']);
    if (!check.valid) {
      const hint = check.problem === 'mismatch' ? mismatchHint(body) : '';
      await io.appendSummary(renderWebhookRejected('signature'));
      throw new ActionFailure(rejectedMessage(check.message, hint));
    }
    io.info(`Signature verified: the ${SIGNATURE_HEADER} header matches the payload (${body.length} bytes).`);

    let parsed: ReturnType<typeof parseWebhookBody>;
    try {
      parsed = parseAuthenticBody(body);
    } catch (error) {
      await io.appendSummary(renderWebhookRejected('unusable'));
      throw error;
    }
    const fields = webhookFields(parsed);
    writeDeliveryOutputs(outputs, fields, parsed.json);
    const key = deliveryKey(fields);
    outputs.set('delivery-key', key);
    logDelivery(io, fields);
    io.info(
      `Delivery key (the SHA-256 of the event's identity, ${fields.event} ${fields.id} ${oneLine(fields.status, 40)}; the same for every delivery of this event): ${key}.`,
    );

    const failOn = values['fail-on-status'] ?? [];
    await io.appendSummary(renderWebhookSummary({ fields, failOn, deliveryKey: key }, io.redact));
    if ((failOn as readonly string[]).includes(fields.status))
      throw new ActionFailure(failedStatusMessage(fields));
  },
});

/** Every output but the delivery key, from the delivery's fields. */
function writeDeliveryOutputs(
  outputs: OutputWriter<WebhookOutput>,
  fields: WebhookFields,
  json: unknown,
): void {
  outputs.set('event', fields.event);
  outputs.set('id', fields.id);
  outputs.set('status', fields.status);
  outputs.set('platform', fields.platform);
  outputs.set('app-id', fields.appId);
  outputs.set('error-code', fields.error?.errorCode ?? '');
  outputs.set('error-message', fields.error?.message ?? '');
  outputs.set('artifact-url', fields.artifactUrl ?? '');
  outputs.set('details-url', fields.detailsUrl);
  outputs.set('logs-url', fields.logsUrl ?? '');
  outputs.set('payload', JSON.stringify(json));
}

/** What the delivery says, one line each; its text is printed as text (io.info neutralises it). */
function logDelivery(io: ActionIO, fields: WebhookFields): void {
  const kind = fields.kind === 'build' ? 'Build' : 'Submission';
  io.info(
    oneLine(
      `${kind} ${fields.id} (${fields.event}) of ${fields.accountName}/${fields.projectName}: ${fields.status}, ` +
        `platform ${fields.platform}, app ${fields.appId}.`,
    ),
  );
  if (fields.error) io.info(oneLine(`Error ${fields.error.errorCode}: ${fields.error.message}`));
  if (fields.detailsUrl) io.info(oneLine(`Details: ${fields.detailsUrl}`));
  if (!(WEBHOOK_STATUSES as readonly string[]).includes(fields.status)) {
    io.info(
      oneLine(
        `Note: status \`${fields.status}\` is not one of ${WEBHOOK_STATUSES.join(', ')}; passed on as is.`,
      ),
    );
  }
}

/** Parses a body whose signature was verified; a body that is not a payload is an ActionFailure. */
function parseAuthenticBody(body: Buffer): ReturnType<typeof parseWebhookBody> {
  try {
    return parseWebhookBody(body);
  } catch (error) {
    if (error instanceof WebhookPayloadError) {
      throw new ActionFailure(unusableMessage(error.message));
    }
    throw error;
  }
}

/**
 * The body exactly as given: inline text as its UTF-8 bytes (untrimmed), or the bytes of a regular
 * file. Special files are refused before they are read: `/dev/zero` would grow memory without
 * bound, and a named pipe would block the step (it is opened non-blocking, so even the open cannot
 * hang). The size cap holds while reading too, whatever stat said.
 */
async function readBody(text: string | undefined, path: string | undefined): Promise<Buffer> {
  if (path === undefined) return Buffer.from(text ?? '', 'utf8');
  const shown = payloadFileShown(path);
  let file: FileHandle | undefined;
  try {
    if (!(await stat(path)).isFile()) throw notRegular(shown);
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!(await file.stat()).isFile()) throw notRegular(shown);
    const buffer = Buffer.alloc(MAX_PAYLOAD_BYTES + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > MAX_PAYLOAD_BYTES) throw new ActionFailure(payloadTooLargeMessage(shown, MAX_PAYLOAD_BYTES));
    }
    return buffer.subarray(0, size);
  } catch (error) {
    if (error instanceof ActionFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : oneLine(error instanceof Error ? error.message : String(error));
    throw new ActionFailure(payloadUnreadableMessage(shown, reason));
  } finally {
    await file?.close();
  }
}

function notRegular(shown: string): ActionFailure {
  return new ActionFailure(payloadNotRegularMessage(shown));
}
