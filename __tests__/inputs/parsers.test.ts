/**
 * The pure parsers the input tables are made of (src/inputs/parsers.ts): what each accepts, what it
 * returns, and the message a user reads for a bad value, which names the input, says what is
 * allowed, and never quotes something that may be a secret.
 */
import * as parse from '../../src/inputs/parsers.js';
import { InputProblem, type Parser } from '../../src/inputs/parsers.js';

/** The message a parser throws for `value` under the input name `name`. */
function refusal<T>(parser: Parser<T>, value: string, name = 'x'): string {
  try {
    parser(value, name);
  } catch (error) {
    expect(error).toBeInstanceOf(InputProblem);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

const GITHUB_LIKE_TOKEN = 'svc_robot_Q2hlY2tUaGlzVG9rZW4xMjM0NTY';

describe('shown: what an error message may quote', () => {
  it('quotes plain values, flattening control characters and cutting long ones', () => {
    expect(parse.shown('windows')).toBe('`windows`');
    expect(parse.shown('a\nb\u0007c')).toBe('`a?b?c`');
    expect(parse.shown('word '.repeat(20))).toMatch(/^`(word ){11}wo\.\.\.`$/);
  });

  it.each([
    ['a token', GITHUB_LIKE_TOKEN],
    ['a URL with user:password@', 'https://admin:hunter2@svc.example'],
    ['user:password@ without a scheme', 'admin:correcthorse@svc.example.com'],
    ['a token after a word', `Bearer ${GITHUB_LIKE_TOKEN}`],
    ['a token before a word', `${GITHUB_LIKE_TOKEN} (robot)`],
  ])('never quotes %s', (_label, value) => {
    const text = parse.shown(value);
    expect(text).toBe('a value that looks like a credential (not shown)');
  });

  it('still quotes ordinary long values: URLs without credentials, file names, sentences', () => {
    for (const value of [
      'https://svc.example.com/some/long/path/prefix',
      'my-end-to-end-tests-2024.yml',
      'a sentence with several words in it',
    ])
      expect(parse.shown(value)).toContain(value.slice(0, 20));
  });
});

describe('didYouMean', () => {
  it('suggests the same word in another case, or one or two letters off', () => {
    expect(parse.didYouMean('iOS', ['android', 'ios'])).toBe(' Did you mean `ios`?');
    expect(parse.didYouMean('Appium', ['agent-device', 'appium'])).toBe(' Did you mean `appium`?');
    expect(parse.didYouMean('andriod', ['android', 'ios'])).toBe(' Did you mean `android`?');
    expect(parse.didYouMean('windows', ['android', 'ios'])).toBe('');
  });
});

describe('scalar parsers', () => {
  it('text: one line of at most max characters', () => {
    expect(parse.text(5)('abcde', 'name')).toBe('abcde');
    expect(refusal(parse.text(5), 'abcdef', 'name')).toBe(
      '`name` is 6 characters long; at most 5 are allowed.',
    );
    for (const bad of ['a\nb', 'a\rb', 'a\u0000b', 'a\u0085b', 'a\u2028b'])
      expect(refusal(parse.text(50), bad, 'name')).toBe(
        '`name` must be a single line without control characters.',
      );
  });

  it('uuid: 8-4-4-4-12 hexadecimal digits, lower-cased', () => {
    expect(parse.uuid('4F6C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B', 'app-id')).toBe(
      '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
    );
    for (const bad of ['my-app', '4f6c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5bx', '../../v2/workflows/dispatch'])
      expect(refusal(parse.uuid, bad, 'app-id')).toMatch(/^`app-id` must be a UUID \(8-4-4-4-12 /);
  });

  it("boolean: the YAML 1.2 core schema's spellings, with a hint for a near miss", () => {
    expect(['true', 'True', 'TRUE', 'false', 'False', 'FALSE'].map((v) => parse.boolean(v, 'wait'))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(refusal(parse.boolean, 'yes', 'wait')).toBe('`wait` must be `true` or `false`; got `yes`.');
    expect(refusal(parse.boolean, 'tru', 'wait')).toContain('Did you mean `true`?');
  });

  it('oneOf: names the allowed values and the near miss', () => {
    const platform = parse.oneOf(['android', 'ios']);
    expect(platform('ios', 'platform')).toBe('ios');
    expect(refusal(platform, 'iOS', 'platform')).toBe(
      '`platform` is `iOS`; allowed: android, ios. Did you mean `ios`?',
    );
  });

  it('oneOfList: commas or line breaks, duplicates dropped; each unknown word named with its near miss', () => {
    const statuses = parse.oneOfList(['finished', 'errored', 'canceled']);
    expect(statuses('errored, canceled\nerrored\n', 's')).toEqual(['errored', 'canceled']);
    expect(refusal(statuses, 'errored,cancelled,done', 's')).toBe(
      '`s` has values that are not allowed: `cancelled` (did you mean `canceled`?), `done`. ' +
        'Allowed, separated by commas or line breaks: finished, errored, canceled.',
    );
    expect(refusal(statuses, ', ,', 's')).toBe(
      '`s` lists nothing. Allowed, separated by commas or line breaks: finished, errored, canceled.',
    );
  });

  it('integer: whole numbers in range only', () => {
    const minutes = parse.integer(0, 115);
    expect(['0', '30', '115'].map((v) => minutes(v, 'm'))).toEqual([0, 30, 115]);
    for (const bad of ['-1', '30.5', '116', '1e2', 'ten', '0x10'])
      expect(refusal(minutes, bad, 'm')).toBe(`\`m\` must be a whole number from 0 to 115; got \`${bad}\`.`);
  });

  it('positiveNumber: decimals above zero and within range, with a floor', () => {
    const seconds = parse.positiveNumber(3600, parse.MIN_POLL_INTERVAL_SECONDS);
    expect(['0.05', '.5', '10', '3600'].map((v) => seconds(v, 'p'))).toEqual([0.05, 0.5, 10, 3600]);
    for (const bad of ['0', '0.04', '0.001', '-1', '5.', '1e3', 'Infinity', 'NaN', '3601', 'fast'])
      expect(refusal(seconds, bad, 'p')).toBe(
        `\`p\` must be a positive number (fractions allowed) from 0.05 to 3600; got \`${bad}\`.`,
      );
    expect(refusal(parse.positiveNumber(10), '0', 'timeout-minutes')).toContain('up to 10');
  });

  it('credential: printable ASCII, one word, never echoed', () => {
    expect(parse.credential(GITHUB_LIKE_TOKEN, 'token')).toBe(GITHUB_LIKE_TOKEN);
    for (const bad of ['tök_abcdef', 'abc def', 'abc\ndef', 'abc\u0000def', 'abc\u00a0def', 'abc\u2028def']) {
      const message = refusal(parse.credential, bad, 'token');
      expect(message).toBe(
        '`token` must be a single word of printable ASCII characters (no spaces, line breaks or other characters an HTTP header cannot carry).',
      );
    }
  });

  it('majorVersion: a major version such as 52', () => {
    expect(parse.majorVersion('52', 'sdk-version')).toBe('52');
    for (const bad of ['abc', '052', '52.1', '0', '-1', 'v52'])
      expect(refusal(parse.majorVersion, bad, 'sdk-version')).toBe(
        `\`sdk-version\` must be a major version number such as \`52\`; got \`${bad}\`.`,
      );
  });

  it('schemeUrl: a URL with a scheme', () => {
    expect(parse.schemeUrl('myapp://home', 'open-url')).toBe('myapp://home');
    expect(refusal(parse.schemeUrl, 'not a url', 'open-url')).toContain('must be a URL with a scheme');
  });

  it('httpUrl: http(s) only, length first', () => {
    expect(parse.httpUrl(100)('https://x.example/a.apk', 'u')).toBe('https://x.example/a.apk');
    expect(refusal(parse.httpUrl(100), 'file:///etc/passwd', 'u')).toBe(
      '`u` must be an http or https URL; got `file:///etc/passwd`.',
    );
    expect(refusal(parse.httpUrl(100), 'https://x/a b', 'u')).toContain('http or https URL');
    expect(refusal(parse.httpUrl(20), `https://x/${'a'.repeat(20)}`, 'u')).toBe(
      '`u` is 30 characters long; at most 20 are allowed.',
    );
  });
});

describe('baseUrl', () => {
  it('normalises without a trailing slash, path prefix and IPv6 literal kept', () => {
    expect(parse.baseUrl('https://svc.example/api/', 'base-url')).toBe('https://svc.example/api');
    expect(parse.baseUrl('http://[::1]:8787/', 'base-url')).toBe('http://[::1]:8787');
  });

  it.each(['https://svc.example/v2', 'https://svc.example/api/v2/', 'http://127.0.0.1:8787/v1'])(
    'refuses %s, which names the API version, with the hint',
    (value) => {
      expect(refusal(parse.baseUrl, value, 'base-url')).toMatch(
        /^`base-url` must not include the API version \(.*\/v\d\): give the service's base URL, such as https:\/\/api\.example\.com; the action adds \/v2 itself\.$/,
      );
    },
  );

  it.each([
    ['user and password', 'https://admin:hunter2@svc.example', 'hunter2'],
    ['password only', 'http://:hunter2@svc.example', 'hunter2'],
    ['a password with a space', 'https://admin:hunter2 x@svc.example.com', 'hunter2'],
    ['user:password@ without a scheme', 'admin:correcthorse@svc.example.com', 'correcthorse'],
    ['user:password@ without a host', 'https://admin:hunter2@', 'hunter2'],
    ['a pasted token', GITHUB_LIKE_TOKEN, GITHUB_LIKE_TOKEN],
    ['a pasted "Bearer <token>"', `Bearer ${GITHUB_LIKE_TOKEN}`, GITHUB_LIKE_TOKEN],
  ])('refuses a value with %s without echoing the secret', (_label, value, secret) => {
    const message = refusal(parse.baseUrl, value, 'base-url');
    expect(message).toMatch(/^`base-url` must /);
    expect(message).not.toContain(secret);
    // Not even a long prefix of it.
    expect(message).not.toContain(secret.slice(0, 8));
  });

  it('refuses other schemes, queries and fragments, quoting only harmless values', () => {
    expect(refusal(parse.baseUrl, 'ftp://svc.example', 'base-url')).toBe(
      '`base-url` must be an http or https URL, optionally with a path prefix; got `ftp://svc.example`.',
    );
    expect(refusal(parse.baseUrl, 'svc.example.com', 'base-url')).toContain('got `svc.example.com`');
    expect(refusal(parse.baseUrl, 'https://svc.example/?token=hunter2', 'base-url')).toBe(
      '`base-url` must not have a query or fragment.',
    );
    expect(refusal(parse.baseUrl, 'https://svc.example/#x', 'base-url')).toBe(
      '`base-url` must not have a query or fragment.',
    );
  });
});

describe('workflow, git-ref, launch-args, jobs', () => {
  it('workflowFileName: a .yml or .yaml name without a directory', () => {
    expect(parse.workflowFileName('e2e.yaml', 'workflow')).toBe('e2e.yaml');
    for (const bad of ['.eas/workflows/e2e.yml', '../e2e.yml', 'dir\\e2e.yml', '..', '.hidden.yml'])
      expect(refusal(parse.workflowFileName, bad, 'workflow')).toMatch(
        /^`workflow` must be a file name only/,
      );
    for (const bad of ['e2e', 'e2e.json', 'e2e\u001b[31m.yml', `${'a'.repeat(260)}.yml`])
      expect(refusal(parse.workflowFileName, bad, 'workflow')).toMatch(
        /^`workflow` must be a \.yml or \.yaml file name of at most 255 characters/,
      );
  });

  it('gitRef: a branch, tag, SHA or full ref, never an option or a range', () => {
    expect(parse.gitRef('refs/heads/main', 'git-ref')).toBe('refs/heads/main');
    for (const bad of [
      '-x',
      '--upload-pack=evil',
      'a..b',
      'has space',
      'a~1',
      'x:y',
      'x?',
      'a\\b',
      'x'.repeat(256),
    ])
      expect(refusal(parse.gitRef, bad, 'git-ref')).toMatch(/^`git-ref` must be a branch, tag, commit SHA/);
  });

  it('launchArgs: one per line, or a JSON array of strings', () => {
    expect(parse.launchArgs('--a\r\n\n  --b=1  \n', 'launch-args')).toEqual(['--a', '--b=1']);
    expect(parse.launchArgs('["a b", "c"]', 'launch-args')).toEqual(['a b', 'c']);
    for (const bad of ['["-a", 1]', '[not json', '[{"a": "b"}]'])
      expect(refusal(parse.launchArgs, bad, 'launch-args')).toBe(
        '`launch-args` starts with `[` but is not a JSON array of strings; use a JSON array or one argument per line.',
      );
  });

  it('jobKeys: comma- or newline-separated, each once; `type:<job type>` selects by type', () => {
    expect(parse.jobKeys('build, test\nlint,build', 'jobs')).toEqual(['build', 'test', 'lint']);
    expect(parse.jobKeys('type:build, type: submission\ntest', 'jobs')).toEqual([
      'type:build',
      'type:submission',
      'test',
    ]);
    for (const bad of [' , ', 'a b', 'a\u0007', 'type:', 'type: '])
      expect(refusal(parse.jobKeys, bad, 'jobs')).toMatch(/^`jobs` must list job keys .* or job types/);
  });

  it('commitSha: a SHA or its first 7 or more hexadecimal digits, lower-cased', () => {
    expect(parse.commitSha('ABCDEF0', 'expected-commit')).toBe('abcdef0');
    expect(parse.commitSha('a'.repeat(40), 'expected-commit')).toBe('a'.repeat(40));
    for (const bad of ['abc123', 'main', 'g'.repeat(40), 'a'.repeat(65), 'HEAD~1'])
      expect(refusal(parse.commitSha, bad, 'expected-commit')).toMatch(
        /^`expected-commit` must be a commit SHA/,
      );
  });
});

describe('dispatchInputs (`inputs`)', () => {
  const read = (text: string) => parse.dispatchInputs(text, 'inputs');

  it('reads YAML and JSON mappings of scalars', () => {
    expect(read('profile: preview\nretries: 3\ndry: true\nratio: 1.5\nneg: -3\nquoted: "1.10"')).toEqual({
      profile: 'preview',
      retries: 3,
      dry: true,
      ratio: 1.5,
      neg: -3,
      quoted: '1.10',
    });
    expect(read('{"a": "b", "n": 2}')).toEqual({ a: 'b', n: 2 });
    // YAML 1.2: `yes` is a string, and `1_000` is not a number.
    expect(read('a: yes\nb: 1_000')).toEqual({ a: 'yes', b: '1_000' });
  });

  it('keeps a `__proto__` key as a key', () => {
    const inputs = read('__proto__: x\nb: 1');
    expect(Object.keys(inputs)).toEqual(['__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(inputs, '__proto__')?.value).toBe('x');
    expect(JSON.stringify(inputs)).toBe('{"__proto__":"x","b":1}');
    expect(Object.getPrototypeOf(inputs)).toBe(Object.prototype);
  });

  it.each([
    ['1.10', '1.1'],
    ['1.0', '1'],
    ['0x1F', '31'],
    ['0o17', '15'],
    ['010', '10'],
    ['+1', '1'],
    ['1e3', '1000'],
    ['12345678901234567890', '12345678901234567000'],
    ['.inf', 'Infinity'],
    ['-.inf', '-Infinity'],
    ['.nan', 'NaN'],
  ])('refuses %s (read as %s), saying to quote it, in the same words whatever the value', (written) => {
    const message = refusal(parse.dispatchInputs, `version: ${written}`, 'inputs');
    expect(message).toBe(
      '`inputs.version` is a number that YAML would change (it reads `1.10` as 1.1, `0x1F` as 31, and long numbers with lost digits); quote it to send it as written.',
    );
  });

  it('refuses a changed number in JSON too', () => {
    expect(refusal(parse.dispatchInputs, '{"v": 1.10}', 'inputs')).toContain(
      '`inputs.v` is a number that YAML would change',
    );
  });

  it.each([
    ['a: 1\na: 2', 'at line 2, column 1, the key `a` appears more than once.'],
    ['first: 1\nsecond: 2\nfirst: 3', 'at line 3, column 1, the key `first` appears more than once.'],
    ['{"a": 1, "a": 2}', 'at line 1, column 10, the key `a` appears more than once.'],
    ['x: 1\n  y: 2', 'at line 1, column 4, a block is used as a key.'],
    ['a: "unterminated', 'at line 1, column 17, a closing quote or bracket is missing.'],
    ['a: 1\n---\nb: 2', 'at line 2, column 1, there is more than one document (`---`).'],
    ['a:\n\t- b', 'at line 2, column 1, a tab is used for indentation (use spaces).'],
  ])('says where YAML %j is broken, in words', (text, where) => {
    expect(refusal(parse.dispatchInputs, text, 'inputs')).toBe(
      `\`inputs\` is not valid YAML or JSON: ${where}`,
    );
  });

  it.each([
    ['- a\n- b', '`inputs` must be a mapping of input names to values'],
    ['[1, 2, 3]', '`inputs` must be a mapping of input names to values'],
    ['just text', '`inputs` must be a mapping of input names to values'],
    ['a: &x 1\nb: *x', '`inputs` must be a plain mapping; YAML anchors (&name) are not allowed.'],
    ['a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]', 'anchors (&name) are not allowed'],
    ['a: !!str 1', '`inputs` must be a plain mapping; YAML tags (!tag) are not allowed.'],
    ['a: !js/function "() => 1"', 'tags (!tag) are not allowed'],
    ['a: [1, 2]', '`inputs.a` must be a string, number or boolean'],
    ['a:\n  nested: 1', '`inputs.a` must be a string, number or boolean'],
    ['a:', '`inputs.a` must be a string, number or boolean'],
    ['a: ~', '`inputs.a` must be a string, number or boolean'],
    ['"": 1', '`inputs` has an empty or unprintable key.'],
    ['{ unterminated', '`inputs` is not valid YAML or JSON'],
    ['{"a": 1,', '`inputs` is not valid YAML or JSON'],
  ])('refuses %j', (text, expected) => {
    expect(refusal(parse.dispatchInputs, text, 'inputs')).toContain(expected);
  });

  it('lists every bad entry at once', () => {
    const message = refusal(parse.dispatchInputs, 'a: [1]\nb: {c: 1}\nc: 1.10\nd: fine', 'inputs');
    expect(message).toContain('`inputs.a` must be');
    expect(message).toContain('`inputs.b` must be');
    expect(message).toContain('`inputs.c` is a number that YAML would change');
  });
});
