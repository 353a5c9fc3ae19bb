/**
 * The shape of the input tables, the reader that applies one, and the inputs several commands
 * share. Each command's table (its `inputs`, in src/commands/<command>.ts) is the single source of
 * its inputs: reading and validation here, the root action's "not used by this command" warning,
 * every action.yml and the README's tables (scripts/generate/main.ts).
 */
import { InputProblem, type InputNote, type Parser } from './parsers.js';
import * as parse from './parsers.js';
import { UserFacingError } from '../errors.js';
import { DEFAULT_POLL_INTERVAL_MS } from '../service/poll.js';

export interface InputSpec<T = unknown> {
  /** One sentence or two for action.yml and the README; says what is allowed. */
  description: string;
  required?: boolean;
  /** The default action.yml declares (the runner fills it in); the reader applies it too. */
  default?: string;
  /**
   * A default only the runner can evaluate (`${{ github.token }}`): written into action.yml, never
   * applied by the reader, so the value stays optional in the command's type.
   */
  runnerDefault?: string;
  /** An environment variable read when the input is empty. */
  fallbackEnv?: string;
  /**
   * A default that depends on the run (the pull request's head commit), when there is nothing else.
   * It may throw an InputProblem to refuse, saying why.
   */
  fallback?: (source: InputSource) => string | undefined;
  /** Registered as a secret before anything is printed; never echoed. */
  secret?: boolean;
  /** Passed on byte for byte (a webhook body): not trimmed. */
  untrimmed?: boolean;
  /** Said when a required input is missing: what to give. */
  hint?: string;
  /**
   * An input given as '' is left unset instead of taking its fallback: `expected-commit: ''` turns a
   * check off. On the runner every input with a default arrives (evaluated), so only the user makes
   * it empty; an input not passed at all (a run outside the runner) still takes its fallback.
   */
  blankMeansNone?: boolean;
  parse: Parser<T>;
  /** Advice on a valid value the user gave (not a default): logged before the command runs. */
  advise?(value: T, name: string): InputNote | undefined;
}

export type InputTable = Record<string, InputSpec>;

/** Where inputs come from: the runner's INPUT_* variables in production, a map in tests. */
export interface InputSource {
  /** The raw value of an input, untrimmed; '' when not set. */
  input(name: string): string;
  env: Record<string, string | undefined>;
  /** Reads the GitHub event payload file (only needed for the git-ref default). */
  readFile(path: string): string;
  /** Whether the input was passed at all, even empty (`INPUT_<NAME>` is set); unknown means no. */
  given?(name: string): boolean;
}

export class InputError extends UserFacingError {
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? `Invalid input: ${problems[0]}`
        : `Invalid inputs:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
  }
}

/** An input the reader always returns a value for: required (it throws otherwise) or defaulted. */
type Present<S> = S extends { required: true } ? true : S extends { default: string } ? true : false;

/** The values a command receives, keyed by input name and typed from its table. */
export type Values<T extends InputTable> = {
  [K in keyof T]: T[K] extends InputSpec<infer V> ? (Present<T[K]> extends true ? V : V | undefined) : never;
};

const MAX_INPUT_LENGTH = 65_536;

/**
 * Reads every input of a table. Problems are collected, so the user fixes them all in one go; the
 * values are complete (every required and defaulted input present) only when there are none.
 */
export function readTable<T extends InputTable>(
  table: T,
  source: InputSource,
): { values: Partial<Values<T>>; problems: string[]; notes: InputNote[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  const notes: InputNote[] = [];
  for (const [name, spec] of Object.entries(table)) {
    let raw: string | undefined;
    try {
      raw = rawValue(name, spec, source);
    } catch (error) {
      // A computed default may refuse to apply (a fork's head on pull_request_target), saying why.
      if (!(error instanceof InputProblem)) throw error;
      problems.push(error.message);
      continue;
    }
    if (raw === undefined) {
      if (spec.required) problems.push(`\`${name}\` is required${spec.hint ? `: ${spec.hint}` : '.'}`);
      continue;
    }
    if (raw.length > MAX_INPUT_LENGTH) {
      problems.push(`\`${name}\` is too long (${raw.length} characters; at most ${MAX_INPUT_LENGTH}).`);
      continue;
    }
    try {
      values[name] = spec.parse(raw, name);
      // Only a value the user wrote is advised on, not a default or a fallback filled in for them.
      const note = source.input(name).trim() === raw ? spec.advise?.(values[name], name) : undefined;
      if (note) notes.push(note);
    } catch (error) {
      if (!(error instanceof InputProblem)) throw error;
      // A secret's problem is stated without its value; parsers of secret inputs never quote it.
      problems.push(error.message);
    }
  }
  return { values: values as Partial<Values<T>>, problems, notes };
}

/** The trimmed value of an input after its environment fallback and default; undefined when none. */
function rawValue(name: string, spec: InputSpec, source: InputSource): string | undefined {
  const given = source.input(name);
  // Stand-ins for the runner (local-action) fill in action.yml's defaults without evaluating them:
  // an expression that arrives as text was not given.
  const unevaluated = spec.runnerDefault !== undefined && given.trim() === spec.runnerDefault;
  if (spec.blankMeansNone && !unevaluated && given.trim() === '' && source.given?.(name)) return undefined;
  const candidates = [
    () => (unevaluated ? undefined : given),
    () => (spec.fallbackEnv ? source.env[spec.fallbackEnv] : undefined),
    () => spec.default,
    () => spec.fallback?.(source),
  ];
  for (const candidate of candidates) {
    const value = candidate();
    if (value?.trim()) return spec.untrimmed ? value : value.trim();
  }
  return undefined;
}

/** The secrets among a table's inputs and their fallbacks, to mask before anything is printed. */
export function secretValues(table: InputTable, source: InputSource): string[] {
  return Object.entries(table)
    .filter(([, spec]) => spec.secret)
    .flatMap(([name, spec]) => [source.input(name), spec.fallbackEnv ? source.env[spec.fallbackEnv] : ''])
    .map((value) => value?.trim() ?? '')
    .filter((value) => value !== '');
}

// ---- Inputs shared by the commands that call the service -------------------------------------

export const token = {
  description:
    'Access token of a robot user (recommended) or a personal access token. Default: the `SVC_TOKEN` environment variable. Masked at once.',
  fallbackEnv: 'SVC_TOKEN',
  required: true,
  secret: true,
  hint: 'pass an access token, or set the SVC_TOKEN environment variable.',
  parse: parse.credential,
} satisfies InputSpec<string>;

export const baseUrl = {
  description:
    "The service's base URL, http or https, optionally with a path prefix but without the API version. Default: the `SVC_BASE_URL` environment variable.",
  fallbackEnv: 'SVC_BASE_URL',
  required: true,
  hint: 'the service base URL (http or https), or set the SVC_BASE_URL environment variable.',
  parse: parse.baseUrl,
} satisfies InputSpec<string>;

export const appId = {
  description: 'Project id (UUID). Default: the `SVC_APP_ID` environment variable.',
  fallbackEnv: 'SVC_APP_ID',
  required: true,
  hint: 'the project id, a UUID such as 4f6c1a2b-0000-4000-8000-000000000000, or set the SVC_APP_ID environment variable.',
  parse: parse.uuid,
} satisfies InputSpec<string>;

const MAX_POLL_INTERVAL_SECONDS = 3600;
const MAX_TIMEOUT_MINUTES = 10_080;

export function pollInterval(defaultSeconds: number) {
  return {
    description: `Seconds between status reads: from ${parse.MIN_POLL_INTERVAL_SECONDS} to ${MAX_POLL_INTERVAL_SECONDS} (fractions allowed).`,
    default: String(defaultSeconds),
    parse: parse.positiveNumber(MAX_POLL_INTERVAL_SECONDS, parse.MIN_POLL_INTERVAL_SECONDS),
  } satisfies InputSpec<number>;
}

/** A job on a GitHub-hosted runner is ended after this long, whatever the step waits for. */
const HOSTED_JOB_LIMIT_MINUTES = 360;

export function timeout(defaultMinutes: number, what: string) {
  return {
    description: `How long to wait ${what}, in minutes: a positive number up to ${MAX_TIMEOUT_MINUTES} (a week; fractions allowed).`,
    default: String(defaultMinutes),
    parse: parse.positiveNumber(MAX_TIMEOUT_MINUTES),
    advise: (minutes: number, name: string) =>
      minutes > HOSTED_JOB_LIMIT_MINUTES
        ? {
            level: 'notice' as const,
            text:
              `\`${name}\` is ${minutes} minutes, more than the ${HOSTED_JOB_LIMIT_MINUTES}-minute limit of a job ` +
              'on a GitHub-hosted runner: there the runner ends the job first. A self-hosted runner can wait longer.',
          }
        : undefined,
  } satisfies InputSpec<number>;
}

export const comment = {
  description:
    '`true`: post the result as one sticky pull-request comment, updated in place (needs `pull-requests: write`). Outside pull-request events it is skipped with a notice.',
  default: 'false',
  parse: parse.boolean,
} satisfies InputSpec<boolean>;

export const githubToken = {
  description: 'Token for the pull-request comment. Masked.',
  runnerDefault: '${{ github.token }}',
  fallbackEnv: 'GITHUB_TOKEN',
  secret: true,
  // Checked where it is used (github/comment.ts): an input that is not used never fails a step.
  parse: (value: string) => value,
} satisfies InputSpec<string>;

export const exportEnv = {
  description:
    "`true`: export the controllers' environment variables (`AGENT_DEVICE_DAEMON_BASE_URL`, `APPIUM_URL`, …) for later steps of the job.",
  default: 'true',
  parse: parse.boolean,
} satisfies InputSpec<boolean>;

export const jobs = {
  description:
    'Jobs to gate on, comma- or newline-separated: job keys as in the workflow file, or `type:<job type>` ' +
    'for every job of that type as the service names it (`type:build`: all the builds; `type:submission`: ' +
    'the jobs the file writes `type: submit`). The step ends as soon as these jobs are terminal and succeeds ' +
    'only if all of them succeeded; a key or type the run does not have fails it. Default: the whole run.',
  parse: parse.jobKeys,
} satisfies InputSpec<string[]>;

export const onActionRequired = {
  description:
    'What to do when the run waits for a manual action such as an approval (status `action-required`): ' +
    '`wait` for it (until `timeout-minutes`), or `fail` the step at once (outcome `action-required`), ' +
    "linking the run's page where it is approved.",
  default: 'wait',
  parse: parse.oneOf(['wait', 'fail'] as const),
} satisfies InputSpec<'wait' | 'fail'>;

/** The connection settings every command that calls the service needs. */
export interface ApiSettings {
  baseUrl: string;
  token: string;
  pollIntervalMs: number;
  timeoutMs: number;
}

export function apiSettings(values: {
  token: string;
  'base-url': string;
  'poll-interval-seconds'?: number;
  'timeout-minutes': number;
}): ApiSettings {
  return {
    token: values.token,
    baseUrl: values['base-url'],
    // stop-device-session has no poll interval: its retries pace themselves at the spec's 5 s.
    pollIntervalMs:
      values['poll-interval-seconds'] === undefined
        ? DEFAULT_POLL_INTERVAL_MS
        : values['poll-interval-seconds'] * 1000,
    timeoutMs: values['timeout-minutes'] * 60_000,
  };
}
