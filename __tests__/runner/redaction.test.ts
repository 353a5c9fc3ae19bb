/** Secrets stay hidden where text is shortened or escaped before it is printed. */
import { SecretRegistry, redactDeep } from '../../src/runner/io.js';
import { oneLine } from '../../src/text/one-line.js';
import { renderRunSummary } from '../../src/runs/report/run-summary.js';

const TOKEN = 'svc_robot_Z8k2mQ9xW4pL7vN3';

test('shortening never cuts a secret: a word that does not fit is left out whole', () => {
  const message = `${'x'.repeat(180)} the service said: token ${TOKEN} is revoked`;
  const cut = oneLine(message, 215);
  expect(cut).toMatch(/ the service said: token …$/);
  expect(cut).not.toContain(TOKEN.slice(0, 4));
});

test('a secret of several words cut between two of them leaves no part of itself behind', () => {
  const registry = new SecretRegistry();
  const passphrase = 'correct horse battery staple';
  registry.add(passphrase);
  const cut = oneLine(`${'x'.repeat(180)} the passphrase ${passphrase} was refused`, 215);
  expect(cut).toMatch(/ correct horse …$/);
  const shown = registry.redact(cut);
  expect(shown).toMatch(/the passphrase \*\*\* ?…$/);
  expect(shown).not.toContain('correct');
  // An ordinary ellipsis after text that is not a secret's start is left alone.
  expect(registry.redact('waiting …')).toBe('waiting …');
  expect(registry.redact('horse battery …')).toBe('horse battery …');
});

test('redactDeep hides secrets in every string of a value before it is rendered', () => {
  const value = { a: [TOKEN, { b: `x${TOKEN}y` }], n: 3, z: null };
  expect(redactDeep(value, (text) => text.split(TOKEN).join('***'))).toEqual({
    a: ['***', { b: 'x***y' }],
    n: 3,
    z: null,
  });
});

test('a job summary never shows a secret, even where Markdown escaping would change its characters', () => {
  const registry = new SecretRegistry();
  registry.add(TOKEN);
  const markdown = renderRunSummary(
    {
      title: 'e2e.yml',
      runId: '11111111-1111-4111-8111-111111111111',
      runUrl: 'https://svc.example.com/r',
      outcome: 'failure',
      run: {
        id: '11111111-1111-4111-8111-111111111111',
        status: 'failure',
        jobs: [{ id: 'j', key: 'e2e', status: 'failure', errors: [`auth failed for ${TOKEN}`] }],
      },
    },
    (text) => registry.redact(text),
  );
  expect(markdown).toContain('> auth failed for ***\n');
  // Escaped, the token would read svc\_robot\_…: neither form may appear.
  expect(markdown).not.toContain('Z8k2mQ9xW4pL7vN3');
});

describe('holdsSecret: a registered secret in any form it can take in rendered text', () => {
  const secret = 'Pr3view(T0ken)|wi\\th_Signs&<ok>';
  const registry = new SecretRegistry();
  registry.add(secret);
  const markdownEscaped = secret.replace(/[\\`*_{}[\]()#.!|~:$]/g, (sign) => `\\${sign}`);
  const forms: Record<string, string> = {
    whole: secret,
    'percent-encoded': encodeURIComponent(secret),
    'percent-encoded by a link': secret.replace(/[()|\\<>]/g, (s) => `%${s.charCodeAt(0).toString(16)}`),
    'Markdown-escaped': markdownEscaped,
    'HTML entities': secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    'Markdown-escaped with entities': markdownEscaped.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
    'JSON unicode escapes': JSON.stringify(secret)
      .slice(1, -1)
      .replace(/[()|]/g, (s) => `\\u00${s.charCodeAt(0).toString(16)}`),
    base64: Buffer.from(secret).toString('base64'),
    'base64 inside other base64': Buffer.from(`x:${secret}:y`).toString('base64'),
    base64url: Buffer.from(`ab${secret}`).toString('base64url'),
  };
  it.each(Object.entries(forms))('%s', (_, form) => {
    expect(registry.holdsSecret(`before ${form} after`)).toBe(true);
  });
  it('text without it, or with only a part of it, holds none', () => {
    expect(registry.holdsSecret('the preview: [open](<https://x.test/preview?token=***>) 100% done')).toBe(
      false,
    );
    expect(registry.holdsSecret(encodeURIComponent(secret.slice(0, 10)))).toBe(false);
  });
});
