/**
 * The svc-signature implementation, checked against an independent HMAC-SHA1 (openssl, or Node's crypto
 * in a separate process when openssl is absent), and against every way a delivery can be tampered with.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { checkWebhookSignature, signWebhookBody, WebhookSecretError } from '../../src/webhook/signature.js';

const SECRET = 'a-signing-secret-of-32-characters';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const OPENSSL = hasOpenssl();

/** HMAC-SHA1 hex of `body` keyed with `secret`, computed outside this process. */
function independentHex(body: Buffer, secret: string): string {
  if (OPENSSL) {
    const out = execFileSync('openssl', ['dgst', '-sha1', '-hmac', secret], { input: body }).toString();
    // "HMAC-SHA1(stdin)= <hex>" (OpenSSL 3) or "(stdin)= <hex>" (1.1)
    return out.trim().split(/\s+/).pop()!;
  }
  const script =
    "const c=require('node:crypto');const chunks=[];process.stdin.on('data',d=>chunks.push(d));" +
    "process.stdin.on('end',()=>process.stdout.write(c.createHmac('sha1',Buffer.from(process.argv[1],'utf8')).update(Buffer.concat(chunks)).digest('hex')))";
  return execFileSync(process.execPath, ['-e', script, secret], { input: body }).toString().trim();
}

const BODY = Buffer.from(
  '{"id":"1b6a3d52-6f6c-4a43-9bd0-0d5b0e0d8c11","status":"finished","platform":"ios","message":"Ünïcødé ✓ \\u2028"}',
  'utf8',
);

describe('signWebhookBody', () => {
  it.each([
    ['a JSON body', BODY, SECRET],
    ['an empty body', Buffer.alloc(0), SECRET],
    ['a body with line breaks and spaces', Buffer.from('{\n  "a": 1,\r\n  "b": [ 2 , 3 ]\n}\n'), SECRET],
    ['binary bytes', Buffer.from([0x00, 0xff, 0x80, 0x7f, 0x0a, 0xc3, 0x28]), SECRET],
    ['a non-ASCII secret', BODY, 'sécret-ключ-秘密-0123456789'],
    ['a secret of exactly 16 characters', BODY, '0123456789abcdef'],
    ['a long secret', BODY, 'x'.repeat(200)],
  ])('matches an independent HMAC-SHA1 for %s', (_name, body, secret) => {
    const expected = independentHex(body, secret);
    expect(expected).toMatch(/^[0-9a-f]{40}$/);
    expect(signWebhookBody(body, secret)).toBe(`sha1=${expected}`);
    expect(checkWebhookSignature(body, `sha1=${expected}`, secret)).toEqual({ valid: true });
  });

  it('matches the RFC 2202 known answer (key 0x0b x 20, "Hi There")', () => {
    expect(signWebhookBody('Hi There', '\x0b'.repeat(20))).toBe(
      'sha1=b617318655057264e28bc0b6fb378c8ef146be00',
    );
  });

  it('treats a string as its UTF-8 bytes', () => {
    expect(signWebhookBody(BODY.toString('utf8'), SECRET)).toBe(signWebhookBody(BODY, SECRET));
    expect(checkWebhookSignature(BODY.toString('utf8'), signWebhookBody(BODY, SECRET), SECRET).valid).toBe(
      true,
    );
  });

  it.each([
    ['empty', '', /empty/],
    ['15 characters', '0123456789abcde', /at least 16 characters long \(it has 15\)/],
  ])('refuses a secret that is %s, for signing and for verifying', (_name, secret, message) => {
    expect(() => signWebhookBody(BODY, secret)).toThrow(WebhookSecretError);
    expect(() => signWebhookBody(BODY, secret)).toThrow(message);
    expect(() => checkWebhookSignature(BODY, 'sha1=' + '0'.repeat(40), secret)).toThrow(WebhookSecretError);
    expect(() => checkWebhookSignature(BODY, 'sha1=' + '0'.repeat(40), secret)).toThrow(WebhookSecretError);
  });
});

describe('checkWebhookSignature', () => {
  const good = signWebhookBody(BODY, SECRET);
  const digest = good.slice(5);

  /** A rejection: valid false, the expected problem, and no trace of the expected digest. */
  function expectRejected(
    body: Buffer | string,
    header: string | undefined | null,
    problem: string,
    secret = SECRET,
  ) {
    const check = checkWebhookSignature(body, header, secret);
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect(check.problem).toBe(problem);
    expect(check.message).toMatch(/^Invalid signature: /);
    const expectedHex = signWebhookBody(body, secret).slice(5);
    expect(check.message.toLowerCase()).not.toContain(expectedHex);
    return check.message;
  }

  it('accepts the genuine body and header', () => {
    expect(checkWebhookSignature(BODY, good, SECRET)).toEqual({ valid: true });
  });

  it('rejects a change of any single byte of the body', () => {
    for (let i = 0; i < BODY.length; i++) {
      const tampered = Buffer.from(BODY);
      tampered[i] ^= 0x01;
      expectRejected(tampered, good, 'mismatch');
    }
  });

  it('rejects a change of any single hex digit of the signature', () => {
    for (let i = 0; i < digest.length; i++) {
      const swapped = digest[i] === '0' ? '1' : '0';
      expectRejected(BODY, `sha1=${digest.slice(0, i)}${swapped}${digest.slice(i + 1)}`, 'mismatch');
    }
  });

  it('rejects truncated and extended bodies', () => {
    expectRejected(BODY.subarray(0, BODY.length - 1), good, 'mismatch');
    expectRejected(BODY.subarray(1), good, 'mismatch');
    expectRejected(Buffer.alloc(0), good, 'mismatch');
    expectRejected(Buffer.concat([BODY, Buffer.from('\n')]), good, 'mismatch');
    expectRejected(Buffer.concat([BODY, Buffer.from(' ')]), good, 'mismatch');
    expectRejected(Buffer.concat([BODY, Buffer.from([0])]), good, 'mismatch');
    expectRejected(Buffer.concat([BODY, BODY]), good, 'mismatch');
  });

  it('rejects white-space changes and re-serialised JSON (verification is on the raw bytes)', () => {
    const spaced = Buffer.from('{ "a": 1, "b": "x" }');
    const header = signWebhookBody(spaced, SECRET);
    expect(checkWebhookSignature(spaced, header, SECRET).valid).toBe(true);
    expectRejected(JSON.stringify(JSON.parse(spaced.toString())), header, 'mismatch');
    expectRejected(JSON.stringify(JSON.parse(spaced.toString()), null, 2), header, 'mismatch');
    expectRejected('{ "a": 1, "b": "x" } ', header, 'mismatch');
    expectRejected('{ "a": 1,  "b": "x" }', header, 'mismatch');
    expectRejected('{ "a": 1,\t"b": "x" }', header, 'mismatch');
    expectRejected('{ "a": 1, "b": "x" }\r\n', header, 'mismatch');
  });

  it('rejects a signature made with another secret', () => {
    expectRejected(BODY, signWebhookBody(BODY, 'another-secret-of-enough-length'), 'mismatch');
    expectRejected(BODY, signWebhookBody(BODY, SECRET + 'x'), 'mismatch');
  });

  it('says "missing" for an absent or empty header', () => {
    expect(expectRejected(BODY, undefined, 'missing')).toMatch(/svc-signature header is missing/);
    expectRejected(BODY, null, 'missing');
    expectRejected(BODY, '', 'missing');
  });

  it.each([
    ['no prefix (bare digest)', () => digest, /does not start with `sha1=`/],
    ['a sha256= prefix', () => `sha256=${digest}`, /does not start with `sha1=`/],
    ['an uppercase prefix', () => `SHA1=${digest}`, /prefix must be lowercase/],
    ['a sha1: separator', () => `sha1:${digest}`, /does not start with `sha1=`/],
    ['a leading space', () => ` ${good}`, /does not start with `sha1=`/],
    ['uppercase hex digits', () => `sha1=${digest.toUpperCase()}`, /uppercase hexadecimal digits/],
    ['one uppercase hex digit', () => `sha1=${digest.replace(/[a-f]/, (c) => c.toUpperCase())}`, /uppercase/],
    ['39 hex digits', () => good.slice(0, -1), /has 39 characters after `sha1=`/],
    ['41 hex digits', () => `${good}0`, /has 41 characters after `sha1=`/],
    ['nothing after the prefix', () => 'sha1=', /has 0 characters/],
    ['a trailing newline', () => `${good}\n`, /has 41 characters/],
    ['non-hex characters', () => `sha1=${digest.slice(0, -1)}g`, /not hexadecimal digits/],
    ['two signatures', () => `${good},${good}`, /has 86 characters/],
  ])('calls a header with %s malformed, naming the form and never the digest', (_name, header, message) => {
    const text = expectRejected(BODY, header(), 'malformed');
    expect(text).toMatch(message);
    expect(text).toContain('must be `sha1=` followed by 40 lowercase hexadecimal digits');
  });
});
