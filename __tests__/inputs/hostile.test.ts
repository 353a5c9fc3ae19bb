/**
 * The hostile-input matrix of __tests__/security/hostile-inputs.test.ts, case for case, at the level
 * of the input tables: each malformed combination is refused by the command's reader in the
 * registry (`COMMANDS[command].read`, src/commands/index.ts), or by the `command` input, with
 * exactly one problem that names the input, and the token is never echoed. The bundle-level check
 * that such a refusal becomes exit 1, one error annotation and no request is in
 * __tests__/e2e/runs-bundles.test.ts; this file is what lets the bundle matrix stay small.
 */
import { COMMANDS, readCommand } from '../../src/commands/index.js';
import { InputError } from '../../src/inputs/table.js';
import { inputSource } from '../../testkit/world/sources.js';

import { BASE_URL, CASES, TOKEN, UUID } from '../../testkit/world/hostile-cases.js';

const API = { token: TOKEN, 'base-url': BASE_URL, 'app-id': UUID };
const BASE: Record<string, Record<string, string>> = {
  'run-workflow': { ...API, workflow: 'e2e.yml', 'git-ref': 'main' },
  'start-device-session': { ...API, platform: 'ios' },
  'stop-device-session': { token: TOKEN, 'base-url': BASE_URL },
  'verify-webhook': {},
};

/** What the root action would report: the `command` input first, then the command's inputs. */
function problems(command: string, inputs: Record<string, string>): string[] {
  const all = { command, ...(BASE[command] ?? BASE['run-workflow']), ...inputs };
  try {
    const source = inputSource(all);
    COMMANDS[readCommand(source)].read(source);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('accepted');
}

describe('hostile-input matrix, through the input tables', () => {
  it('covers at least 40 combinations across the four commands', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map(([, command]) => command)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(CASES.map(([label]) => label)).size).toBe(CASES.length);
  });

  it.each(CASES)('%s (%s): one problem naming the input', (_label, command, inputs, names) => {
    const found = problems(command, inputs);
    expect(found).toHaveLength(1);
    // Named in backticks: `svc-go`, `svc-go: true`, `inputs.a` all name their input.
    expect(found[0]).toContain(`\`${names}`);
    expect(found[0]).not.toContain(TOKEN);
    // A problem is one short line; a huge value is never echoed whole.
    expect(found[0].length).toBeLessThan(400);
  });
});
