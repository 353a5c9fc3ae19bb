/**
 * Every input of the action is read and validated here, into typed settings per command, before
 * any request is made. Problems are collected, not thrown one by one, so a user fixes them all in
 * one go; each names the input, what is wrong with the value and what is allowed. Values are never
 * echoed back for inputs that may hold secrets.
 */
import { loadedYaml } from './lazy-yaml.js';
import type { CreateSessionRequest } from './service/client.js';

export const COMMANDS = [
  'run-workflow',
  'start-device-session',
  'stop-device-session',
  'verify-webhook',
] as const;
export type Command = (typeof COMMANDS)[number];

export const SESSION_TYPES = ['agent-device', 'appium', 'argent', 'serve-sim'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];
export const PLATFORMS = ['android', 'ios'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Limits from service-interface.md ("Limits"). */
export const LIMITS = {
  nameLength: 255,
  archiveUrlLength: 2048,
  maxDurationMinutes: 115,
  webhookSecretLength: 16,
} as const;

export interface ApiSettings {
  baseUrl: string;
  token: string;
  pollIntervalMs: number;
  timeoutMs: number;
}

export interface RunWorkflowSettings {
  command: 'run-workflow';
  api: ApiSettings;
  appId: string;
  fileName: string;
  gitRef: string;
  inputs?: Record<string, string | number | boolean>;
  wait: boolean;
  /** Set when `comment: true`: post the result as a sticky pull-request comment. */
  comment?: CommentSettings;
}

export interface StartSessionSettings {
  command: 'start-device-session';
  api: ApiSettings;
  request: CreateSessionRequest;
  wait: boolean;
  exportEnv: boolean;
  autoStop: boolean;
  /** Set when `comment: true`: post the session's links as a sticky pull-request comment. */
  comment?: CommentSettings;
}

export interface CommentSettings {
  githubToken: string;
}

export interface StopSessionSettings {
  command: 'stop-device-session';
  api: ApiSettings;
  sessionId: string;
}

export interface VerifyWebhookSettings {
  command: 'verify-webhook';
  secret: string;
  signature: string;
  payload: { kind: 'inline'; text: string } | { kind: 'file'; path: string };
}

export type Settings =
  RunWorkflowSettings | StartSessionSettings | StopSessionSettings | VerifyWebhookSettings;

/** Where inputs come from: the runner's INPUT_* variables in production, a map in tests. */
export interface InputSource {
  /** The raw value of an input, untrimmed; '' when not set. */
  input(name: string): string;
  env: Record<string, string | undefined>;
  /** Reads the GitHub event payload file (only needed for the git-ref default). */
  readFile(path: string): string;
}

export class InputError extends Error {
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? `Invalid input: ${problems[0]}`
        : `Invalid inputs:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.name = 'InputError';
  }
}

/** Inputs each command reads (besides `command`); any other non-empty input draws a warning. */
export const COMMAND_INPUTS: Record<Command, readonly string[]> = {
  'run-workflow': [
    'token',
    'base-url',
    'app-id',
    'poll-interval-seconds',
    'timeout-minutes',
    'workflow',
    'git-ref',
    'inputs',
    'wait',
    'comment',
    'github-token',
  ],
  'start-device-session': [
    'token',
    'base-url',
    'app-id',
    'poll-interval-seconds',
    'timeout-minutes',
    'platform',
    'name',
    'type',
    'package-version',
    'device-identifier',
    'max-duration-minutes',
    'max-idle-time-minutes',
    'build-id',
    'application-archive-url',
    'svc-go',
    'sdk-version',
    'launch-args',
    'open-url',
    'wait',
    'export-env',
    'auto-stop',
    'comment',
    'github-token',
  ],
  'stop-device-session': ['token', 'base-url', 'session-id'],
  'verify-webhook': ['webhook-secret', 'signature', 'payload', 'payload-file'],
};
const ALL_INPUTS = [...new Set(Object.values(COMMAND_INPUTS).flat())];

const DEFAULTS = {
  'run-workflow': { pollIntervalSeconds: 10, timeoutMinutes: 60 },
  'start-device-session': { pollIntervalSeconds: 5, timeoutMinutes: 15 },
  'stop-device-session': { pollIntervalSeconds: 5, timeoutMinutes: 5 },
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;
const MAX_INPUT_LENGTH = 65_536;

/** Reads and validates the inputs of the command named by `command`. Throws InputError. */
export function readSettings(source: InputSource): { settings: Settings; warnings: string[] } {
  const reader = new Reader(source);
  const command = reader.command();
  const warnings = ALL_INPUTS.filter(
    (name) => !COMMAND_INPUTS[command].includes(name) && source.input(name).trim() !== '',
  ).map((name) => `Input \`${name}\` is not used by ${command}; it is ignored.`);
  let settings: Settings;
  switch (command) {
    case 'run-workflow':
      settings = readRunWorkflow(reader);
      break;
    case 'start-device-session':
      settings = readStartSession(reader);
      break;
    case 'stop-device-session':
      settings = { command, api: reader.api(command), sessionId: reader.uuid('session-id', true) ?? '' };
      break;
    case 'verify-webhook':
      settings = readVerifyWebhook(reader);
      break;
  }
  reader.finish();
  return { settings, warnings };
}

function readRunWorkflow(reader: Reader): RunWorkflowSettings {
  const command = 'run-workflow';
  return {
    command,
    api: reader.api(command),
    appId: reader.uuid('app-id', true) ?? '',
    fileName: reader.workflowFileName(),
    gitRef: reader.gitRef(),
    inputs: reader.dispatchInputs(),
    wait: reader.boolean('wait', true),
    comment: reader.comment(),
  };
}

function readStartSession(reader: Reader): StartSessionSettings {
  const command = 'start-device-session';
  const platform = reader.oneOf('platform', PLATFORMS, true);
  const type = reader.oneOf('type', SESSION_TYPES, false);
  const name = reader.text('name', { max: LIMITS.nameLength, multiline: false });
  const maxDurationMinutes = reader.integer('max-duration-minutes', 0, LIMITS.maxDurationMinutes);
  const maxIdleTimeMinutes = reader.integer('max-idle-time-minutes', 1, LIMITS.maxDurationMinutes - 1);
  const buildId = reader.uuid('build-id', false);
  const applicationArchiveUrl = reader.httpUrl('application-archive-url', LIMITS.archiveUrlLength);
  const svcGo = reader.boolean('svc-go', false);
  const sdkVersion = reader.text('sdk-version', { max: 64, multiline: false });
  const launchArgs = reader.launchArgs();
  const openUrl = reader.text('open-url', { max: 2048, multiline: false });

  if (
    maxIdleTimeMinutes !== undefined &&
    maxDurationMinutes !== undefined &&
    maxIdleTimeMinutes >= maxDurationMinutes
  ) {
    reader.problem(
      `\`max-idle-time-minutes\` (${maxIdleTimeMinutes}) must be smaller than \`max-duration-minutes\` (${maxDurationMinutes}).`,
    );
  }
  if (type === 'serve-sim' && maxIdleTimeMinutes !== undefined) {
    reader.problem(
      '`max-idle-time-minutes` is not supported for `type: serve-sim`; remove it or choose another type.',
    );
  }
  if (type === 'serve-sim' && platform === 'android') {
    reader.problem('`type: serve-sim` is iOS only; use `platform: ios` or another type.');
  }
  const sources = [
    buildId !== undefined && '`build-id`',
    applicationArchiveUrl !== undefined && '`application-archive-url`',
    svcGo && '`svc-go: true`',
  ].filter(Boolean);
  if (sources.length > 1) {
    reader.problem(
      `only one application source is allowed, but ${sources.join(', ')} are set; keep one of them.`,
    );
  }
  if (sdkVersion !== undefined && !svcGo) reader.problem('`sdk-version` is valid only with `svc-go: true`.');
  if (launchArgs !== undefined && sources.length === 0) {
    reader.problem(
      '`launch-args` requires an application source (`build-id`, `application-archive-url` or `svc-go: true`).',
    );
  }
  if (openUrl !== undefined) {
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(openUrl))
      reader.problem('`open-url` must be a URL with a scheme, such as `myapp://path` or `https://…`.');
    if (sources.length === 0) {
      reader.problem(
        '`open-url` requires an application source (`build-id`, `application-archive-url` or `svc-go: true`).',
      );
    }
  }

  return {
    command,
    api: reader.api(command),
    request: {
      appId: reader.uuid('app-id', true) ?? '',
      platform: platform ?? 'ios',
      name,
      type,
      packageVersion: reader.text('package-version', { max: 128, multiline: false }),
      deviceIdentifier: reader.text('device-identifier', { max: 255, multiline: false }),
      maxDurationMinutes,
      maxIdleTimeMinutes,
      buildId,
      applicationArchiveUrl,
      svcGo: svcGo || undefined,
      sdkVersion,
      launchArgs,
      openUrl,
    },
    wait: reader.boolean('wait', true),
    exportEnv: reader.boolean('export-env', true),
    autoStop: reader.boolean('auto-stop', true),
    comment: reader.comment(),
  };
}

function readVerifyWebhook(reader: Reader): VerifyWebhookSettings {
  const secret = reader.raw('webhook-secret');
  if (secret === '') reader.problem('`webhook-secret` is required.');
  else if (secret.length < LIMITS.webhookSecretLength) {
    reader.problem(
      `\`webhook-secret\` must be at least ${LIMITS.webhookSecretLength} characters long (it has ${secret.length}).`,
    );
  }
  const signature = reader.raw('signature').trim();
  if (signature === '')
    reader.problem('`signature` is required: the value of the `svc-signature` header of the delivery.');
  const text = reader.raw('payload');
  const path = reader.raw('payload-file').trim();
  if (text !== '' && path !== '')
    reader.problem('set exactly one of `payload` and `payload-file`, not both.');
  if (text === '' && path === '')
    reader.problem('one of `payload` (the raw request body) or `payload-file` (a path to it) is required.');
  return {
    command: 'verify-webhook',
    secret,
    signature,
    payload: path !== '' ? { kind: 'file', path } : { kind: 'inline', text },
  };
}

/** Reads inputs one by one, recording problems instead of throwing at the first. */
class Reader {
  private readonly problems: string[] = [];

  constructor(private readonly source: InputSource) {}

  problem(message: string): void {
    this.problems.push(message);
  }

  finish(): void {
    if (this.problems.length > 0) throw new InputError(this.problems);
  }

  raw(name: string): string {
    return this.source.input(name);
  }

  /** A trimmed value, or undefined when empty; refuses oversized values once for all inputs. */
  private value(name: string): string | undefined {
    const value = this.source.input(name).trim();
    if (value === '') return undefined;
    if (value.length > MAX_INPUT_LENGTH) {
      this.problem(`\`${name}\` is too long (${value.length} characters; at most ${MAX_INPUT_LENGTH}).`);
      return undefined;
    }
    return value;
  }

  command(): Command {
    const value = this.source.input('command').trim();
    if ((COMMANDS as readonly string[]).includes(value)) return value as Command;
    const shown = value === '' ? 'is required' : `is \`${preview(value)}\``;
    throw new InputError([`\`command\` ${shown}; allowed: ${COMMANDS.join(', ')}.`]);
  }

  api(command: keyof typeof DEFAULTS): ApiSettings {
    const defaults = DEFAULTS[command];
    const token = this.value('token') ?? this.source.env.SVC_TOKEN?.trim() ?? '';
    if (token === '')
      this.problem('`token` is required: pass an access token, or set the SVC_TOKEN environment variable.');
    // Never echo the token: the message says what is wrong, not what it is.
    else this.checkCredential('token', token);

    const baseUrl = this.value('base-url') ?? this.source.env.SVC_BASE_URL?.trim() ?? '';
    let normalisedBaseUrl = '';
    if (baseUrl === '') {
      this.problem(
        '`base-url` is required: the service base URL (http or https), or set the SVC_BASE_URL environment variable.',
      );
    } else {
      const url = parseUrl(baseUrl);
      if (!url || !['http:', 'https:'].includes(url.protocol)) {
        this.problem(
          `\`base-url\` must be an http or https URL, optionally with a path prefix; got \`${preview(baseUrl)}\`.`,
        );
      } else if (url.username || url.password) {
        this.problem('`base-url` must not contain credentials; pass the token in `token`.');
      } else if (url.search || url.hash) {
        this.problem('`base-url` must not have a query or fragment.');
      } else {
        normalisedBaseUrl = url.toString().replace(/\/+$/, '');
      }
    }
    const interval = this.positiveNumber('poll-interval-seconds', 3600) ?? defaults.pollIntervalSeconds;
    const timeout = this.positiveNumber('timeout-minutes', 10_080) ?? defaults.timeoutMinutes;
    return {
      baseUrl: normalisedBaseUrl,
      token,
      pollIntervalMs: interval * 1000,
      timeoutMs: timeout * 60_000,
    };
  }

  /** A token goes into an HTTP header: one word, no spaces or line breaks. Never echoes the value. */
  private checkCredential(name: string, value: string): void {
    if (/\s/.test(value) || CONTROL.test(value)) {
      this.problem(`\`${name}\` must be a single word with no spaces or line breaks.`);
    }
  }

  /** `comment` (default false) and, when it is true, `github-token` (or GITHUB_TOKEN). */
  comment(): CommentSettings | undefined {
    if (!this.boolean('comment', false)) return undefined;
    const githubToken = this.value('github-token') ?? this.source.env.GITHUB_TOKEN?.trim() ?? '';
    if (githubToken === '') {
      this.problem(
        '`github-token` is required with `comment: true`: pass `github-token: ${{ github.token }}` and grant `pull-requests: write`.',
      );
    } else {
      this.checkCredential('github-token', githubToken);
    }
    return { githubToken };
  }

  uuid(name: string, required: boolean): string | undefined {
    const value = this.value(name);
    if (value === undefined) {
      if (required)
        this.problem(`\`${name}\` is required: a UUID such as 4f6c1a2b-0000-4000-8000-000000000000.`);
      return undefined;
    }
    if (!UUID.test(value)) {
      this.problem(`\`${name}\` must be a UUID (8-4-4-4-12 hexadecimal digits); got \`${preview(value)}\`.`);
      return undefined;
    }
    return value.toLowerCase();
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.value(name);
    if (value === undefined) return fallback;
    if (['true', 'True', 'TRUE'].includes(value)) return true;
    if (['false', 'False', 'FALSE'].includes(value)) return false;
    this.problem(`\`${name}\` must be \`true\` or \`false\`; got \`${preview(value)}\`.`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], required: boolean): T | undefined {
    const value = this.value(name);
    if (value === undefined) {
      if (required) this.problem(`\`${name}\` is required; allowed: ${allowed.join(', ')}.`);
      return undefined;
    }
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problem(`\`${name}\` is \`${preview(value)}\`; allowed: ${allowed.join(', ')}.`);
    return undefined;
  }

  text(name: string, rules: { max: number; multiline: boolean }): string | undefined {
    const raw = this.source.input(name);
    const value = this.value(name);
    if (value === undefined) {
      if (raw !== '') this.problem(`\`${name}\` must not be blank; leave it out or give a value.`);
      return undefined;
    }
    if (value.length > rules.max) {
      this.problem(`\`${name}\` is ${value.length} characters long; at most ${rules.max} are allowed.`);
    } else if (!rules.multiline && CONTROL.test(value)) {
      this.problem(`\`${name}\` must be a single line without control characters.`);
    }
    return value;
  }

  /** Integer minutes in [min, max]: "30" yes; "30.5", "-1", "1e2", "" (left out) no. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problem(`\`${name}\` must be a whole number from ${min} to ${max}; got \`${preview(value)}\`.`);
      return undefined;
    }
    return Number(value);
  }

  /** A positive decimal number (fractions allowed), at most `max`. */
  positiveNumber(name: string, max: number): number | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || !(number > 0) || number > max) {
      this.problem(
        `\`${name}\` must be a positive number (fractions allowed) up to ${max}; got \`${preview(value)}\`.`,
      );
      return undefined;
    }
    return number;
  }

  httpUrl(name: string, maxLength: number): string | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    const url = parseUrl(value);
    if (value.length > maxLength) {
      this.problem(`\`${name}\` is ${value.length} characters long; at most ${maxLength} are allowed.`);
    } else if (!url || !['http:', 'https:'].includes(url.protocol) || /\s/.test(value)) {
      this.problem(`\`${name}\` must be an http or https URL; got \`${preview(value)}\`.`);
    }
    return value;
  }

  workflowFileName(): string {
    const name = 'workflow';
    const value = this.value(name);
    if (value === undefined) {
      this.problem('`workflow` is required: the workflow file name, such as `e2e.yml`.');
      return '';
    }
    if (/[/\\]/.test(value) || value === '..' || value.startsWith('.')) {
      this.problem(
        `\`workflow\` must be a file name only, such as \`e2e.yml\`, with no directory (the service looks in the workflows folder); got \`${preview(value)}\`.`,
      );
    } else if (CONTROL.test(value) || !/\.ya?ml$/i.test(value) || value.length > 255) {
      this.problem(
        `\`workflow\` must be a .yml or .yaml file name of at most 255 characters; got \`${preview(value)}\`.`,
      );
    }
    return value;
  }

  /** The ref to run on; by default the pull request's head commit, otherwise GITHUB_SHA. */
  gitRef(): string {
    const name = 'git-ref';
    const value = this.value(name) ?? this.defaultGitRef();
    if (value === undefined) {
      this.problem(
        '`git-ref` is required outside a GitHub event with a commit (no GITHUB_SHA); give a branch, tag or SHA.',
      );
      return '';
    }
    if (
      value.startsWith('-') ||
      value.includes('..') ||
      /[\s~^:?*[\\\u0000-\u001f\u007f]/.test(value) ||
      value.length > 255
    ) {
      this.problem(
        `\`git-ref\` must be a branch, tag, commit SHA or full ref such as refs/heads/main; got \`${preview(value)}\`.`,
      );
    }
    return value;
  }

  private defaultGitRef(): string | undefined {
    const { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: eventPath, GITHUB_SHA: sha } = this.source.env;
    if ((event === 'pull_request' || event === 'pull_request_target') && eventPath) {
      try {
        const payload = JSON.parse(this.source.readFile(eventPath)) as {
          pull_request?: { head?: { sha?: unknown } };
        };
        const head = payload.pull_request?.head?.sha;
        if (typeof head === 'string' && head !== '') return head;
      } catch {
        // Fall through to GITHUB_SHA; a pull request's GITHUB_SHA is its merge commit, which is a usable ref too.
      }
    }
    return sha?.trim() || undefined;
  }

  /** `inputs`: a mapping written as YAML or JSON; scalar values only; no anchors, aliases or tags. */
  dispatchInputs(): Record<string, string | number | boolean> | undefined {
    const name = 'inputs';
    const value = this.value(name);
    if (value === undefined) return undefined;
    const { parseDocument, visit } = loadedYaml();
    const document = parseDocument(value, { uniqueKeys: true, prettyErrors: false });
    if (document.errors.length > 0) {
      const first = document.errors[0];
      this.problem(
        `\`inputs\` is not valid YAML or JSON (${first.code} at line ${(first.linePos?.[0].line ?? 0) || '?'}).`,
      );
      return undefined;
    }
    let special: string | undefined;
    visit(document, {
      Alias: () => {
        special = 'aliases (*name)';
        return visit.BREAK;
      },
      Node: (_key, node) => {
        if ('anchor' in node && node.anchor) special = 'anchors (&name)';
        else if ('tag' in node && node.tag) special = 'tags (!tag)';
        return special ? visit.BREAK : undefined;
      },
    });
    if (special) {
      this.problem(`\`inputs\` must be a plain mapping; YAML ${special} are not allowed.`);
      return undefined;
    }
    const parsed: unknown = document.toJS();
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      this.problem('`inputs` must be a mapping of input names to values, such as `profile: preview`.');
      return undefined;
    }
    const result: Record<string, string | number | boolean> = {};
    for (const [key, entry] of Object.entries(parsed)) {
      if (key.trim() === '' || CONTROL.test(key)) {
        this.problem('`inputs` has an empty or unprintable key.');
      } else if (
        typeof entry === 'string' ||
        typeof entry === 'boolean' ||
        (typeof entry === 'number' && Number.isFinite(entry))
      ) {
        result[key] = entry;
      } else {
        this.problem(
          `\`inputs.${preview(key)}\` must be a string, number or boolean (workflow_dispatch inputs are scalars).`,
        );
      }
    }
    return result;
  }

  /** `launch-args`: a JSON array of strings, or one argument per line. */
  launchArgs(): string[] | undefined {
    const value = this.value('launch-args');
    if (value === undefined) return undefined;
    if (value.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed) && parsed.every((arg) => typeof arg === 'string')) return parsed;
      } catch {
        // reported below
      }
      this.problem(
        '`launch-args` starts with `[` but is not a JSON array of strings; use a JSON array or one argument per line.',
      );
      return undefined;
    }
    return value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** A short, printable rendering of a bad value for an error message. */
function preview(value: string): string {
  const flat = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

/** The API settings alone (token, base URL), for the post step, which has no command of its own to validate. */
export function readApiSettings(
  source: InputSource,
  command: 'start-device-session' | 'stop-device-session',
): ApiSettings {
  const reader = new Reader(source);
  const api = reader.api(command);
  reader.finish();
  return api;
}
