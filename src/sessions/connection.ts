/**
 * A device session's outputs, in one table: the session's own (id, page, job run, status) and its
 * connection once ready. Each row says where a value comes from (the session, or a `remoteConfig`
 * field), the step output that carries it, when the step writes it (the phases below), the
 * environment variable the controllers read it from (exported for later steps with
 * `export-env: true`), whether the service documents it as a secret, and what it is. The outputs,
 * the exported variables, the masking of the documented secrets, the summary's browser-preview
 * link, the outputs' descriptions in action.yml and the README's table of exported variables all
 * come from these rows.
 */
import type { DeviceSession } from '../service/contract.js';
import type { OutputWriter } from '../runner/outputs.js';

/**
 * When the step writes a session's outputs, each phase in one place (writeSessionOutputs), from
 * the rows that name it. Once the session is `ready`, every row is written.
 */
export type SessionPhase =
  /** start-device-session's create was answered: the session exists (create.ts). */
  | 'created'
  /** wait-for-device-session was given the session's id: the step knows it before any read. */
  | 'named'
  /** A read showed the session's page for the first time (ready.ts). */
  | 'page-seen'
  /** The step's last look at a session that is not ready: it ended first, or `wait: false` leaves it. */
  | 'last-seen'
  | 'ready'
  /** The service confirmed a stop (stop.ts, stop-device-session). */
  | 'stopped';

/** What a phase knows of the session: at least its id. */
type KnownSession = Pick<DeviceSession, 'id'> & Partial<DeviceSession>;

interface ConnectionRow {
  output: string;
  /** The step output's description (action.yml, the README). */
  description: string;
  /** The phases that write the row before the session is ready (then every row is written). */
  before?: readonly Exclude<SessionPhase, 'ready'>[];
  /** The `remoteConfig` field it comes from; none for the session's own fields. */
  field?: string;
  /** The value, for a row that is not a `remoteConfig` string field as it is. */
  value?: (session: KnownSession) => string;
  /** The environment variable exported for later steps, and for which session types. */
  env?: { name: string; types: string; value: string; secret?: string };
  /** service-interface.md marks the field as secret: masked whatever it looks like. */
  secret?: boolean;
  /** A link to the device in a browser, for the summary and the log. */
  preview?: boolean;
}

const json = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value));

/**
 * The exported variable of the session id, for controllers and scripts. No command reads it: any later
 * step can rewrite it, so it never chooses which paid session a step follows or stops.
 */
export const SESSION_ID_ENV = 'SVC_DEVICE_SESSION_ID';
/** How a workflow passes a session to a later step: the start step's output, `<id>` being its `id:`. */
export const SESSION_ID_LINE = 'session-id: ${{ steps.<id>.outputs.session-id }}';
/**
 * What an empty `session-id` needs: `needs.<job>.outputs.session-id` is empty, not an error, when
 * the start job does not declare the output, so the same-job form alone does not explain it.
 */
export const SESSION_ID_HINT =
  `the \`session-id\` output of the start-device-session step, empty here. In its job: \`${SESSION_ID_LINE}\` (give that step an \`id:\`). ` +
  "From another job: declare it in that job's `outputs:`, list that job in `needs:` and pass `session-id: ${{ needs.<job>.outputs.session-id }}` (an output not declared is empty).";

const SESSION_ROWS = [
  {
    output: 'session-id',
    description: 'The session id.',
    before: ['created', 'named'],
    value: (session) => session.id,
    env: {
      name: SESSION_ID_ENV,
      types: 'all',
      value:
        'the session id (`start-device-session`: as soon as it exists), for scripts; no command reads it',
    },
  },
  {
    output: 'session-url',
    description: "The session's page on the service.",
    before: ['created', 'page-seen'],
    value: (s) => s.url ?? '',
  },
  {
    output: 'job-run-id',
    description: 'The id of the job run behind the session.',
    before: ['created'],
    value: (s) => s.jobRunId ?? '',
  },
  {
    output: 'status',
    description: 'The last status seen (`in-progress` once ready).',
    before: ['last-seen', 'stopped'],
    value: (s) => s.status ?? '',
  },
  {
    output: 'remote-config',
    description: 'The `remoteConfig` object as JSON (credentials in it are masked).',
    value: (session) => json(session.remoteConfig ?? {}),
  },
  {
    output: 'agent-device-remote-session-url',
    description: 'agent-device: the daemon URL.',
    field: 'agentDeviceRemoteSessionUrl',
    env: {
      name: 'AGENT_DEVICE_DAEMON_BASE_URL',
      types: '`agent-device`',
      value: '`agentDeviceRemoteSessionUrl`',
    },
  },
  {
    output: 'agent-device-remote-session-token',
    description: 'agent-device: the daemon token (masked).',
    field: 'agentDeviceRemoteSessionToken',
    secret: true,
    env: {
      name: 'AGENT_DEVICE_DAEMON_AUTH_TOKEN',
      types: '`agent-device`',
      value: '`agentDeviceRemoteSessionToken`',
    },
  },
  {
    output: 'tools-url',
    description: 'argent: the tools URL.',
    field: 'toolsUrl',
    env: { name: 'ARGENT_TOOLS_URL', types: '`argent`', value: '`toolsUrl`' },
  },
  {
    output: 'tools-auth-token',
    description: 'argent: the tools token, when there is one (masked).',
    field: 'toolsAuthToken',
    secret: true,
    env: {
      name: 'ARGENT_AUTH_TOKEN',
      types: '`argent`',
      value: '`toolsAuthToken`, only when the service sends one',
    },
  },
  {
    output: 'appium-url',
    description: 'Appium: the server URL.',
    field: 'appiumUrl',
    env: { name: 'APPIUM_URL', types: '`appium`', value: '`appiumUrl`' },
  },
  {
    output: 'capabilities',
    description: 'Appium: the capabilities, as JSON.',
    field: 'capabilities',
    value: (session) => json(session.remoteConfig?.capabilities),
    env: {
      name: 'APPIUM_CAPS',
      types: '`appium`',
      value: '`capabilities`, as a JSON string',
      // Every value that may be a credential is masked (masking.ts), not the settings.
      secret: 'partly',
    },
  },
  {
    output: 'web-preview-url',
    description: 'iOS: the web preview URL.',
    field: 'webPreviewUrl',
    preview: true,
  },
  { output: 'preview-url', description: 'serve-sim: the preview URL.', field: 'previewUrl', preview: true },
] as const satisfies readonly ConnectionRow[];
const ROWS: readonly ConnectionRow[] = SESSION_ROWS;

type Row = (typeof SESSION_ROWS)[number];
/** A session's output. */
export type SessionOutput = Row['output'];
/** The outputs a phase writes: the rows that name it, every row once ready. */
export type PhaseOutput<P extends SessionPhase> = P extends 'ready'
  ? SessionOutput
  : Row extends infer R
    ? R extends { output: infer O; before: readonly (infer B)[] }
      ? P extends B
        ? O
        : never
      : never
    : never;

/** The outputs of the commands that expose a session's connection: each set once the session is ready. */
export const CONNECTION_OUTPUTS = Object.fromEntries(
  ROWS.map((row) => [row.output, { description: row.description, when: 'ready' }]),
) as { [K in SessionOutput]: { description: string; when: 'ready' } };

/**
 * Writes the outputs of `phase` for `session`, from the rows; returns the values written. The one
 * place each phase's outputs are written.
 */
export function writeSessionOutputs<P extends SessionPhase>(
  outputs: OutputWriter<PhaseOutput<P>>,
  phase: P,
  session: KnownSession,
): Record<string, string> {
  const values = connectionOutputs(session);
  const written = ROWS.filter((row) => phase === 'ready' || row.before?.includes(phase as never));
  for (const row of written) outputs.set(row.output as PhaseOutput<P>, values[row.output]);
  return Object.fromEntries(written.map((row) => [row.output, values[row.output]]));
}

/** `remoteConfig` fields that service-interface.md marks as secret (masking.ts). */
export const DOCUMENTED_SECRETS: ReadonlySet<string> = new Set(
  ROWS.filter((row) => row.secret && row.field).map((row) => row.field as string),
);

/** The value of each output for a session, '' where it has none. */
function connectionOutputs(session: KnownSession): Record<string, string> {
  const config = (session.remoteConfig ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    ROWS.map((row) => {
      if (row.value) return [row.output, row.value(session)];
      const value = row.field ? config[row.field] : undefined;
      return [row.output, typeof value === 'string' ? value : ''];
    }),
  );
}

/** The variables to export (name, value), from the outputs; those without a value left out. */
export function connectionVariables(outputs: Record<string, string>): Array<[string, string]> {
  return ROWS.flatMap((row) =>
    row.env && outputs[row.output] ? [[row.env.name, outputs[row.output]] as [string, string]] : [],
  );
}

/** The step output that holds the same value as an exported variable. */
export function outputOfVariable(name: string): string | undefined {
  return ROWS.find((row) => row.env?.name === name)?.output;
}

/** The browser preview among a step's outputs (web preview, serve-sim preview), or undefined. */
export function previewOutput(outputs: Readonly<Record<string, string>>): string | undefined {
  return ROWS.filter((row) => row.preview)
    .map((row) => outputs[row.output])
    .find((value) => value);
}

/** The session's browser preview (web preview, serve-sim preview), or undefined. */
export function previewUrl(remoteConfig: unknown): string | undefined {
  if (typeof remoteConfig !== 'object' || remoteConfig === null) return undefined;
  for (const row of ROWS.filter((each) => each.preview && each.field)) {
    const value = (remoteConfig as Record<string, unknown>)[row.field as string];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** The README's table of exported variables (scripts/generate). */
export function renderVariablesTable(): string {
  const lines = ['| Variable | Session type | Value | Secret |', '| --- | --- | --- | --- |'];
  for (const row of ROWS.filter((each) => each.env)) {
    const env = row.env as NonNullable<ConnectionRow['env']>;
    const secret = env.secret ?? (row.secret ? 'yes, masked' : 'no');
    lines.push(`| \`${env.name}\` | ${env.types} | ${env.value} | ${secret} |`);
  }
  return lines.join('\n');
}
