/**
 * Checks shared by the security tests: where a secret may appear in what a step wrote (whether any
 * line of its log could act as a workflow command is testkit/runner/injected-commands.ts's). Both read
 * stdout with the runner-like parser (testkit/runner/commands.ts): lines end at CR too, `##[` counts
 * anywhere in a line, `::` after .NET white space, and a smuggled `stop-commands` makes the runner
 * ignore the action's own masks.
 */
import { readRunnerOutput } from '../../../testkit/runner/commands.js';
import { renderLog, type ActionRun } from '../../../testkit/runner/step.js';

/** Where `secret` appears in `run`, against the rules; an empty list means none was broken. */
export function secretFindings(run: ActionRun, secret: string, name: string): string[] {
  if (!secret) return [`${name}: empty secret given to the audit`];
  const findings: string[] = [];
  const reading = readRunnerOutput(run.stdout);
  // The line where the runner really registered it (not merely printed an add-mask it then ignored).
  const masked = reading.lines.find(({ command }) => command?.name === 'add-mask' && command.data === secret);
  for (const { text, command } of reading.lines) {
    if (!text.includes(secret) || command === masked?.command) continue;
    if (!masked || (command?.index ?? Infinity) < masked.command!.index)
      findings.push(`${name} in stdout before the runner masked it: ${text}`);
    // The action redacts everything it prints itself: a raw secret in a log line is a leak even after masking.
    else findings.push(`${name} printed raw in stdout: ${text}`);
  }
  for (const { text, command } of reading.lines)
    if (command && ['error', 'warning', 'notice'].includes(command.name) && command.data.includes(secret))
      findings.push(`${name} in an annotation: ${text}`);
  if (renderLog(run.stdout, true).includes(secret))
    findings.push(`${name} in clear in the log the runner shows`);
  if (run.stderr.includes(secret)) findings.push(`${name} in stderr`);
  if (run.summary.includes(secret)) findings.push(`${name} in the job summary`);
  if (run.files.state.includes(secret)) findings.push(`${name} in the state file`);
  for (const file of ['output', 'env'] as const) {
    if (run.files[file].includes(secret) && !masked)
      findings.push(`${name} in the ${file} file without an add-mask the runner obeyed`);
  }
  return findings;
}

/** A secret that must never reach an output or env file at all (access token, webhook secret). */
export function neverInFiles(run: ActionRun, secret: string, name: string): string[] {
  return (['output', 'env'] as const)
    .filter((file) => run.files[file].includes(secret))
    .map((file) => `${name} in the ${file} file`);
}

/**
 * The lines the runner reads as error annotations, as the step printed them (escaped, before masking):
 * the secret audit looks for a secret in every form a line carries. What an error says is `run.errors`.
 */
export function errorLines(run: ActionRun): string[] {
  return readRunnerOutput(run.stdout)
    .lines.filter(({ command }) => command?.name === 'error')
    .map(({ text }) => text);
}

/** A build webhook payload as the service sends it (service-interface.md), with `overrides`. */
export function buildPayload(overrides: Record<string, unknown>): Record<string, unknown> {
  const at = '2026-01-31T12:34:56.789Z';
  return {
    id: '5e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b',
    accountName: 'acme',
    projectName: 'app',
    buildDetailsPageUrl: 'https://svc.example/accounts/acme/projects/app/builds/5e1f2a3b',
    appId: '0f9a1d4e-2b3c-4d5e-8f60-718293a4b5c6',
    initiatingUserId: '11111111-2222-4333-8444-555555555555',
    cancelingUserId: null,
    platform: 'ios',
    status: 'errored',
    artifacts: { logsS3KeyPrefix: 'production/x' },
    metadata: { appName: 'app' },
    metrics: {},
    createdAt: at,
    enqueuedAt: at,
    provisioningStartedAt: at,
    workerStartedAt: at,
    completedAt: at,
    updatedAt: at,
    expirationDate: at,
    priority: 'normal',
    resourceClass: 'medium',
    actualResourceClass: 'ios-m-medium',
    maxRetryTimeMinutes: 1440,
    ...overrides,
  };
}
