/**
 * The default session name (src/sessions/name.ts) and the key of start-device-session's sticky
 * comment: the name shows the run, the key must not (the comment is updated in place run after run).
 */
import { COMMANDS } from '../../src/commands/index.js';
import { defaultSessionName } from '../../src/sessions/name.js';
import { API, APP_ID, inputSource } from '../../testkit/world/sources.js';

const GITHUB = {
  GITHUB_REPOSITORY: 'acme/app',
  GITHUB_WORKFLOW: 'CI',
  GITHUB_RUN_NUMBER: '42',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_JOB: 'e2e',
};

describe('defaultSessionName', () => {
  it('is repository · workflow #run.attempt · job, with whatever of them is set', () => {
    expect(defaultSessionName(GITHUB)).toBe('acme/app · CI #42.1 · e2e');
    expect(defaultSessionName({ ...GITHUB, GITHUB_RUN_ATTEMPT: '3' })).toBe('acme/app · CI #42.3 · e2e');
    expect(defaultSessionName({ GITHUB_JOB: 'e2e' })).toBe('e2e');
    expect(defaultSessionName({ GITHUB_RUN_NUMBER: '7', GITHUB_WORKFLOW: 'Nightly' })).toBe('Nightly #7');
  });

  it('is undefined outside a runner', () => {
    expect(defaultSessionName({})).toBeUndefined();
    expect(defaultSessionName({ GITHUB_ACTIONS: 'true', GITHUB_JOB: '  ' })).toBeUndefined();
  });

  it('keeps within 255 characters, shortening the workflow name first, on one line', () => {
    const long = defaultSessionName({ ...GITHUB, GITHUB_WORKFLOW: `Deploy\n${'x'.repeat(400)}` })!;
    expect(long).toHaveLength(255);
    expect(long).toMatch(/^acme\/app · Deploy x+… #42\.1 · e2e$/);
    const huge = defaultSessionName({ GITHUB_JOB: 'j'.repeat(300) })!;
    expect(huge).toHaveLength(255);
    expect(huge.endsWith('…')).toBe(true);
  });
});

describe("start-device-session's name and comment key", () => {
  const read = (inputs: Record<string, string>, env: Record<string, string>) =>
    COMMANDS['start-device-session'].read(
      inputSource({ ...API, 'app-id': APP_ID, platform: 'ios', comment: 'true', ...inputs }, env),
    );

  it('sends the default name, but keys the comment by what stays the same from run to run', () => {
    const first = read({}, GITHUB);
    const rerun = read({}, { ...GITHUB, GITHUB_RUN_NUMBER: '43', GITHUB_RUN_ATTEMPT: '2' });
    expect(first.values.name).toBe('acme/app · CI #42.1 · e2e');
    expect(rerun.values.name).toBe('acme/app · CI #43.2 · e2e');
    expect(first.comment?.subject).toBe('CI · e2e · ios agent-device');
    expect(rerun.comment?.subject).toBe(first.comment?.subject);
    // Another device of the same job (a matrix) has its own comment.
    expect(read({ 'device-identifier': 'iPad Air' }, GITHUB).comment?.subject).toBe(
      'CI · e2e · ios agent-device iPad Air',
    );
  });

  it('a name the user gives is sent and keys the comment; none outside a runner', () => {
    const named = read({ name: 'checkout flow' }, GITHUB);
    expect(named.values.name).toBe('checkout flow');
    expect(named.comment?.subject).toBe('checkout flow');
    const local = read({}, {});
    expect(local.values.name).toBeUndefined();
    expect(local.comment?.subject).toBe('ios agent-device');
  });
});
