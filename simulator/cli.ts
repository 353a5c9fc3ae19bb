/**
 * Runs the simulator as a command (`npm run simulator -- --help` lists the flags). Creates an account,
 * a project linked to --repo (or to a repository held in memory with a sample `.eas/workflows/e2e.yml`)
 * and a token, prints how to reach them, and runs until SIGINT/SIGTERM.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROLES, type Role } from './accounts.js';
import { CONTROL_ROUTES } from './control.js';
import { startSimulator } from './index.js';
import { allowedHostNames, bareArgumentsProblem, repoProblem } from './cli-args.js';

/** The workflow of the repository the project gets without --repo. */
const SAMPLE_WORKFLOW = `name: End-to-end tests
on:
  workflow_dispatch:
    inputs:
      profile:
        type: choice
        options: [preview, production]
        default: preview
        description: Build profile
      run_tests:
        type: boolean
        default: true
jobs:
  build_android:
    name: Build Android
    type: build
    params:
      platform: android
      profile: \${{ inputs.profile }}
    outputs:
      profile: \${{ inputs.profile }}
  e2e:
    name: End-to-end tests
    needs: [build_android]
    steps:
      - run: echo testing
`;
const SAMPLE_REPOSITORY = 'in memory, with .eas/workflows/e2e.yml (branch main, tag v1)';

/** Every flag, once: parseArgs' options, the help text and the defaults all come from here. */
const FLAGS = {
  repo: {
    value: 'PATH',
    default: `a repository ${SAMPLE_REPOSITORY}`,
    describe: 'git repository linked to the project; its .eas/workflows/*.yml can be dispatched',
  },
  port: { value: 'N', default: '0 (any free port)', describe: 'port to listen on' },
  host: { value: 'HOST', default: '127.0.0.1', describe: 'address to listen on' },
  'allowed-hosts': {
    value: 'NAMES',
    default: '',
    describe: 'more names clients may send in Host, comma-separated (e.g. host.docker.internal)',
  },
  'readiness-delay-ms': {
    value: 'N',
    default: '3000',
    describe: 'provisioning delay: time from creating a session to in-progress with remoteConfig',
  },
  'job-duration-ms': {
    value: 'N',
    default: '5000',
    describe: 'how long a job runs unless POST /_sim/jobs/:key/behaviour says otherwise',
  },
  'github-rest-limit': {
    value: 'N',
    default: '1000',
    describe:
      "GitHub stand-in: REST requests an hour of a repository's workflow tokens (15000 on Enterprise Cloud)",
  },
  'github-graphql-limit': {
    value: 'N',
    default: '1000',
    describe: "GitHub stand-in: GraphQL points an hour of a repository's workflow tokens",
  },
  'github-writes-per-minute': {
    value: 'N',
    default: '80',
    describe: 'GitHub stand-in: writes a minute per repository before its secondary limit',
  },
  'github-writes-per-hour': {
    value: 'N',
    default: '500',
    describe: 'GitHub stand-in: writes an hour per repository before its secondary limit',
  },
  role: {
    value: ROLES.join('|'),
    default: 'developer',
    describe: 'role of the printed token on the project',
  },
  quiet: {
    value: '',
    default: '',
    describe: 'print only the start banner, not a line per request and state change',
    short: 'q',
  },
  help: { value: '', default: '', describe: 'print this help and exit', short: 'h' },
} as const;

/** Rows as aligned columns: every column but the last padded to its widest cell (or `minWidths`). */
function columns(rows: ReadonlyArray<readonly string[]>, minWidths: number[] = []): string {
  const widths = [...minWidths];
  for (const row of rows)
    row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map(
      (row) => '  ' + row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]) : cell)).join('  '),
    )
    .map((line) => line.trimEnd())
    .join('\n');
}

/** Service and control routes line up their paths. */
const METHOD_WIDTH = 'DELETE'.length;

function usage(): string {
  const rows = Object.entries(FLAGS).flatMap(([name, flag]) => {
    const short = 'short' in flag ? `-${flag.short}, ` : '';
    const left = `${short}--${name}${flag.value ? ` ${flag.value}` : ''}`;
    return flag.default
      ? [
          [left, flag.describe],
          ['', `default: ${flag.default}`],
        ]
      : [[left, flag.describe]];
  });
  return `Usage: npm run simulator -- [flags]

A simulator of the service for trying the action locally: it prints a base URL, a token and a project id.

Flags:
${columns(rows)}

Control routes (no auth, loopback only, bodies as Content-Type: application/json), also listed at start:
${columns(CONTROL_ROUTES.map(([method, path, what]) => [method, path, what]))}`;
}

/**
 * `npm run simulator` runs this command under `sh -c`, and npm hands a SIGTERM on to that shell only:
 * the shell ends, and this process would live on without a parent, holding the port. So under npm the
 * simulator also closes once its parent is gone.
 */
function whenParentGone(callback: () => void): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    callback();
  }, 200);
  timer.unref();
}

function nonNegative(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || value.trim() === '')
    throw new Error(`--${name} must be a non-negative number`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: Object.fromEntries(
      Object.entries(FLAGS).map(([name, flag]) => [
        name,
        {
          type: flag.value ? ('string' as const) : ('boolean' as const),
          ...('short' in flag ? { short: flag.short } : {}),
        },
      ]),
    ),
  }) as {
    values: Partial<Record<Exclude<keyof typeof FLAGS, 'help' | 'quiet'>, string>> & {
      help?: boolean;
      quiet?: boolean;
    };
    positionals: string[];
  };
  const bare = bareArgumentsProblem(positionals, Object.keys(FLAGS));
  if (bare) throw new Error(bare);
  if (values.help) {
    console.log(usage());
    return;
  }
  const port = nonNegative('port', values.port, 0);
  const role = (values.role ?? 'developer') as Role;
  if (!ROLES.includes(role)) throw new Error(`--role must be one of: ${ROLES.join(', ')}`);
  const repoPath = values.repo ? resolve(values.repo) : undefined;
  const badRepo = repoPath && repoProblem(repoPath);
  if (badRepo) throw new Error(badRepo);
  const allowedHosts = allowedHostNames(values['allowed-hosts'] ?? '');

  const sim = await startSimulator({
    port,
    host: values.host ?? '127.0.0.1',
    allowedHosts,
    readinessDelayMs: nonNegative('readiness-delay-ms', values['readiness-delay-ms'], 3_000),
    defaultJobDurationMs: nonNegative('job-duration-ms', values['job-duration-ms'], 5_000),
    printLog: !values.quiet,
    github: {
      limits: {
        rest: positive('github-rest-limit', values['github-rest-limit'], 1_000),
        graphql: positive('github-graphql-limit', values['github-graphql-limit'], 1_000),
        writesPerMinute: positive('github-writes-per-minute', values['github-writes-per-minute'], 80),
        writesPerHour: positive('github-writes-per-hour', values['github-writes-per-hour'], 500),
      },
    },
  });
  const account = sim.addAccount({ name: 'sim-account' });
  const project = sim.addProject({
    account,
    name: 'sim-project',
    ...(repoPath ? { repoPath } : { workflows: { 'e2e.yml': SAMPLE_WORKFLOW } }),
  });
  const token = sim.addToken({ account, role, robot: true });
  const url = sim.url;
  const limits = sim.github.settings.limits;

  // Before the banner: whoever reads it may signal at once.
  let stopping = false;
  const shutdown = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${reason}, closing the simulator`);
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT received'));
  process.on('SIGTERM', () => shutdown('SIGTERM received'));
  whenParentGone(() => shutdown('npm run simulator ended'));

  console.log(`Simulator listening on ${url}
${columns([
  [`token (${role}):`, token],
  ['project id:', project.id],
  ['process id:', String(process.pid)],
  ['repository:', repoPath ?? `${SAMPLE_REPOSITORY}; --repo PATH links a git repository`],
  ['overview:', `${url}/ in a browser: the runs, sessions, deliveries, pull requests, each linked`],
])}

Service routes (Authorization: Bearer <token>):
${columns(
  [
    ['POST', `${url}/v2/workflows/dispatch`, '{"appId","gitRef","fileName","inputs"}'],
    ['GET', `${url}/v2/workflows/runs/:id`, ''],
    ['POST', `${url}/v2/device-run-sessions`, '{"appId","platform",...}'],
    ['GET', `${url}/v2/device-run-sessions/:id`, ''],
    ['POST', `${url}/v2/device-run-sessions/:id/stop`, ''],
  ],
  [METHOD_WIDTH],
)}

Device controllers, at the URLs a session's remoteConfig gives, while it is in-progress:
${columns([
  [`${url}/_devices/:id/agent-device`, 'GET /health, POST /rpc (the session token)'],
  [`${url}/_devices/:id/appium`, 'W3C WebDriver: /status, /session, ...'],
  [`${url}/_devices/:id/argent`, 'GET /tools, POST /tools/:name (the session token)'],
  [`${url}/_devices/:id/preview`, 'the browser preview page (iOS)'],
])}

Control routes (no auth, loopback only, bodies as Content-Type: application/json):
${columns(
  CONTROL_ROUTES.map(([method, path, what]) => [method, path && `${url}${path}`, what]),
  [METHOD_WIDTH],
)}

GitHub's side, a stand-in answering as GitHub does for the routes the action uses (statuses, comments,
pull requests, GraphQL, dispatches, refs), with GitHub's limits: ${limits.rest} REST requests and ${limits.graphql} GraphQL
points an hour per repository, ${limits.writesPerMinute} writes a minute and ${limits.writesPerHour} an hour (the log counts each repository's):
  GITHUB_API_URL=${sim.github.url}
  pull request pages at ${sim.github.url}/:owner/:repo/pull/:number (POST /_sim/github/pull-requests opens one)

Environment for the action:
  SVC_BASE_URL=${url} SVC_TOKEN=${token} SVC_APP_ID=${project.id}
${values.quiet ? '' : 'The log follows: a line per request and per state change (--quiet: none).\n'}Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
  console.error(`simulator: ${(error as Error).message}`);
  console.error('Run with --help for the flags.');
  process.exit(1);
});
