/**
 * The runner-like parser the security tests rely on: it must find every command the GitHub runner
 * would obey (cases taken from actions/runner's ActionCommand and ActionCommandManager), or the
 * tests built on it would pass while the runner is fooled.
 */
import { readRunnerOutput, runnerLines } from '../../../testkit/runner/commands.js';
import { maskWith, renderLog } from '../../../testkit/runner/step.js';

const names = (output: string): string[] =>
  readRunnerOutput(output).commands.map((c) => `${c.name}:${c.data}`);

describe('runner-like command parser', () => {
  it('splits lines at CRLF, CR and LF, not at U+2028', () => {
    expect(runnerLines('a\r\nb\rc\nd\u2028e\n')).toEqual(['a', 'b', 'c', 'd\u2028e']);
    expect(names('progress\r::error::from a CR')).toEqual(['error:from a CR']);
  });

  it('reads `::` commands after .NET white space, which is more than JavaScript trims', () => {
    for (const space of [
      '',
      ' ',
      '\t',
      '\u0085',
      '\u00a0',
      '\u1680',
      '\u2003',
      '\u2028',
      '\u202f',
      '\u205f',
      '\u3000',
    ])
      expect(names(`${space}::add-mask::s3cret`)).toEqual(['add-mask:s3cret']);
    // Not white space to .NET: the line is text.
    expect(names('\u200b::add-mask::s3cret')).toEqual([]);
    expect(names('x ::add-mask::s3cret')).toEqual([]);
  });

  it('reads the legacy `##[` anywhere in a line, the first one only, names in any case', () => {
    expect(names('Build ##[add-mask]success')).toEqual(['add-mask:success']);
    expect(names('job ##[ERROR title=x;line=2]forged')).toEqual(['error:forged']);
    expect(readRunnerOutput('##[error title=a%3Bb]x').commands[0].properties).toEqual({ title: 'a;b' });
    expect(names('##[unknown]x ##[error]y')).toEqual([]);
    expect(names('##[error no closing bracket')).toEqual([]);
  });

  it('parses properties and unescapes data the runner way', () => {
    const [command] = readRunnerOutput('::error title=a%3Ab%2Cc,line=2::one%0Atwo%25').commands;
    expect(command).toMatchObject({
      name: 'error',
      data: 'one\ntwo%',
      properties: { title: 'a:b,c', line: '2' },
    });
    expect(names('::unknown::x')).toEqual([]);
  });

  it('stop-commands: every command is ignored until the token, which is masked', () => {
    const reading = readRunnerOutput(
      [
        '::stop-commands::pause1234',
        '::add-mask::ignored',
        '##[error]ignored',
        '::pause1234::',
        '::add-mask::seen',
      ].join('\n'),
    );
    expect(reading.commands.map((c) => c.name)).toEqual(['stop-commands', 'pause1234', 'add-mask']);
    expect(reading.masks).toEqual(['pause1234', 'seen']);
    expect(readRunnerOutput('##[stop-commands]never').stopped).toBe(true);
    // A token that names a command is refused.
    expect(readRunnerOutput('::stop-commands::error\n::add-mask::x').masks).toEqual(['x']);
  });

  it('registers each line of a multi-line mask, trimmed', () => {
    expect(readRunnerOutput('::add-mask::first%0A second ').masks).toEqual([
      'first\n second ',
      'second',
      'first',
    ]);
  });

  it("ignorables: 'strip' also reads what ICU comparisons might", () => {
    expect(readRunnerOutput('#\u200b#[add-mask]x').commands).toEqual([]);
    expect(readRunnerOutput('#\u200b#[add-mask]x', { ignorables: 'strip' }).masks).toEqual(['x']);
  });

  it('renderLog and maskWith show the log as the runner would, smuggled masks included', () => {
    const stdout = [
      '::add-mask::tok3n',
      'device tok3n ready',
      'Build ##[add-mask]success',
      'the step: success',
      '::group::Title',
      '::error::failed%0Ahere',
      '::debug::hidden',
      '',
    ].join('\n');
    expect(renderLog(stdout)).toBe(
      // The smuggled mask is obeyed (so not shown) and hides "success" from then on.
      ['device *** ready', 'the step: ***', '▸ Title', 'Error: failed\nhere'].join('\n'),
    );
    expect(renderLog(stdout, true)).toContain('Debug: hidden');
    expect(maskWith(stdout, 'tok3n success')).toBe('*** ***');
  });
});
