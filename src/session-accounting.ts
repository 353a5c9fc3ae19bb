/**
 * How a session ended, in the words a reviewer reads. The figures come from the service's own
 * timestamps: a session with `startedAt` had become ready (the spec's `new` → `in-progress`).
 */
import type { DeviceSession } from './service/contract.js';
import { oneLine } from './text.js';

/** The fields of a session that say when its device ran. */
export type SessionTimes = Pick<DeviceSession, 'status'> &
  Partial<Pick<DeviceSession, 'startedAt' | 'finishedAt' | 'updatedAt' | 'createdAt' | 'maxDurationMinutes'>>;

/**
 * Why a session that ended cannot be used, for the step's failure: it never became ready
 * (`startedAt` null), or it had been ready (the spec's `new` → `in-progress`) and has ended since.
 */
export function endedMessage(session: SessionTimes & Pick<DeviceSession, 'id'>): string {
  const status = oneLine(session.status, 40);
  if (!session.startedAt) return `The device session became ${status} before it was ready.`;
  const since = session.finishedAt ? ` since ${oneLine(session.finishedAt, 40)}` : '';
  return `The device session had been ready (it started at ${oneLine(session.startedAt, 40)}) but has ended: it is ${status}${since}, and cannot be used.`;
}
