/**
 * verify-webhook, run from the sources in this process: the simulator runs a workflow and delivers
 * its build and submission webhooks to a local receiver that fails twice and then acknowledges; the
 * receiver's raw body and header go to the verify-webhook step (and once to the root action with
 * `command: verify-webhook`), as a file and inline. Genuine deliveries are accepted with outputs that
 * match the job that finished; every tampered one is refused with exit code 1, no digest printed and
 * no output set. A genuine delivery accepted by the built bundle is the end-to-end tier's case
 * (__tests__/e2e/webhook-bundles.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { WorkflowRun } from '../../simulator/index.js';
import { signWebhookBody } from '../../src/webhook/signature.js';
import { IN_PROCESS, renderLog, runStep, type ActionRun } from '../../testkit/runner/in-process.js';
import type { World } from '../../testkit/world/world.js';
import type { Received } from '../../testkit/world/webhook-receiver.js';
import {
  eventKey,
  genuineReleaseDeliveries,
  inputsVerifier,
  printed,
  signatureHeader as header,
  WEBHOOK_SECRET as SECRET,
  type GenuineDeliveries,
} from '../../testkit/world/webhook-fixtures.js';

let world: World;
let run: WorkflowRun;
let dir: string;
let build: Received;
let submission: Received;
let bodyFile: GenuineDeliveries['bodyFile'];
let close: GenuineDeliveries['close'] | undefined;

beforeAll(async () => {
  ({ world, run, dir, build, submission, bodyFile, close } = await genuineReleaseDeliveries());
});

afterAll(async () => {
  await close?.();
});

const verify = inputsVerifier(IN_PROCESS, SECRET);

/** What the user sees for a refused delivery: exit 1, one error, no outputs, no digest anywhere. */
function expectRefused(result: ActionRun, body: Buffer, message: RegExp): void {
  expect(result.exitCode).toBe(1);
  expect(result.outputs).toEqual({});
  expect(result.errors).toEqual([expect.stringMatching(message)]);
  const expectedDigest = signWebhookBody(body, SECRET).slice('sha1='.length);
  expect(result.stdout + result.stderr).not.toContain(expectedDigest);
  expect(result.stdout.startsWith(`::add-mask::${SECRET}\n`)).toBe(true);
  expect(printed(result)).not.toContain(SECRET);
  expect(result.stdout).not.toMatch(/\n\s+at /); // no stack trace
}

describe('verify-webhook', () => {
  it('a redelivery of one event serialised differently has the same delivery-key; another status of the same build has another', async () => {
    const parsed = JSON.parse(build.body.toString('utf8')) as Record<string, unknown>;
    // The spec does not promise the same bytes: keys reordered and indented, signed by the service.
    const reordered = Buffer.from(
      JSON.stringify(Object.fromEntries(Object.entries(parsed).reverse()), null, 2),
    );
    const canceled = Buffer.from(JSON.stringify({ ...parsed, status: 'canceled' }));
    const sign = (body: Buffer): string => signWebhookBody(body, SECRET);
    const [first, again, other] = await Promise.all(
      [build.body, reordered, canceled].map((body) =>
        verify({ signature: sign(body), 'payload-file': bodyFile(body) }),
      ),
    );
    for (const result of [first, again, other]) expect(result.exitCode).toBe(0);
    expect(again.outputs['delivery-key']).toBe(first.outputs['delivery-key']);
    expect(first.outputs['delivery-key']).toBe(eventKey('BUILD', String(parsed.id), 'finished'));
    expect(other.outputs['delivery-key']).toBe(eventKey('BUILD', String(parsed.id), 'canceled'));
    expect(renderLog(first.stdout)).toContain(
      `Delivery key (the SHA-256 of the event's identity, BUILD ${String(parsed.id)} finished; the same for every delivery of this event): ${first.outputs['delivery-key']}.`,
    );
  });

  it('the root action with command: verify-webhook accepts the same delivery and refuses a tampered one', async () => {
    const root = (payload: Buffer) =>
      runStep('root', {
        inputs: {
          command: 'verify-webhook',
          'webhook-secret': SECRET,
          signature: header(build),
          'payload-file': bodyFile(payload),
        },
      });
    const tampered = Buffer.concat([build.body, Buffer.from(' ')]);
    const [accepted, refused] = await Promise.all([root(build.body), root(tampered)]);
    expect(accepted.exitCode).toBe(0);
    // The defaults the runner fills in (wait, export-env, ...) are not inputs the user gave.
    expect(accepted.annotations.filter(({ kind }) => kind === 'warning')).toEqual([]);
    expect(accepted.outputs).toMatchObject({
      event: 'BUILD',
      id: run.jobs.find((j) => j.key === 'build_ios')!.buildId,
      'app-id': world.project.id,
    });
    expectRefused(refused, tampered, /does not match the payload/);
  });

  it('accepts the submission delivery passed inline: outputs match the submission job', async () => {
    const job = run.jobs.find((j) => j.key === 'submit_ios')!;
    const result = await verify({
      signature: header(submission),
      payload: submission.body.toString('utf8'),
    });
    expect(result.exitCode).toBe(0);
    expect(result.outputs).toMatchObject({
      event: 'SUBMIT',
      id: job.submissionId,
      status: 'finished',
      platform: 'ios',
      'app-id': world.project.id,
    });
    expect(JSON.parse(result.outputs.payload).turtleBuildId).toBe(
      run.jobs.find((j) => j.key === 'build_ios')!.buildId,
    );
  });

  it('accepts a delivery relayed as in the README: base64 in client_payload, decoded to a file by a shell step', async () => {
    const clientPayload = JSON.parse(
      JSON.stringify({ signature: header(build), body_base64: build.body.toString('base64') }),
    ) as { signature: string; body_base64: string };
    const file = join(dir, 'relayed.json');
    // stdin from /dev/null: with a socket for stdin and no SHLVL, bash takes itself for a remote shell and
    // reads ~/.bashrc, whose complaints (HOME is not set here) would land in the test output.
    execFileSync('bash', ['-c', `printf '%s' "$BODY_BASE64" | base64 --decode > "$OUT"`], {
      env: { PATH: process.env.PATH, BODY_BASE64: clientPayload.body_base64, OUT: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result = await verify({ signature: clientPayload.signature, 'payload-file': file });
    expect(result.exitCode).toBe(0);
    expect(result.outputs.id).toBe(run.jobs.find((j) => j.key === 'build_ios')!.buildId);
  });

  it('accepts a signature header with surrounding white space (as a YAML input may carry)', async () => {
    const result = await verify({
      signature: ` ${header(build)}\n`,
      'payload-file': bodyFile(build.body),
    });
    expect(result.exitCode).toBe(0);
    expect(result.outputs.event).toBe('BUILD');
  });

  describe('refuses tampered deliveries', () => {
    /** Each case: the body the step is given, the header, how (file or inline). */
    interface Case {
      body: Buffer;
      signature: string;
      inline?: boolean;
    }
    let cases: Record<string, Case>;
    let results: Record<string, Promise<ActionRun>>;
    // Every tampered delivery is verified up front, each by its own step; each test reads its own.
    beforeAll(() => {
      const oneByte = Buffer.from(build.body);
      oneByte[oneByte.indexOf('"finished"') + 1] = 'F'.charCodeAt(0);
      const good = header(build);
      const pretty = Buffer.from(JSON.stringify(JSON.parse(build.body.toString('utf8')), null, 2));
      cases = {
        oneByte: { body: oneByte, signature: good },
        oneDigit: { body: build.body, signature: good.slice(0, -1) + (good.at(-1) === '0' ? '1' : '0') },
        otherDelivery: { body: submission.body, signature: good, inline: true },
        otherSecret: {
          body: build.body,
          signature: signWebhookBody(build.body, 'an-attacker-secret-0123456789'),
        },
        truncated: { body: build.body.subarray(0, build.body.length - 1), signature: good },
        extended: { body: Buffer.concat([build.body, Buffer.from('\n')]), signature: good },
        pretty: { body: pretty, signature: good, inline: true },
        uppercase: { body: build.body, signature: `sha1=${good.slice(5).toUpperCase()}` },
        prefix: { body: build.body, signature: `sha256=${good.slice(5)}` },
        short: { body: build.body, signature: good.slice(0, -2) },
        base64: { body: Buffer.from(build.body.toString('base64')), signature: good, inline: true },
        // As `base64` prints it: lines of 76 characters, a line break at the end.
        base64Wrapped: {
          body: Buffer.from(`${build.body.toString('base64').replace(/.{76}/g, '$&\n')}\n`),
          signature: good,
        },
      };
      results = Object.fromEntries(
        Object.entries(cases).map(([name, { body, signature, inline }]) => [
          name,
          verify(
            inline
              ? { signature, payload: body.toString('utf8') }
              : { signature, 'payload-file': bodyFile(body) },
          ),
        ]),
      );
    });
    const refused = async (name: string, message: RegExp): Promise<ActionRun> => {
      const result = await results[name];
      expectRefused(result, cases[name].body, message);
      return result;
    };

    it('one byte of the body changed', async () => {
      const result = await refused(
        'oneByte',
        /Invalid signature: the svc-signature header does not match the payload/,
      );
      expect(result.stdout).toContain('no outputs were set');
    });

    it('one hex digit of the signature changed', async () => {
      await refused('oneDigit', /does not match the payload/);
    });

    it('a genuine signature on another delivery (the submission body with the build header)', async () => {
      await refused('otherDelivery', /does not match the payload/);
    });

    it('signed with another secret', async () => {
      await refused('otherSecret', /does not match the payload/);
    });

    it('truncated and extended bodies; a trailing line break gets a hint', async () => {
      await refused('truncated', /does not match/);
      const extended = await refused('extended', /does not match/);
      expect(extended.stdout).toContain('The payload ends with a line break');
    });

    it('the body re-serialised with other white space: the message says so, and not for another secret', async () => {
      const pretty = await refused('pretty', /does not match/);
      expect(renderLog(pretty.stdout)).toContain(
        'The payload has white space between its JSON tokens (line breaks, indentation), which the service never sends: it was re-serialised or pretty-printed on the way',
      );
      for (const name of ['otherSecret', 'oneByte', 'extended'])
        expect((await results[name]).stdout).not.toContain('re-serialised');
    });

    it('the body relayed as base64 and never decoded: the message says so, and not for another secret', async () => {
      for (const name of ['base64', 'base64Wrapped']) {
        const relayed = await refused(name, /does not match/);
        expect(renderLog(relayed.stdout)).toContain(
          "The payload is base64 text that decodes to a JSON body: it was encoded on the way (such as a relay's `body_base64`) and not decoded. Decode it first (`base64 --decode`, as the relay recipe does) and pass the bytes it gives.",
        );
      }
      for (const name of ['otherSecret', 'oneByte', 'pretty'])
        expect((await results[name]).stdout).not.toContain('base64');
    });

    it.each([
      ['uppercase hex digits', 'uppercase', /uppercase hexadecimal digits/],
      ['a wrong prefix', 'prefix', /does not start with `sha1=`/],
      ['a truncated digest', 'short', /has 38 characters after `sha1=`/],
    ])('a header with %s', async (_name, key, message) => {
      await refused(key, message);
    });
  });

  describe('refuses unusable deliveries with a clear message', () => {
    let results: Record<string, Promise<ActionRun>>;
    beforeAll(() => {
      const notJson = Buffer.from('status=finished&id=1');
      const neither = Buffer.from(JSON.stringify({ id: run.id, status: 'success', url: run.url }));
      const payload = JSON.parse(build.body.toString('utf8'));
      payload.projectName = '\n::set-output name=status::hacked';
      const hostile = Buffer.from(JSON.stringify(payload));
      results = {
        missing: verify({ signature: header(build), 'payload-file': join(dir, 'missing.json') }),
        notJson: verify({ signature: signWebhookBody(notJson, SECRET), 'payload-file': bodyFile(notJson) }),
        neither: verify({ signature: signWebhookBody(neither, SECRET), payload: neither.toString() }),
        hostile: verify({ signature: signWebhookBody(hostile, SECRET), payload: hostile.toString() }),
      };
    });

    it('a payload file that does not exist', async () => {
      const result = await results.missing;
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toEqual({});
      expect(result.errors).toContainEqual(
        expect.stringMatching(/^`payload-file` \(.*missing\.json\) cannot be read: no such file\./),
      );
    });

    it('a correctly signed body that is not JSON', async () => {
      const result = await results.notJson;
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toEqual({});
      expect(result.errors).toContain(
        'The delivery is signed correctly, but it cannot be used: The payload is not valid JSON.',
      );
    });

    it('a correctly signed JSON body that is neither a build nor a submission payload', async () => {
      const result = await results.neither;
      expect(result.exitCode).toBe(1);
      expect(result.outputs).toEqual({});
      expect(result.stdout).toMatch(/neither a build payload .* nor a submission payload/);
    });

    it('a signed payload whose text would be a workflow command is printed neutralised', async () => {
      const result = await results.hostile;
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toMatch(/^\s*::set-output/m);
      expect(result.outputs.status).toBe('finished');
    });
  });
});
