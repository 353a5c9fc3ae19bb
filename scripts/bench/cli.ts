/** 8. The alternative: installing and starting the service's CLI (opt-in: downloads from the registry). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mb, ms, row } from './table.js';

const WITH_CLI = process.argv.includes('--with-cli');
const CLI_PACKAGE = 'eas-cli';

function timed(
  command: string,
  args: string[],
  cwd: string,
): { ms: number; ok: boolean; out: string; err: string } {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const lastLine = (text: string | null): string => (text ?? '').trim().split('\n').at(-1) ?? '';
  return {
    ms: performance.now() - started,
    ok: result.status === 0,
    out: lastLine(result.stdout),
    err: lastLine(result.stderr),
  };
}

function duBytes(dir: string): number {
  const result = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(result.stdout.split(/\s/)[0]);
}

export function cli(ourStartup: number | undefined): void {
  if (!WITH_CLI) {
    row(
      `the alternative: npm install ${CLI_PACKAGE} + --version`,
      'not measured (opt in: npm run bench -- --with-cli)',
      'ratio to our start-up',
      undefined,
    );
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-cli-'));
  try {
    const view = timed('npm', ['view', CLI_PACKAGE, 'version'], dir);
    if (!view.ok) {
      row(
        `the alternative: npm install ${CLI_PACKAGE}`,
        `unavailable (npm view failed: ${view.err})`,
        'ratio',
        undefined,
      );
      return;
    }
    writeFileSync(join(dir, 'package.json'), '{ "name": "cli-bench", "private": true }\n');
    const install = timed(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', CLI_PACKAGE],
      dir,
    );
    if (!install.ok) {
      row(
        `the alternative: npm install ${CLI_PACKAGE}@${view.out}`,
        `install failed: ${install.err}`,
        'ratio',
        undefined,
      );
      return;
    }
    const version = timed(join(dir, 'node_modules', '.bin', 'eas'), ['--version'], dir);
    const size = duBytes(join(dir, 'node_modules'));
    const packages = readdirSync(join(dir, 'node_modules')).length;
    const total = install.ms + version.ms;
    row(
      `the alternative: npm install ${CLI_PACKAGE}@${view.out} (${mb(size)}, ${packages} top-level packages) + eas --version`,
      `${(install.ms / 1000).toFixed(1)} s + ${(version.ms / 1000).toFixed(2)} s${ourStartup ? ` = ${Math.round(total / ourStartup)}× our start-up (${ms(ourStartup)})` : ''}`,
      'ratio to our start-up (reported)',
      undefined,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
