/**
 * The marker every commit status of this action ends its description with: which service run the
 * status is about, and which GitHub run (and attempt) posted it. A status is read back by the next
 * post of the same commit (two steps of one GitHub run must not share a context) and, later, by
 * `sync-statuses` (which settles a status by the run it names): the marker is never cut, the words
 * before it are, to fit GitHub's 140 characters.
 *
 * `[svc:<run id> gh:<GitHub run id>/<attempt>]`, the `gh:` part only when the runner says.
 */
import { createHash } from 'node:crypto';
import { oneLine } from '../text/one-line.js';

/** GitHub's limit for a status's description. */
export const MAX_DESCRIPTION = 140;

/** Who a status is from: the service run it reports on, and the GitHub run that posted it. */
export interface StatusPoster {
  serviceRunId: string;
  githubRunId?: string;
  githubAttempt?: string;
}

/** What a run id may be in a marker as it is (the spec's ids are UUIDs); anything else is hashed. */
const PLAIN_ID = /^[\w-]{1,64}$/;
const MARKER = /\[svc:([\w#-]{1,65})(?: gh:(\d{1,20})\/(\d{1,6}))?\]$/;

/** The poster of this step's statuses for `serviceRunId`, from the runner's environment. */
export function posterOf(serviceRunId: string, env: Record<string, string | undefined>): StatusPoster {
  const id = PLAIN_ID.test(serviceRunId)
    ? serviceRunId
    : `#${createHash('sha256').update(serviceRunId).digest('hex').slice(0, 32)}`;
  const runId = env.GITHUB_RUN_ID ?? '';
  const attempt = env.GITHUB_RUN_ATTEMPT || '1';
  return /^\d{1,20}$/.test(runId) && /^\d{1,6}$/.test(attempt)
    ? { serviceRunId: id, githubRunId: runId, githubAttempt: attempt }
    : { serviceRunId: id };
}

export function markerOf(poster: StatusPoster): string {
  const github = poster.githubRunId ? ` gh:${poster.githubRunId}/${poster.githubAttempt}` : '';
  return `[svc:${poster.serviceRunId}${github}]`;
}

/** The poster a description names, when it ends with a marker. */
export function parseMarker(description: string | null | undefined): StatusPoster | undefined {
  const found = MARKER.exec(description ?? '');
  if (!found) return undefined;
  return found[2]
    ? { serviceRunId: found[1], githubRunId: found[2], githubAttempt: found[3] }
    : { serviceRunId: found[1] };
}

/** `words` cut to fit (between words), then the marker whole. */
export function describe(words: string, poster: StatusPoster): string {
  const marker = markerOf(poster);
  return `${oneLine(words, MAX_DESCRIPTION - marker.length - 1)} ${marker}`;
}
