/**
 * The hostile-input matrix, each step run from the sources in this process (see
 * testkit/world/hostile-cases.ts): exit code 1, exactly one error annotation that names the
 * input, and no request to the service.
 */
import { runAction, type ActionRun } from '../../testkit/runner/in-process.js';
import { apiRequests, createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';
import { CASES, TOKEN } from '../../testkit/world/hostile-cases.js';
import { hostileCaseInputs } from '../../testkit/world/security-fixtures.js';

/**
 * Every case is checked against the input tables (unit tests); through the steps, a sample that
 * holds the first two cases of each command shows that a refusal there is exit 1, one error
 * annotation naming the input, the token never echoed and no request, via the root action's
 * `command` and via each sub-action. The sample's first case (CASES[0]) runs through the built
 * bundle instead: the end-to-end tier's (__tests__/e2e/security/hardening-bundles.test.ts).
 */
const SAMPLE = [...new Set(CASES.map(([, command]) => command))]
  .flatMap((command) => CASES.filter(([, of]) => of === command).slice(0, 2))
  .filter((sampled) => sampled !== CASES[0]);

describe('hostile-input matrix', () => {
  let world: World;
  const results = new Map<string, ActionRun>();

  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
    const base = hostileCaseInputs(world);
    // Batches of six (in this process the steps of a batch run one after the other).
    for (let i = 0; i < SAMPLE.length; i += 6) {
      await Promise.all(
        SAMPLE.slice(i, i + 6).map(async ([label, command, inputs], index) => {
          const known = base[command] ?? base['run-workflow'];
          // Alternately the root action (`command:`) and the command's own sub-action.
          const viaRoot = !(command in base) || (i + index) % 2 === 0;
          const result = await runAction({
            entry: viaRoot ? 'main' : command,
            inputs: { ...(viaRoot ? { command } : {}), ...known, ...inputs },
            timeoutMs: 20_000,
          });
          results.set(label, result);
        }),
      );
    }
  }, 120_000);
  afterAll(() => world.sim.close());

  it.each(SAMPLE)('%s (%s): exit 1, one error naming the input', (label, _command, _inputs, names) => {
    const result = results.get(label)!;
    expect(result.exitCode).toBe(1);
    const errors = result.errors;
    expect(errors).toHaveLength(1);
    // Named in backticks: `svc-go`, `svc-go: true`, `inputs.a` all name their input.
    expect(errors[0]).toContain(`\`${names}`);
    // The token is never echoed, even when it is the input at fault.
    expect(result.stdout.replace(`::add-mask::${TOKEN}`, '')).not.toContain(TOKEN);
    expect(result.stderr).toBe('');
  });

  it('made no request to the service', () => {
    expect(apiRequests(world.sim)).toEqual([]);
  });
});
