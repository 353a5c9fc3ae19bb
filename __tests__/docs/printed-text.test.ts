/**
 * The matcher that holds the Troubleshooting rows to the source (testkit/docs/printed-text.ts): a
 * placeholder of the source stands for a row's example value (an id, a number, a status), never for
 * a plain word, wherever the word is in the row (issue 41: "finish" changed to "end", or "is fail" to
 * "is false", passed while any word could match a placeholder).
 */
import { asPrinted, holds } from '../../testkit/docs/printed-text.js';

const corpus = [
  "return `Workflow run ${run.id} did not ${listed ? 'finish the listed jobs' : 'finish'} within timeout-minutes (${minutes}); `;",
  'return `Workflow run ${run.id} waits, and on-action-required is fail: the step ends here.`;',
  'return `Workflow run ${run.id} ended with status ${oneLine(run.status, 40)}. Failed jobs: ${jobs}`;',
  'return `Input \\`${name}\\` is not used by ${command}; it is ignored.`;',
  // Where a row's plain words would meet placeholders: `and … is …`.
  'return `the ${what} of ${thing} is ${value}, and ${name} is ${setting}`;',
]
  .map(asPrinted)
  .join('\n');

describe('a row held to the printed text', () => {
  it.each([
    'did not finish within timeout-minutes (60)',
    'and on-action-required is fail',
    'ended with status failure. Failed jobs:',
    'Input `build_ios` is not used by stop-device-session; it is ignored.',
  ])('holds %s, its examples standing for placeholders', (fragment) => {
    expect(holds(corpus, fragment)).toBe(true);
  });

  it.each([
    ['a changed word inside', 'did not end within timeout-minutes (60)'],
    ['a changed last word', 'and on-action-required is false'],
    ['a plain word where the source has a placeholder', 'the value of thing is set'],
    ['a changed word before an example', 'ended with state failure. Failed jobs:'],
  ])('does not hold %s', (_what, fragment) => {
    expect(holds(corpus, fragment)).toBe(false);
  });
});
