/**
 * Every job summary and failure sentence of the session commands and the post step
 * (src/sessions/report/), each compared whole: a changed word, line or blank line fails here and
 * shows in review. The inputs are explicit (a session as the service answers it), so no test waits
 * on a simulator or a clock; sessions that are still running are not used (their device time
 * counts to now).
 */
import type { DeviceSession } from '../../src/service/contract.js';
import { renderSessionSummary } from '../../src/sessions/report/session-summary.js';
import { renderStopSummary } from '../../src/sessions/report/stop-summary.js';
import {
  deviceTime,
  postCommentEnding,
  renderAttempts,
  renderPostSummary,
  type PostEnding,
} from '../../src/sessions/report/accounting.js';
import {
  CANCELLED_AFTER_CREATE,
  CANCELLED_BEFORE_NEXT_ATTEMPT,
  CANCELLED_WHILE_WAITING,
  alreadyEndedMessage,
  attemptsNote,
  endedMessage,
  featureNotEnabledMessage,
  freshProcessDiedMessage,
  notReadyInTimeReason,
  postCancelledMessage,
  postUnusableMessage,
  stillRunningAdvice,
  stopNotConfirmedMessage,
  stopNotFoundMessage,
  stoppedAndFailedMessage,
  waitingFailedReason,
} from '../../src/sessions/report/failures.js';
import {
  alreadyEndedLine,
  commentNotUpdatedWarning,
  erroredStopNotConfirmedWarning,
  freshProcessNotStartedWarning,
  keepsRunningNotice,
  lostCreateWarning,
  notExportedWarning,
  notStoppedUnknownNotice,
  unmaskedValuesWarning,
} from '../../src/sessions/report/warnings.js';

const same = (text: string): string => text;
const lines = (...each: string[]): string => each.join('\n');

const ID = '5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f';
const PAGE = `https://svc.example.com/accounts/acme/projects/app/device-sessions/${ID}`;

/** A session as the service answers it, ended (its times fixed), with a secret in its connection. */
function session(overrides: Partial<DeviceSession> = {}): DeviceSession {
  return {
    id: ID,
    appId: '0d3b9a52-4c1e-4f6a-8b2d-7e9f0a1b2c3d',
    url: PAGE,
    jobRunId: 'job-run-1',
    name: 'checkout flow',
    type: 'appium',
    packageVersion: null,
    buildId: null,
    applicationArchiveUrl: null,
    platform: 'ios',
    status: 'stopped',
    remoteConfig: null,
    maxDurationMinutes: 30,
    maxIdleTimeMinutes: null,
    createdAt: '2026-11-22T09:30:00.000Z',
    startedAt: '2026-11-22T09:31:00.000Z',
    finishedAt: '2026-11-22T09:35:12.000Z',
    updatedAt: '2026-11-22T09:35:12.000Z',
    ...overrides,
  };
}

const ready = session({
  status: 'in-progress',
  finishedAt: null,
  // The device time of a running session counts to now: the test gives it a finishedAt.
  remoteConfig: {
    appiumUrl: 'https://appium.example.com/wd/hub',
    previewUrl: 'https://preview.example.com/s/1',
  },
});

describe('the session summary (start-device-session, wait-for-device-session)', () => {
  test('ready, with its browser preview and what happens next', () => {
    expect(
      renderSessionSummary(
        {
          session: { ...ready, finishedAt: '2026-11-22T09:35:12.000Z' },
          outcome: 'ready',
          waitedMs: 65_000,
          note: 'The post step stops this session when the job ends.',
        },
        same,
      ),
    ).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ✅ ready',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ✅ ready | 1m05s | 4m12s of its 30 min maximum |',
        '',
        'Browser preview: [open](<https://preview.example.com/s/1>)',
        '',
        'The post step stops this session when the job ends.',
        '',
      ),
    );
  });

  test('started, not waited for (wait: false)', () => {
    expect(
      renderSessionSummary(
        {
          session: { id: ID, status: 'new', url: PAGE, platform: 'android', type: 'appium', name: null },
          outcome: 'started',
          note: '`auto-stop: false`: the session runs until it is stopped or reaches its limits.',
        },
        same,
      ),
    ).toBe(
      lines(
        '### Device session (android appium): 🚀 started, not waited for',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | 🕒 new |  | not started \\(limit\\: account default\\) |',
        '',
        '`auto-stop: false`: the session runs until it is stopped or reaches its limits.',
        '',
      ),
    );
  });

  test('ended before it was ready, with the attempts of start-attempts', () => {
    const errored = session({ status: 'errored', startedAt: null, name: null });
    const reason = `${endedMessage(errored)} ${attemptsNote({ number: 2, of: 2, earlier: 1 })}`;
    expect(
      renderSessionSummary({ session: errored, outcome: 'ended', waitedMs: 3_000, reason }, same) +
        renderAttempts(
          [
            { id: '11111111-2222-4333-8444-555555555555', url: null, status: 'errored' },
            { id: ID, url: PAGE, status: 'errored' },
          ],
          2,
          same,
        ),
    ).toBe(
      lines(
        '### Device session (ios appium): ❌ ended before it was ready',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ❌ errored | 3s | not started \\(30 min maximum\\) |',
        '',
        '> ```text',
        '> The device session became errored before it was ready.',
        '> It was attempt 2 of 2; the session of attempt 1 had errored before it was ready.',
        '> ```',
        '',
        '**Attempts** (2 of at most 2)',
        '',
        '| Attempt | Session | Status |',
        '| --- | --- | --- |',
        '| 1 | 11111111-2222-4333-8444-555555555555 | errored |',
        '| 2 | [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | errored |',
        '',
      ),
    );
  });

  test('had been ready, and has ended', () => {
    const ended = session({ status: 'errored' });
    expect(
      renderSessionSummary(
        { session: ended, outcome: 'ended-after-ready', waitedMs: 300_000, reason: endedMessage(ended) },
        same,
      ),
    ).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ❌ had been ready, and has ended',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ❌ errored | 5m00s | 4m12s of its 30 min maximum |',
        '',
        '> ```text',
        '> The device session had been ready (it started at 2026-11-22T09:31:00.000Z) but has ended: it is errored since 2026-11-22T09:35:12.000Z, and cannot be used.',
        '> ```',
        '',
      ),
    );
  });

  test('not ready in time: stopped', () => {
    const waiting = session({ status: 'new', startedAt: null, finishedAt: '2026-11-22T09:45:00.000Z' });
    expect(
      renderSessionSummary(
        {
          session: waiting,
          outcome: 'timed-out',
          waitedMs: 900_000,
          stopped: true,
          reason: notReadyInTimeReason(900_000, 'new'),
        },
        same,
      ),
    ).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ⏱️ not ready in time',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ⏹️ stopped (was new) | 15m00s | not started \\(30 min maximum\\) |',
        '',
        '> ```text',
        '> The device session was not ready within timeout-minutes (15); last status: new.',
        '> ```',
        '',
        'The session was stopped.',
        '',
      ),
    );
  });

  test('the step was cancelled, and the stop was not confirmed', () => {
    const waiting = session({
      status: 'new',
      startedAt: null,
      finishedAt: null,
      updatedAt: '2026-11-22T09:31:00.000Z',
    });
    expect(
      renderSessionSummary(
        {
          session: waiting,
          outcome: 'cancelled',
          waitedMs: 2_000,
          stopped: false,
          reason: CANCELLED_WHILE_WAITING,
        },
        same,
      ),
    ).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): 🛑 the step was cancelled',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | 🕒 new | 2s | not started \\(30 min maximum\\) |',
        '',
        '> ```text',
        '> The step was cancelled while waiting for the device session.',
        '> ```',
        '',
        '**The session could not be confirmed stopped.** It may still be running and billing until it reaches its maximum duration: stop it from its session page, or with the stop-device-session command and this session id.',
        '',
      ),
    );
  });

  test('could not be followed (a read failed for good): stopped', () => {
    const waiting = session({ status: 'new', startedAt: null, finishedAt: '2026-11-22T09:32:00.000Z' });
    expect(
      renderSessionSummary(
        {
          session: waiting,
          outcome: 'failed',
          waitedMs: 60_000,
          stopped: true,
          reason: waitingFailedReason('The service answered 500 five times.'),
        },
        same,
      ),
    ).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ❌ could not be followed',
        '',
        '| Session | Status | Waited | Device time |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ⏹️ stopped (was new) | 1m00s | not started \\(30 min maximum\\) |',
        '',
        '> ```text',
        '> Waiting for the device session failed: The service answered 500 five times.',
        '> ```',
        '',
        'The session was stopped.',
        '',
      ),
    );
  });

  test('a secret in any shown value is redacted before it is rendered', () => {
    const summary = renderSessionSummary(
      { session: session({ name: 'token s3cr3t-value' }), outcome: 'ended', reason: 'saw s3cr3t-value' },
      (text) => text.replaceAll('s3cr3t-value', '***'),
    );
    expect(summary.split('\n').slice(0, 1)).toEqual([
      '### Device session `token ***` (ios appium): ❌ ended before it was ready',
    ]);
    expect(summary).not.toMatch(/s3cr3t/);
  });
});

describe('the stop summary (stop-device-session)', () => {
  test('stopped', () => {
    expect(renderStopSummary({ sessionId: ID, session: session() }, same)).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ⏹️ stopped',
        '',
        '| Session | Status | Finished | Ran for |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | stopped | 2026-11-22 09:35:12 UTC | 4m12s |',
        '',
      ),
    );
  });

  test('stopped before it was ready', () => {
    expect(renderStopSummary({ sessionId: ID, session: session({ startedAt: null }) }, same)).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ⏹️ stopped',
        '',
        '| Session | Status | Finished | Ran for |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | stopped | 2026-11-22 09:35:12 UTC |  |',
        '',
        'It was stopped before it was ready: it never started.',
        '',
      ),
    );
  });

  test('had ended with an error', () => {
    expect(renderStopSummary({ sessionId: ID, session: session({ status: 'errored' }) }, same)).toBe(
      lines(
        '### Device session `checkout flow` (ios appium): ❌ had ended with an error (`errored`)',
        '',
        '| Session | Status | Finished | Ran for |',
        '| --- | --- | --- | --- |',
        '| [5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | errored | 2026-11-22 09:35:12 UTC | 4m12s |',
        '',
      ),
    );
  });

  test('not found', () => {
    const reason = stopNotFoundMessage(ID, 'Device run session not found', '');
    expect(renderStopSummary({ sessionId: ID, notFound: true, reason }, same)).toBe(
      lines(
        '### Device session `5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f`: ❓ not found',
        '',
        '> ```text',
        '> Device session 5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f was not found: the service has no session with that id (404: Device run session not found).',
        '> ```',
        '',
      ),
    );
  });

  test('could not be confirmed stopped', () => {
    const reason = stopNotConfirmedMessage(
      ID,
      'the service still reports it as `in-progress`',
      ` Session page: ${PAGE}`,
    );
    expect(renderStopSummary({ sessionId: ID, notFound: false, reason }, same)).toBe(
      lines(
        '### Device session `5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f`: ⚠️ could not be confirmed stopped',
        '',
        '> ```text',
        '> Device session 5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f could not be confirmed stopped: the service still reports it as `in-progress`.',
        '> It may still be running and billing until it reaches its maximum duration: stop it from its session page, or with the stop-device-session command and this session id.',
        '> Session page: https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f',
        '> ```',
        '',
        '**The session may still be running and billing** until it reaches its maximum duration: stop it from its session page, or with the stop-device-session command and this session id.',
        '',
      ),
    );
  });
});

describe('the post step: its table, and what the pull request comment says', () => {
  const ENDINGS: PostEnding[] = [
    'ended-in-main-step',
    'stopped',
    'stop-not-confirmed',
    'already-errored',
    'already-stopped',
    'left-running',
    'already-ended-left',
    'not-stopped-unknown',
  ];

  test('one row per session, each ending in its words', () => {
    const reports = ENDINGS.map((ending, index) => ({
      id: `00000000-0000-4000-8000-00000000000${index}`,
      url: index % 2 === 0 ? PAGE : '',
      status: ending === 'stop-not-confirmed' || ending === 'not-stopped-unknown' ? undefined : 'stopped',
      deviceTime: ending.startsWith('not') ? undefined : '4m12s of its 30 min maximum',
      ending,
    }));
    expect(renderPostSummary(reports, same)).toBe(
      lines(
        '### Device sessions at the end of the job',
        '',
        '| Session | Status | Device time | What the post step did |',
        '| --- | --- | --- | --- |',
        '| [00000000-0000-4000-8000-000000000000](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ⏹️ stopped | 4m12s of its 30 min maximum | ended during the main step |',
        '| 00000000-0000-4000-8000-000000000001 | ⏹️ stopped | 4m12s of its 30 min maximum | stopped it |',
        '| [00000000-0000-4000-8000-000000000002](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | unknown | 4m12s of its 30 min maximum | could not be confirmed stopped \\(see the error\\) |',
        '| 00000000-0000-4000-8000-000000000003 | ⏹️ stopped | 4m12s of its 30 min maximum | nothing to stop, it had already errored during the job |',
        '| [00000000-0000-4000-8000-000000000004](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ⏹️ stopped | 4m12s of its 30 min maximum | nothing to stop, it had already been stopped during the job |',
        '| 00000000-0000-4000-8000-000000000005 | ⏹️ stopped | 4m12s of its 30 min maximum | left running \\(auto-stop\\: false\\) |',
        '| [00000000-0000-4000-8000-000000000006](<https://svc.example.com/accounts/acme/projects/app/device-sessions/5b2f0c1e-8d4a-4c3b-9e7f-1a2b3c4d5e6f>) | ⏹️ stopped | 4m12s of its 30 min maximum | nothing to leave running, it had already ended \\(auto-stop\\: false\\) |',
        '| 00000000-0000-4000-8000-000000000007 | unknown | unknown | not stopped \\(auto-stop\\: false\\); whether it still runs is not known |',
        '',
      ),
    );
  });

  test("the comment's ending: released only when the session is stopped, the post step's own stop said as such", () => {
    const comment = (ending: PostEnding, status?: string) =>
      postCommentEnding({ id: ID, status, deviceTime: '4m12s of its 30 min maximum', ending });
    expect(
      ENDINGS.map((ending) => comment(ending, ending === 'already-errored' ? 'errored' : 'stopped')),
    ).toEqual([
      { released: true, what: 'ended during the main step, device time 4m12s of its 30 min maximum' },
      { released: true, what: 'the post step stopped it, device time 4m12s of its 30 min maximum' },
      {
        released: true,
        what: 'could not be confirmed stopped (see the error), device time 4m12s of its 30 min maximum',
      },
      {
        released: false,
        what: 'nothing to stop, it had already errored during the job, device time 4m12s of its 30 min maximum',
      },
      {
        released: true,
        what: 'nothing to stop, it had already been stopped during the job, device time 4m12s of its 30 min maximum',
      },
      { released: true, what: 'left running (auto-stop: false), device time 4m12s of its 30 min maximum' },
      {
        released: true,
        what: 'nothing to leave running, it had already ended (auto-stop: false), device time 4m12s of its 30 min maximum',
      },
      {
        released: true,
        what: 'not stopped (auto-stop: false); whether it still runs is not known, device time 4m12s of its 30 min maximum',
      },
    ]);
    expect(postCommentEnding({ id: ID, status: 'in-progress', ending: 'left-running' })).toEqual({
      released: false,
      what: 'left running (auto-stop: false)',
    });
  });
});

describe('failure sentences', () => {
  test('a stop that was not confirmed, or found no session', () => {
    expect(stillRunningAdvice()).toBe(
      'It may still be running and billing until it reaches its maximum duration: stop it from its session page, or with the stop-device-session command and this session id.',
    );
    expect(stopNotFoundMessage(ID, 'no such session', ` Session page: ${PAGE}`)).toBe(
      `Device session ${ID} was not found: the service has no session with that id (404: no such session). Session page: ${PAGE}`,
    );
    expect(stopNotConfirmedMessage(ID, 'Request timed out after 30 s...', '')).toBe(
      `Device session ${ID} could not be confirmed stopped: Request timed out after 30 s. It may still be running and billing until it reaches its maximum duration: stop it from its session page, or with the stop-device-session command and this session id.`,
    );
  });

  test('a step that stopped the session it no longer needs', () => {
    expect(stoppedAndFailedMessage(CANCELLED_WHILE_WAITING, true, PAGE)).toBe(
      `The step was cancelled while waiting for the device session. The session was stopped. ${PAGE}`,
    );
    expect(stoppedAndFailedMessage(notReadyInTimeReason(30_000, 'new'), false, null)).toBe(
      'The device session was not ready within timeout-minutes (0.5); last status: new. Stopping it could not be confirmed (see the error above).',
    );
    expect(stoppedAndFailedMessage(CANCELLED_AFTER_CREATE, true, '')).toBe(
      'The step was cancelled. The session was stopped.',
    );
    expect(CANCELLED_BEFORE_NEXT_ATTEMPT).toBe('The step was cancelled before another session was created.');
  });

  test('a session that ended: before it was ready, after, or stopped', () => {
    expect(endedMessage(session({ status: 'errored', startedAt: null }))).toBe(
      'The device session became errored before it was ready.',
    );
    expect(endedMessage(session({ status: 'errored', finishedAt: null }))).toBe(
      'The device session had been ready (it started at 2026-11-22T09:31:00.000Z) but has ended: it is errored, and cannot be used.',
    );
    expect(endedMessage(session())).toBe(
      'The device session had been ready (it started at 2026-11-22T09:31:00.000Z) and was stopped since 2026-11-22T09:35:12.000Z: a stopped session cannot be used again. Start a new one with start-device-session.',
    );
    expect(endedMessage(session({ startedAt: null, finishedAt: null }))).toBe(
      'The device session was stopped before it was ready: a stopped session cannot be used again. Start a new one with start-device-session.',
    );
    expect(attemptsNote({ number: 3, of: 3, earlier: 2 })).toBe(
      'It was attempt 3 of 3; the sessions of attempts 1 and 2 had errored before they were ready.',
    );
  });

  test("the post step's words for a session that had already ended", () => {
    expect(alreadyEndedMessage(session({ status: 'errored' }))).toBe(
      `Device session ${ID} had already errored during the job (after 4m12s of device time); there was nothing to stop.`,
    );
    expect(alreadyEndedMessage(session({ status: 'errored', startedAt: null }))).toBe(
      `Device session ${ID} had already errored during the job (before it was ready, 5m12s after it was created); there was nothing to stop.`,
    );
    expect(alreadyEndedMessage(session())).toBe(
      `Device session ${ID} had already been stopped during the job at 2026-11-22T09:35:12.000Z, before the post step; there was nothing to stop.`,
    );
    expect(deviceTime(session({ maxDurationMinutes: null }))).toBe('4m12s (limit: account default)');
  });

  test('the create refused: device sessions not enabled for the account', () => {
    expect(featureNotEnabledMessage('Device sessions are not enabled for this account.', 'app-1')).toBe(
      "Creating the device session failed: remote device sessions are not enabled for the account that owns project app-1 (400: Device sessions are not enabled for this account). Device sessions are a limited-access preview, and the account that owns the project needs access to it: ask an owner of that account to request access to the device-sessions preview, or use a project of an account that has it. The step's inputs are not the problem; no session was created.",
    );
  });

  test('the post step could not stop, or was cancelled', () => {
    expect(postUnusableMessage({ kind: 'malformed-state' }, ID, PAGE)).toBe(
      `The saved state of this step is not usable (session id or service address malformed); device session ${ID} was not stopped. Stop it from the dashboard.`,
    );
    expect(postUnusableMessage({ kind: 'setting-changed', setting: 'SVC_BASE_URL' }, ID, PAGE)).toBe(
      `\`SVC_BASE_URL\` changed after the main step, and the access token is never sent with settings the main step did not use: device session ${ID} was not stopped. Stop it from its page or with the stop-device-session command. ${PAGE}`,
    );
    expect(postUnusableMessage({ kind: 'token', problem: '`token` is required.' }, `${ID}, ${ID}`, '')).toBe(
      `\`token\` is required: device session ${ID}, ${ID} was not stopped. Stop it from its page or with the stop-device-session command.`,
    );
    expect(postCancelledMessage(ID)).toBe(
      `The post step was cancelled; device session ${ID} was stopped all the same.`,
    );
  });

  test("the post step's fresh Node process died before its code ran: every session still running, and how to stop it", () => {
    const other = '0b0b0b0b-0000-4000-8000-000000000002';
    expect(
      freshProcessDiedMessage('ended by SIGKILL', 'OPENSSL_CONF', [
        { id: ID, url: PAGE },
        { id: other, url: '' },
      ]),
    ).toBe(
      `The post step's new Node process ended before its code ran (ended by SIGKILL): Node may refuse a start-up setting of the main step's (\`OPENSSL_CONF\` changed after it). Device session ${ID} is still running (${PAGE}). Device session ${other} is still running. Stop each with a stop-device-session step and its \`session-id\`, or from its page.`,
    );
    expect(freshProcessDiedMessage('exit code 101', 'NODE_OPTIONS', [])).toBe(
      "The post step's new Node process ended before its code ran (exit code 101): Node may refuse a start-up setting of the main step's (`NODE_OPTIONS` changed after it). No device session was left running.",
    );
  });
});

describe('warnings and notices (src/sessions/report/warnings.ts)', () => {
  test('masking and exporting the connection: what was not registered or not exported', () => {
    expect(unmaskedValuesWarning(1024, 3)).toBe(
      "The session's connection details hold more values that may be secrets than the 1024 the action registers for masking; 3 were not registered. They are in the step's outputs and exported variables: do not print them.",
    );
    expect(notExportedWarning('SVC_REMOTE_CONFIG', 40_000, 32 * 1024, 'remote-config')).toBe(
      'SVC_REMOTE_CONFIG was not exported for later steps: its value is 40 KiB, more than the 32 KiB this action exports (Linux refuses an environment variable over 128 KiB, and one that large would keep every later step of the job from starting, the post step included). Read it from the step output `remote-config` instead (`steps.<id>.outputs.remote-config`), written to a file rather than to an environment variable.',
    );
    expect(notExportedWarning('SVC_OTHER', 33 * 1024, 32 * 1024, undefined)).toBe(
      'SVC_OTHER was not exported for later steps: its value is 33 KiB, more than the 32 KiB this action exports (Linux refuses an environment variable over 128 KiB, and one that large would keep every later step of the job from starting, the post step included).',
    );
  });

  test('an errored session whose closing stop was not confirmed; a fresh process that could not start', () => {
    expect(erroredStopNotConfirmedWarning(ID, 'no answer in time.')).toBe(
      `Device session ${ID} errored; the stop sent to close it was not confirmed (no answer in time). The post step tries again when the job ends.`,
    );
    expect(freshProcessNotStartedWarning('ENOENT')).toBe(
      'The new Node process could not be started (ENOENT).',
    );
  });

  test('the post step: a session already ended, left running, not known, a lost create, the comment not updated', () => {
    expect(alreadyEndedLine(session({ status: 'stopped' }), PAGE)).toBe(
      `Device session ${ID} had already been stopped during the job at 2026-11-22T09:35:12.000Z, before the post step; there was nothing to stop. ${PAGE}`,
    );
    expect(keepsRunningNotice(ID, PAGE)).toBe(
      `auto-stop is false: device session ${ID} keeps running until it is stopped or reaches its limits. ${PAGE}`,
    );
    expect(keepsRunningNotice(ID, '')).toBe(
      `auto-stop is false: device session ${ID} keeps running until it is stopped or reaches its limits.`,
    );
    expect(notStoppedUnknownNotice(ID, PAGE, 'it could not be read')).toBe(
      `auto-stop is false: device session ${ID} was not stopped, and whether it still runs is not known (it could not be read). ${PAGE}`,
    );
    expect(lostCreateWarning('2026-11-22T09:30:00.000Z', undefined)).toBe(
      'A device session may be running: the create request sent at 2026-11-22T09:30:00.000Z got no usable answer, so its id is unknown and it could not be stopped. Look for it among the device sessions of project (unknown) in the dashboard and stop it there; otherwise it ends at its maximum duration.',
    );
    expect(commentNotUpdatedWarning('NODE_OPTIONS')).toBe(
      '`NODE_OPTIONS` changed after the main step, and the github-token is never sent with settings the main step did not use: the pull request comment was not updated.',
    );
  });
});
