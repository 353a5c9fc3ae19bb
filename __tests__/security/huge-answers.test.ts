/**
 * A huge answer from the service costs the step work in proportion to its size: a device session
 * whose connection details are about 600 kB (testkit/world/huge-answer.ts) is handled at once, within
 * `timeout-minutes`. Run from the sources in this process; that the step answers SIGINT while it
 * handles such an answer needs a process of its own: the end-to-end tier's
 * (__tests__/e2e/security/hardening-bundles.test.ts).
 *
 * Nothing here asserts a duration: Jest's time limit is only a safety net. The figures are in
 * `npm run bench`.
 */
import { IN_PROCESS, runPost, type ActionRun } from '../../testkit/runner/in-process.js';
import { hugeSessionStarter, resetWithHugeAnswers } from '../../testkit/world/security-fixtures.js';
import { createWorld, type World } from '../../testkit/world/world.js';
import { ONE_BUILD } from '../../testkit/docs/workflows.js';
import { sharedWorldHooks } from '../../testkit/world/world-hooks.js';

describe('a huge answer from the service', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ 'e2e.yml': ONE_BUILD });
  });
  sharedWorldHooks(() => world, { beforeEachTest: resetWithHugeAnswers });

  const start = hugeSessionStarter(IN_PROCESS, () => world);
  const stop = async (main: ActionRun): Promise<void> => {
    const post = await runPost(main, { inputs: world.api });
    expect(post.exitCode).toBe(0);
  };

  it('600 kB of connection details: the session is ready, its outputs set, within timeout-minutes', async () => {
    const main = await start();
    expect(main.signal).toBeNull();
    expect(main.exitCode).toBe(0);
    expect(main.stdout).toContain('Device session ready after');
    expect(main.outputs['remote-config'].length).toBeGreaterThan(600_000);
    // The long credential is registered, and shows nowhere but on its own add-mask line.
    const token = (JSON.parse(main.outputs['remote-config']) as { webPreviewToken: string }).webPreviewToken;
    expect(main.stdout).toContain(`::add-mask::${token}`);
    expect(main.stdout.split(`::add-mask::${token}`).join('')).not.toContain(token.slice(0, 40));
    expect(main.summary).not.toContain(token.slice(0, 40));
    await stop(main);
  });
});
