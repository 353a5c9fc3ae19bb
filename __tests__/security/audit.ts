/**
 * Checks shared by the security tests: where a secret may appear in what a step wrote, and whether
 * any line of its log could act as a workflow command.
 */
import type { ActionRun } from '../helpers/run-action.js';

/** Workflow commands the action itself prints (through @actions/core). */
const OWN_COMMAND = /^::(add-mask|error|warning|notice|debug|group|endgroup)( [^:]*)?::/;

/** Where `secret` appears in `run`, against the rules; an empty list means none was broken. */
export function secretFindings(run: ActionRun, secret: string, name: string): string[] {
  if (!secret) return [`${name}: empty secret given to the audit`];
  const findings: string[] = [];
  const lines = run.stdout.split('\n');
  const maskLine = lines.findIndex((line) => line === `::add-mask::${secret}`);
  lines.forEach((line, index) => {
    if (!line.includes(secret) || index === maskLine) return;
    if (maskLine < 0 || index < maskLine)
      findings.push(`${name} in stdout before its ::add-mask:: line: ${line}`);
    // The action redacts everything it prints itself: a raw secret in a log line is a leak even after masking.
    else findings.push(`${name} printed raw in stdout: ${line}`);
  });
  for (const line of lines)
    if (/^::(error|warning|notice)/.test(line) && line.includes(secret))
      findings.push(`${name} in an annotation: ${line}`);
  if (run.stderr.includes(secret)) findings.push(`${name} in stderr`);
  if (run.summary.includes(secret)) findings.push(`${name} in the job summary`);
  if (run.files.state.includes(secret)) findings.push(`${name} in the state file`);
  for (const file of ['output', 'env'] as const) {
    if (run.files[file].includes(secret) && maskLine < 0)
      findings.push(`${name} in the ${file} file without an ::add-mask:: line`);
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
 * Lines of stdout the runner would read as a workflow command that the action did not mean to
 * issue: anything starting (after white space) with `::` or `##[` that is not one of the action's
 * own commands, or an own command whose text was injected (carries `marker` right after `::…::`).
 */
export function injectedCommands(stdout: string, marker: string): string[] {
  return stdout.split(/\r\n|\r|\n/).filter((line) => {
    const text = line.trimStart();
    if (text.startsWith('##[')) return true;
    if (!text.startsWith('::')) return false;
    if (!OWN_COMMAND.test(text) || text !== line) return true;
    if (text.startsWith('::add-mask::') && text.includes(marker)) return true;
    return new RegExp(`^::[^:]*::\\s*${marker}`).test(text);
  });
}

export function errorLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.startsWith('::error'));
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
