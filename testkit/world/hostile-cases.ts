/**
 * The hostile-input matrix: malformed input combinations across the four commands (wrong types,
 * out-of-range numbers, negative and fractional minutes, huge strings, paths in the workflow name,
 * invalid UUIDs, conflicting application sources, non-mapping `inputs`, YAML anchors and tags,
 * control characters). Every case is checked against the input tables in
 * __tests__/inputs/hostile.test.ts, and a sample of them through the built bundles in
 * __tests__/security/hostile-inputs.test.ts.
 */
export const UUID = '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const HUGE = 'a'.repeat(70_000);
export const TOKEN = 'svc_hostile_matrix_token_0123456789';
export const BASE_URL = 'http://127.0.0.1:1';

export type Case = [label: string, command: string, inputs: Record<string, string>, names: string];

const run = (label: string, inputs: Record<string, string>, names: string): Case => [
  label,
  'run-workflow',
  inputs,
  names,
];
const start = (label: string, inputs: Record<string, string>, names: string): Case => [
  label,
  'start-device-session',
  inputs,
  names,
];
const stop = (label: string, inputs: Record<string, string>, names: string): Case => [
  label,
  'stop-device-session',
  inputs,
  names,
];
const webhook = (label: string, inputs: Record<string, string>, names: string): Case => [
  label,
  'verify-webhook',
  inputs,
  names,
];

export const CASES: Case[] = [
  // run-workflow
  run('app-id that is not a UUID', { 'app-id': 'my-app' }, 'app-id'),
  run('app-id missing', { 'app-id': '' }, 'app-id'),
  run('app-id UUID with trailing text', { 'app-id': `${UUID}x` }, 'app-id'),
  run('workflow with a parent path', { workflow: '../secrets.yml' }, 'workflow'),
  run('workflow with a directory', { workflow: '.eas/workflows/e2e.yml' }, 'workflow'),
  run('workflow with a Windows path', { workflow: 'C:\\flows\\e2e.yml' }, 'workflow'),
  run('workflow not YAML', { workflow: 'e2e.json' }, 'workflow'),
  run('workflow with control characters', { workflow: 'e2e\u001b[31m.yml' }, 'workflow'),
  run('workflow huge', { workflow: `${HUGE}.yml` }, 'workflow'),
  run('git-ref that is an option', { 'git-ref': '--upload-pack=evil' }, 'git-ref'),
  run('git-ref with ..', { 'git-ref': 'main..dev' }, 'git-ref'),
  run('git-ref with a space', { 'git-ref': 'ma in' }, 'git-ref'),
  run('inputs a list', { inputs: '[1, 2, 3]' }, 'inputs'),
  run('inputs a scalar', { inputs: 'just text' }, 'inputs'),
  run('inputs with anchors and aliases', { inputs: 'a: &x 1\nb: *x' }, 'inputs'),
  run('inputs with a tag', { inputs: 'a: !!binary aGVsbG8=' }, 'inputs'),
  run('inputs with a custom tag', { inputs: 'a: !js/function "() => 1"' }, 'inputs'),
  run('inputs nested mapping', { inputs: 'a:\n  nested: 1' }, 'inputs'),
  run('inputs broken JSON', { inputs: '{"a": 1,' }, 'inputs'),
  run('inputs duplicate keys', { inputs: 'a: 1\na: 2' }, 'inputs'),
  run('inputs billion laughs', { inputs: 'a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]' }, 'inputs'),
  run('wait not a boolean', { wait: 'yes' }, 'wait'),
  run('poll interval negative', { 'poll-interval-seconds': '-1' }, 'poll-interval-seconds'),
  run('poll interval zero', { 'poll-interval-seconds': '0' }, 'poll-interval-seconds'),
  run('poll interval not a number', { 'poll-interval-seconds': 'fast' }, 'poll-interval-seconds'),
  run('timeout negative minutes', { 'timeout-minutes': '-5' }, 'timeout-minutes'),
  run('timeout negative fraction', { 'timeout-minutes': '-0.5' }, 'timeout-minutes'),
  run('timeout in exponent form', { 'timeout-minutes': '1e3' }, 'timeout-minutes'),
  run('timeout out of range', { 'timeout-minutes': '99999999' }, 'timeout-minutes'),
  run('timeout NaN', { 'timeout-minutes': 'NaN' }, 'timeout-minutes'),
  run('timeout Infinity', { 'timeout-minutes': 'Infinity' }, 'timeout-minutes'),
  run('base-url ftp', { 'base-url': 'ftp://svc.example' }, 'base-url'),
  run('base-url with credentials', { 'base-url': 'https://user:pass@svc.example' }, 'base-url'),
  run('base-url with a query', { 'base-url': 'https://svc.example/?x=1' }, 'base-url'),
  run('token with a line break', { token: 'abc\ndef' }, 'token'),
  run('token missing', { token: '' }, 'token'),
  ['command unknown', 'deploy', {}, 'command'],
  ['command missing', '', {}, 'command'],
  ['command with a control character', 'run-workflow\u0007', {}, 'command'],
  // start-device-session
  start('platform unknown', { platform: 'windows' }, 'platform'),
  start('platform missing', { platform: '' }, 'platform'),
  start('type unknown', { type: 'selenium' }, 'type'),
  start('max duration negative', { 'max-duration-minutes': '-1' }, 'max-duration-minutes'),
  start('max duration fractional', { 'max-duration-minutes': '30.5' }, 'max-duration-minutes'),
  start('max duration above the limit', { 'max-duration-minutes': '116' }, 'max-duration-minutes'),
  start('max duration a word', { 'max-duration-minutes': 'ten' }, 'max-duration-minutes'),
  start('max idle zero', { 'max-idle-time-minutes': '0' }, 'max-idle-time-minutes'),
  start('max idle fractional', { 'max-idle-time-minutes': '1.5' }, 'max-idle-time-minutes'),
  start(
    'max idle not below max duration',
    { 'max-idle-time-minutes': '40', 'max-duration-minutes': '30' },
    'max-idle-time-minutes',
  ),
  start('build-id not a UUID', { 'build-id': 'latest' }, 'build-id'),
  start(
    'build-id and archive URL',
    { 'build-id': UUID, 'application-archive-url': 'https://x.example/a.apk' },
    'application-archive-url',
  ),
  start('build-id and svc-go', { 'build-id': UUID, 'svc-go': 'true' }, 'svc-go'),
  start(
    'archive URL a file path',
    { 'application-archive-url': 'file:///etc/passwd' },
    'application-archive-url',
  ),
  start(
    'archive URL huge',
    { 'application-archive-url': `https://x.example/${'a'.repeat(3000)}` },
    'application-archive-url',
  ),
  start('name too long', { name: 'n'.repeat(300) }, 'name'),
  start('name with a bell', { name: 'a\u0007b' }, 'name'),
  start('name with a line break', { name: 'a\n::error::b' }, 'name'),
  start('launch-args JSON with a number', { 'build-id': UUID, 'launch-args': '["-a", 1]' }, 'launch-args'),
  start('launch-args without an application', { 'launch-args': '-a' }, 'launch-args'),
  start('sdk-version without svc-go', { 'sdk-version': '54' }, 'sdk-version'),
  start('open-url not a URL', { 'build-id': UUID, 'open-url': 'not a url' }, 'open-url'),
  start('serve-sim on Android', { type: 'serve-sim', platform: 'android' }, 'type'),
  start('svc-go not a boolean', { 'svc-go': 'maybe' }, 'svc-go'),
  start('export-env not a boolean', { 'export-env': 'TRUE!' }, 'export-env'),
  start('auto-stop a number', { 'auto-stop': '1' }, 'auto-stop'),
  start('device-identifier with a line break', { 'device-identifier': 'iPhone\n15' }, 'device-identifier'),
  start('app-id invalid', { 'app-id': '{{ secrets.APP }}' }, 'app-id'),
  // stop-device-session
  stop('session-id missing', {}, 'session-id'),
  stop('session-id a path', { 'session-id': '../../v2/workflows/dispatch' }, 'session-id'),
  stop('session-id huge', { 'session-id': HUGE }, 'session-id'),
  stop('session-id with control characters', { 'session-id': `${UUID}\u0001` }, 'session-id'),
  stop('session-id fine, token missing', { 'session-id': UUID, token: '' }, 'token'),
  stop('session-id fine, base-url missing', { 'session-id': UUID, 'base-url': '' }, 'base-url'),
  // verify-webhook
  webhook(
    'secret too short',
    { 'webhook-secret': 'short', signature: 'sha1=00', payload: '{}' },
    'webhook-secret',
  ),
  webhook('secret missing', { signature: 'sha1=00', payload: '{}' }, 'webhook-secret'),
  webhook('signature missing', { 'webhook-secret': 'w'.repeat(20), payload: '{}' }, 'signature'),
  webhook(
    'payload and payload-file',
    { 'webhook-secret': 'w'.repeat(20), signature: 'sha1=00', payload: '{}', 'payload-file': 'body.json' },
    'payload-file',
  ),
  webhook('no payload', { 'webhook-secret': 'w'.repeat(20), signature: 'sha1=00' }, 'payload'),
];
