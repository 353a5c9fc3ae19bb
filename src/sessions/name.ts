/**
 * The default name of a device session and the key of its pull-request comment.
 *
 * A session started without `name` is named after the GitHub context that started it, so that the
 * service's dashboard says which repository, workflow run and job a paid device belongs to:
 * `acme/app · CI #42.1 · e2e` (repository · workflow #run-number.run-attempt · job). The runner
 * does not expose a job's matrix values as environment variables, so they are not in it: a matrix
 * job that wants them in the name passes `name:` itself (`${{ github.job }} · ${{ matrix.device }}`).
 * Outside a runner (none of these variables) there is no default and no name is sent.
 *
 * The comment's key must not change from one run to the next (the comment is updated in place), so
 * it is never the default name, which carries the run number: it is the name the user gave, or the
 * workflow and job with the device asked for.
 */
import { SESSION_LIMITS, type SessionType } from '../service/contract.js';
import { CONTROL } from '../text/one-line.js';

/** The session type the service uses when the create request names none. */
export const DEFAULT_SESSION_TYPE: SessionType = 'agent-device';

type Env = Record<string, string | undefined>;

const SEPARATOR = ' · ';

/** A value from the environment as one clean line ('' when unset). */
function clean(value: string | undefined): string {
  return (value ?? '').replace(new RegExp(CONTROL.source, 'g'), ' ').replace(/\s+/g, ' ').trim();
}

/** Cut to `max` characters, with `…` where it was cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * `acme/app · CI #42.1 · e2e` from GITHUB_REPOSITORY, GITHUB_WORKFLOW, GITHUB_RUN_NUMBER,
 * GITHUB_RUN_ATTEMPT and GITHUB_JOB, at most SESSION_LIMITS.nameLength characters (a long
 * workflow name is shortened first, so the run and the job stay); undefined when none is set.
 */
export function defaultSessionName(env: Env, max: number = SESSION_LIMITS.nameLength): string | undefined {
  const repository = clean(env.GITHUB_REPOSITORY);
  let workflow = clean(env.GITHUB_WORKFLOW);
  const runNumber = clean(env.GITHUB_RUN_NUMBER);
  const attempt = clean(env.GITHUB_RUN_ATTEMPT);
  const job = clean(env.GITHUB_JOB);
  const run = runNumber ? `#${runNumber}${attempt ? `.${attempt}` : ''}` : '';
  const compose = (): string =>
    [repository, [workflow, run].filter(Boolean).join(' '), job].filter(Boolean).join(SEPARATOR);
  if (compose() === '') return undefined;
  const over = compose().length - max;
  if (over > 0 && workflow.length > over + 1) workflow = cut(workflow, workflow.length - over);
  return cut(compose(), max);
}

/**
 * The sticky comment's key: the name the user gave, else what stays the same from run to run for
 * this job (workflow, job) and the device it asks for (platform, type, device).
 */
export function commentSubject(
  givenName: string,
  device: { platform: string; type?: string; deviceIdentifier?: string },
  env: Env,
): string {
  if (givenName.trim()) return givenName.trim();
  const job = [clean(env.GITHUB_WORKFLOW), clean(env.GITHUB_JOB)].filter(Boolean);
  const what = [device.platform, device.type ?? DEFAULT_SESSION_TYPE, device.deviceIdentifier]
    .filter(Boolean)
    .join(' ');
  return cut([...job, what].join(SEPARATOR), 200);
}

/**
 * `Device session <name> (<platform> <type>)`: how the log and every session summary name a device.
 * `clean` makes each part safe for where it goes (one plain line for the log, Markdown for a summary).
 */
export function deviceTitle(
  session: { name?: string | null; platform?: string | null; type?: string | null },
  clean: { word(text: string): string; name(text: string): string },
): string {
  const what = [session.platform, session.type]
    .filter(Boolean)
    .map((part) => clean.word(String(part)))
    .join(' ');
  const name = session.name ? ` ${clean.name(session.name)}` : '';
  return `Device session${name}${what ? ` (${what})` : ''}`;
}
