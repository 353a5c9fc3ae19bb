/**
 * The marker a commit status ends with (src/github/status-marker.ts, issue 41 item 2): written only in
 * its compact form, read in both, the old form of the previous major version too, to the same values,
 * so that the gate's shared-context check and sync-statuses compare either form with what they hold.
 * Both readers in their steps: __tests__/runs/status-trust.test.ts (the gate) and
 * __tests__/runs/sync-statuses.test.ts (a status posted in the old form, settled).
 */
import {
  describe as describeMarker,
  markerOf,
  parseMarker,
  posterOf,
} from '../../src/github/status-marker.js';

const UUID = '123e4567-e89b-12d3-a456-426614174000';
/** An 11-digit GitHub run id, as today's are. */
const GITHUB_RUN = '19283746501';
const poster = { serviceRunId: UUID, githubRunId: GITHUB_RUN, githubAttempt: '1' };

describe('the compact form, the only one written', () => {
  it('packs a UUID in 22 base64url characters and the GitHub run in base 36: 39 characters where the old form took 59', () => {
    const old = `[svc:${UUID} gh:${GITHUB_RUN}/1]`;
    expect(markerOf(poster)).toBe('[svc:~Ej5FZ-ibEtOkVkJmFBdAAA/8ux1m11.1]');
    expect([markerOf(poster).length, old.length]).toEqual([39, 59]);
    // The words a reviewer reads get the 20 characters back: 100 for them where the old form left 80
    // (here 19 words kept, not 15).
    expect(describeMarker('word '.repeat(40), poster)).toBe(`${'word '.repeat(19)}… ${markerOf(poster)}`);
  });

  it('reads back to what was written, whatever the attempt and up to 20-digit run ids', () => {
    for (const written of [
      poster,
      { serviceRunId: UUID, githubRunId: '99999999999999999999', githubAttempt: '999999' },
      { serviceRunId: 'ffffffff-ffff-ffff-ffff-ffffffffffff', githubRunId: '1', githubAttempt: '36' },
      { serviceRunId: '00000000-0000-0000-0000-000000000000' },
      { serviceRunId: 'run-7_x', githubRunId: '901', githubAttempt: '2' },
    ])
      expect(parseMarker(`Succeeded ${markerOf(written)}`)).toEqual(written);
    expect(markerOf({ serviceRunId: 'run-7_x', githubRunId: '901', githubAttempt: '2' })).toBe(
      '[svc:run-7_x/p1.2]',
    );
  });

  it('an id that is not a lowercase UUID is written as it is, so it reads back unchanged', () => {
    const upper = UUID.toUpperCase();
    expect(markerOf({ serviceRunId: upper })).toBe(`[svc:${upper}]`);
    expect(parseMarker(`Failed [svc:${upper}]`)).toEqual({ serviceRunId: upper });
    const hashed = posterOf('a run id with spaces', { GITHUB_RUN_ID: '901' });
    expect(hashed.serviceRunId).toMatch(/^#[0-9a-f]{32}$/);
    expect(parseMarker(`Failed ${markerOf(hashed)}`)).toEqual(hashed);
  });

  it('posterOf takes the GitHub run from the runner, in decimal without leading zeros; none when it says none', () => {
    expect(posterOf(UUID, { GITHUB_RUN_ID: GITHUB_RUN, GITHUB_RUN_ATTEMPT: '3' })).toEqual({
      serviceRunId: UUID,
      githubRunId: GITHUB_RUN,
      githubAttempt: '3',
    });
    expect(posterOf(UUID, { GITHUB_RUN_ID: '0901' })).toMatchObject({
      githubRunId: '901',
      githubAttempt: '1',
    });
    expect(posterOf(UUID, {})).toEqual({ serviceRunId: UUID });
    expect(markerOf(posterOf(UUID, {}))).toBe('[svc:~Ej5FZ-ibEtOkVkJmFBdAAA]');
  });
});

describe('parseMarker reads both forms', () => {
  it('the old form reads to the same values as the compact one', () => {
    expect(parseMarker(`Failed [svc:${UUID} gh:${GITHUB_RUN}/1]`)).toEqual(poster);
    expect(parseMarker(`Failed ${markerOf(poster)}`)).toEqual(poster);
    expect(parseMarker(`Running [svc:${UUID}]`)).toEqual({ serviceRunId: UUID });
    expect(parseMarker(`Running [svc:${UUID} gh:0777/01]`)).toEqual({
      serviceRunId: UUID,
      githubRunId: '777',
      githubAttempt: '1',
    });
  });

  it('nothing but a whole marker at the end: anything else is no status of this action', () => {
    for (const text of [
      undefined,
      null,
      '',
      'Succeeded',
      `[svc:${UUID} gh:901/1] and more`,
      // 21 or 23 packed characters, or 22 that are not the exact packing of 16 bytes.
      '[svc:~Ej5FZ-ibEtOkVkJmFBdAA/p1.1]',
      '[svc:~Ej5FZ-ibEtOkVkJmFBdAAAA/p1.1]',
      '[svc:~Ej5FZ-ibEtOkVkJmFBdAAB/p1.1]',
      // A run id past 20 digits, an attempt past 6, upper-case base 36, a part missing.
      `[svc:~Ej5FZ-ibEtOkVkJmFBdAAA/${(10n ** 20n).toString(36)}.1]`,
      `[svc:~Ej5FZ-ibEtOkVkJmFBdAAA/p1.${(10 ** 6).toString(36)}]`,
      '[svc:~Ej5FZ-ibEtOkVkJmFBdAAA/P1.1]',
      '[svc:~Ej5FZ-ibEtOkVkJmFBdAAA/p1]',
      `[svc:${UUID} gh:901]`,
    ])
      expect([text, parseMarker(text)]).toEqual([text, undefined]);
  });
});
