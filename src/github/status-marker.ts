/**
 * The marker every commit status of this action ends its description with: which service run the
 * status is about, and which GitHub run (and attempt) posted it. A status is read back by the next
 * post of the same commit (two steps of one GitHub run must not share a context) and, later, by
 * `sync-statuses` (which settles a status by the run it names): the marker is never cut, the words
 * before it are, to fit GitHub's 140 characters.
 *
 * Written in its compact form, `[svc:~<run id>/<GitHub run id>.<attempt>]`: a run id that is a UUID
 * (the spec's ids) as its 16 bytes in 22 base64url characters after `~`, any other id as it is (no
 * `~`); the GitHub run id and the attempt in base 36; the `/…` part only when the runner says. For a
 * UUID and an 11-digit GitHub run id, 39 characters (28 % of the 140) where the old form took 59
 * (42 %): `[svc:~Ej5FZ-ibEtOkVkJmFBdAAA/8ux1m11.1]` for
 * `[svc:123e4567-e89b-12d3-a456-426614174000 gh:19283746501/1]`.
 *
 * Read in both forms, the old one (`[svc:<run id> gh:<GitHub run id>/<attempt>]`) too, for one major
 * version: a gate and a `sync-statuses` of different versions meet the other's statuses. Both read to
 * the same values (the UUID in lowercase, the numbers in decimal without leading zeros), so their
 * readers (status-read-back.ts, the sync) compare a status of either form with this step's as before.
 *
 * Why shorter in the description, not out of sight in the link's fragment: a status may have no link
 * (a run without a page) and then nothing to carry it, and the fragment belongs to the service's page,
 * which may route by it; the description is the one field every status has and GitHub keeps as posted.
 * The encoding loses nothing and its reading is exact: only a lowercase UUID is packed (an uppercase
 * one stays as it is, so it reads back unchanged), and only what re-encodes to the same text is read.
 */
import { createHash } from 'node:crypto';
import { oneLine } from '../text/one-line.js';

/** GitHub's limit for a status's description. */
export const MAX_DESCRIPTION = 140;

/** Who a status is from: the service run it reports on, and the GitHub run that posted it. */
export interface StatusPoster {
  serviceRunId: string;
  /** Decimal, without leading zeros. */
  githubRunId?: string;
  githubAttempt?: string;
}

/** What a run id may be in a marker as it is (the spec's ids are UUIDs); anything else is hashed. */
const PLAIN_ID = /^[\w-]{1,64}$/;
/** A UUID the compact form packs: lowercase, so that the id read back is the id written. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The GitHub run id (up to 20 digits) and attempt (up to 6) that a marker may carry. */
const RUN_DIGITS = /^\d{1,20}$/;
const ATTEMPT_DIGITS = /^\d{1,6}$/;

const COMPACT = /\[svc:(~[\w-]{22}|[\w-]{1,64}|#[0-9a-f]{32})(?:\/([0-9a-z]{1,13})\.([0-9a-z]{1,4}))?\]$/;
/** The form written until this major version. */
const OLD = /\[svc:([\w#-]{1,65})(?: gh:(\d{1,20})\/(\d{1,6}))?\]$/;

/** The poster of this step's statuses for `serviceRunId`, from the runner's environment. */
export function posterOf(serviceRunId: string, env: Record<string, string | undefined>): StatusPoster {
  const id = PLAIN_ID.test(serviceRunId)
    ? serviceRunId
    : `#${createHash('sha256').update(serviceRunId).digest('hex').slice(0, 32)}`;
  const runId = env.GITHUB_RUN_ID ?? '';
  const attempt = env.GITHUB_RUN_ATTEMPT || '1';
  return RUN_DIGITS.test(runId) && ATTEMPT_DIGITS.test(attempt)
    ? { serviceRunId: id, githubRunId: decimal(runId), githubAttempt: decimal(attempt) }
    : { serviceRunId: id };
}

/** The marker in its compact form, the only one written. */
export function markerOf(poster: StatusPoster): string {
  const id = UUID.test(poster.serviceRunId)
    ? `~${Buffer.from(poster.serviceRunId.replace(/-/g, ''), 'hex').toString('base64url')}`
    : poster.serviceRunId;
  const github = poster.githubRunId
    ? `/${BigInt(poster.githubRunId).toString(36)}.${BigInt(poster.githubAttempt ?? '1').toString(36)}`
    : '';
  return `[svc:${id}${github}]`;
}

/** The poster a description names, when it ends with a marker of either form. */
export function parseMarker(description: string | null | undefined): StatusPoster | undefined {
  const text = description ?? '';
  const old = OLD.exec(text);
  if (old) return withGitHub(old[1], old[2] && decimal(old[2]), old[3] && decimal(old[3]));
  const compact = COMPACT.exec(text);
  if (!compact) return undefined;
  const [, id, run, attempt] = compact;
  const serviceRunId = id.startsWith('~') ? uuidOf(id.slice(1)) : id;
  if (!serviceRunId) return undefined;
  if (!run) return { serviceRunId };
  const githubRunId = fromBase36(run);
  const githubAttempt = fromBase36(attempt);
  return RUN_DIGITS.test(githubRunId) && ATTEMPT_DIGITS.test(githubAttempt)
    ? withGitHub(serviceRunId, githubRunId, githubAttempt)
    : undefined;
}

/** `words` cut to fit (between words), then the marker whole. */
export function describe(words: string, poster: StatusPoster): string {
  const marker = markerOf(poster);
  return `${oneLine(words, MAX_DESCRIPTION - marker.length - 1)} ${marker}`;
}

function withGitHub(serviceRunId: string, githubRunId?: string, githubAttempt?: string): StatusPoster {
  return githubRunId ? { serviceRunId, githubRunId, githubAttempt } : { serviceRunId };
}

const decimal = (digits: string): string => BigInt(digits).toString();

/** Base 36 read exactly (a GitHub run id may pass 2^53). */
function fromBase36(text: string): string {
  let value = 0n;
  for (const char of text) value = value * 36n + BigInt(parseInt(char, 36));
  return value.toString();
}

/** The UUID of 22 base64url characters, or nothing when they are not the exact packing of one. */
function uuidOf(packed: string): string | undefined {
  const bytes = Buffer.from(packed, 'base64url');
  if (bytes.length !== 16 || bytes.toString('base64url') !== packed) return undefined;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
