/** Inputs of `verify-webhook`: check the signature of a delivery and expose its fields. */
import * as parse from './parsers.js';
import { MIN_SECRET_LENGTH as WEBHOOK_SECRET_MIN_LENGTH } from '../webhook/signature.js';
import { readTable, settled, type CommandSpec, type InputSource } from './table.js';

export const verifyWebhook = {
  description:
    'Check the `svc-signature` of a webhook delivery the service sent (relayed into a workflow) and expose its fields.',
  inputs: {
    'webhook-secret': {
      description: `The webhook's signing secret, at least ${WEBHOOK_SECRET_MIN_LENGTH} characters. Masked.`,
      required: true,
      secret: true,
      untrimmed: true,
      hint: `the webhook's signing secret (at least ${WEBHOOK_SECRET_MIN_LENGTH} characters).`,
      parse: (value: string, name: string) => {
        if (value.length < WEBHOOK_SECRET_MIN_LENGTH)
          throw new parse.InputProblem(
            `\`${name}\` must be at least ${WEBHOOK_SECRET_MIN_LENGTH} characters long (it has ${value.length}).`,
          );
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
  },
  outputs: {
    event: '`BUILD` or `SUBMIT`.',
    id: 'The build or submission id.',
    status: 'The build or submission status.',
    platform: '`ios` or `android`.',
    'app-id': 'The project id.',
    payload: 'The parsed body as JSON.',
  },
} satisfies CommandSpec;

export interface VerifyWebhookSettings {
  command: 'verify-webhook';
  secret: string;
  signature: string;
  payload: { kind: 'inline'; text: string } | { kind: 'file'; path: string };
}

export function readVerifyWebhook(source: InputSource): VerifyWebhookSettings {
  const { values, problems } = readTable(verifyWebhook.inputs, source);
  const text = values.payload;
  const path = values['payload-file'];
  if (text !== undefined && path !== undefined)
    problems.push('set exactly one of `payload` and `payload-file`, not both.');
  if (text === undefined && path === undefined)
    problems.push('one of `payload` (the raw request body) or `payload-file` (a path to it) is required.');
  return settled(
    {
      command: 'verify-webhook',
      secret: values['webhook-secret'] ?? '',
      signature: values.signature ?? '',
      payload: path !== undefined ? { kind: 'file', path } : { kind: 'inline', text: text ?? '' },
    },
    problems,
  );
}
