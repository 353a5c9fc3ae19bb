/**
 * Input errors never repeat a value in another form: a secret the runner masks where it appears as
 * written (a repository secret in `inputs`) is not masked once YAML has turned it into a number.
 * Through the run-workflow bundle; no request reaches the service.
 */
import { runAction } from '../../../testkit/runner/step.js';
import { apiRequests, createWorld, type World } from '../../../testkit/world/world.js';
import { ONE_BUILD } from '../../../testkit/docs/workflows.js';
import { errorLines } from './audit.js';

describe('input errors', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  afterAll(() => world.sim.close());

  it('a number YAML would change: says to quote it, without the value as written or as read', async () => {
    // `0x7fA3c9` is hexadecimal to YAML: 8365001.
    const run = await runAction({
      entry: 'run-workflow',
      runtime: 'node24',
      inputs: { ...world.api, workflow: 'e2e.yml', 'git-ref': 'main', inputs: 'deploy-key: 0x7fA3c9' },
    });
    expect(run.exitCode).toBe(1);
    const errors = errorLines(run);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('`inputs.deploy-key` is a number that YAML would change');
    expect(errors[0]).toContain('quote it');
    for (const form of ['8365001', '0x7fA3c9', '7fA3c9', '7fa3c9']) {
      expect(run.stdout).not.toContain(form);
      expect(run.stderr).not.toContain(form);
    }
    expect(apiRequests(world.sim)).toEqual([]);
  });
});
