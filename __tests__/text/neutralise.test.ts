/**
 * No text, whatever characters it holds, becomes a workflow command when the action prints it:
 * checked with the runner-like parser on the neutraliser, then on everything createCoreIO() writes
 * through @actions/core (log lines, annotations, debug) with stdout captured.
 */
import { jest } from '@jest/globals';
import { readRunnerOutput, type RunnerCommand } from '../../testkit/runner/commands.js';
import { createCoreIO } from '../../src/runner/io.js';
import { neutraliseLines } from '../../src/text/neutralise.js';

/** Text from elsewhere as the review found it, and the rest of each class. */
const HOSTILE = [
  'Build ##[add-mask]success',
  'job ##[error title=Forged]x',
  'name ##[stop-commands]pause-me',
  'https://svc.example/s/1##[save-state name=stopped]true',
  '##[set-output name=x]1',
  '##[ADD-MASK]success',
  '\u0085::add-mask::success',
  '\u00a0::error::forged',
  '\u3000::stop-commands::pause-me',
  '\u2028::warning::x',
  '\u205f\u2003 ::debug::x',
  'progress\r::add-mask::success',
  'line\r\n::error::x\n##[error]y',
  ':\u200b:add-mask::success',
  '::add-mask\u200b:\u200b:success',
  '#\u200b#[add-mask]success',
  '##\u00ad[error]x',
  '###[error]x',
  '##[##[error]x',
  '::::add-mask::x',
];

function obeyed(output: string): RunnerCommand[] {
  return [
    ...readRunnerOutput(output).commands,
    ...readRunnerOutput(output, { ignorables: 'strip' }).commands,
  ];
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe('neutraliseLines', () => {
  it('the hostile texts are commands as they are, and none is after neutralising', () => {
    for (const text of HOSTILE.slice(0, 13)) expect(obeyed(text)).not.toEqual([]);
    for (const text of HOSTILE) expect(obeyed(neutraliseLines(text))).toEqual([]);
  });

  it('leaves the text readable: a marker in front of a `::` line, a space inside `##[`', () => {
    expect(neutraliseLines('Build ##[add-mask]success')).toBe('Build ## [add-mask]success');
    expect(neutraliseLines('ok\n  ::error::z\r\u0085::warning::w')).toBe('ok\n» ::error::z\n» ::warning::w');
    expect(neutraliseLines('plain text: a::b, #1, [x], https://x.example/a?b=c#d')).toBe(
      'plain text: a::b, #1, [x], https://x.example/a?b=c#d',
    );
  });

  it('no random mix of command characters gets through (20,000 cases)', () => {
    const pieces = [
      ':',
      '::',
      '#',
      '##',
      '[',
      ']',
      ' ',
      '\t',
      '\r',
      '\n',
      '\r\n',
      '\u0085',
      '\u00a0',
      '\u3000',
      '\u2028',
      '\u200b',
      '\u00ad',
      '\ufeff',
      'add-mask',
      'error',
      'stop-commands',
      'x',
      '=',
      ';',
      '%0A',
      '»',
    ];
    const next = random(11);
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let n = 1 + Math.floor(next() * 12); n > 0; n--)
        text += pieces[Math.floor(next() * pieces.length)];
      const commands = obeyed(neutraliseLines(text));
      if (commands.length > 0) throw new Error(`got through: ${JSON.stringify(text)}`);
    }
  });
});

describe('createCoreIO through @actions/core', () => {
  let written: string;
  let write: ReturnType<typeof jest.spyOn>;
  const summary = process.env.GITHUB_STEP_SUMMARY;
  beforeEach(() => {
    written = '';
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written += chunk.toString();
      return true;
    });
  });
  afterEach(() => {
    write.mockRestore();
    process.env.GITHUB_STEP_SUMMARY = summary;
  });

  it("every line it prints holds no command but the action's own, and the secret never shows", async () => {
    const io = createCoreIO();
    io.mask('dev1ce-t0ken-secret');
    for (const text of HOSTILE) {
      io.info(`Job ${text} is in progress`);
      io.warning(text);
      io.error(text);
      io.notice(text);
      io.debug(text);
    }
    io.mask('after-the-hostile-text-0');
    io.info('token dev1ce-t0ken-secret and after-the-hostile-text-0');

    const reading = readRunnerOutput(written);
    const own = reading.commands.map((command) => command.name);
    expect(new Set(own)).toEqual(new Set(['add-mask', 'warning', 'error', 'notice', 'debug']));
    // Both masks were obeyed, nothing else was registered, and commands were never stopped.
    expect(reading.masks).toEqual(['after-the-hostile-text-0', 'dev1ce-t0ken-secret']);
    expect(reading.stopped).toBe(false);
    // Each annotation carries the hostile text as its data, unchanged.
    expect(reading.commands.filter((c) => c.name === 'error').map((c) => c.data)).toEqual(HOSTILE);
    expect(readRunnerOutput(written, { ignorables: 'strip' }).masks).toEqual(reading.masks);
    expect(written.split('\n').filter((line) => line.includes('dev1ce-t0ken-secret'))).toEqual([
      '::add-mask::dev1ce-t0ken-secret',
    ]);
  });

  it('reads inputs raw and state as saved', () => {
    process.env.INPUT_WORKFLOW = '  e2e.yml \n';
    process.env['INPUT_GITHUB-TOKEN'] = 'x';
    process.env.STATE_session_id = 'abc';
    const io = createCoreIO();
    expect(io.getInput('workflow')).toBe('  e2e.yml \n');
    expect(io.getInput('github-token')).toBe('x');
    expect(io.getInput('unset')).toBe('');
    expect(io.getState('session_id')).toBe('abc');
    expect(io.getState('nothing')).toBe('');
    delete process.env.INPUT_WORKFLOW;
    delete process.env['INPUT_GITHUB-TOKEN'];
    delete process.env.STATE_session_id;
  });
});
