/**
 * The hand-over of signals from the generated entrypoint to a step (src/runner/signals.ts): what came
 * while the bundle loaded reaches the step's handler first, with the time it came; later signals as
 * they come; a signal with no handler waits for the next one, never lost. Driven by calls, no signal
 * is sent to this process.
 */
import { onCancel, signalsBeforeLoad } from '../../src/runner/signals.js';

test('early signals first, with their times; then later ones; none lost between handlers', () => {
  const seen: string[] = [];
  const deliver = signalsBeforeLoad([
    { signal: 'SIGINT', at: 1 },
    { signal: 'SIGHUP', at: 2 },
  ]);
  deliver('SIGTERM', 3);
  const stop = onCancel(({ signal, at }) => seen.push(`first ${signal} ${at}`));
  expect(seen).toEqual(['first SIGINT 1', 'first SIGTERM 3']);
  deliver('SIGINT', 4);
  stop();
  deliver('SIGTERM', 5);
  expect(seen).toEqual(['first SIGINT 1', 'first SIGTERM 3', 'first SIGINT 4']);
  const stopNext = onCancel(({ signal, at }) => seen.push(`next ${signal} ${at}`));
  expect(seen.at(-1)).toBe('next SIGTERM 5');
  stopNext();
});
