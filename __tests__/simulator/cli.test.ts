import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from '@jest/globals';

// The CLI's TypeScript source, through tsx's loader in this one process (`npm run simulator` uses
// tsx's command, which starts a second one), so the signals the tests send reach the CLI itself.
const CLI = ['--import', 'tsx', 'simulator/cli.ts'];

let child: ChildProcessWithoutNullStreams | undefined;

// SIGTERM first: the CLI then removes the temporary repository it made; SIGKILL only if it hangs.
afterEach(async () => {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
});

function startCli(args: string[]): Promise<string> {
  child = spawn(process.execPath, [...CLI, ...args]);
  let out = '';
  return new Promise((resolve, reject) => {
    child!.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Press Ctrl-C')) resolve(out);
    });
    child!.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child!.on('exit', (code) => reject(new Error(`cli exited early (${code}): ${out}`)));
  });
}

describe('simulator CLI', () => {
  it('starts with a temporary repo, serves the API and control routes, and exits cleanly on SIGTERM', async () => {
    const out = await startCli(['--readiness-delay-ms', '10', '--job-duration-ms', '10']);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
    const token = /token \(developer\):\s+(\S+)/.exec(out)![1];
    const projectId = /project id:\s+(\S+)/.exec(out)![1];
    expect(out).toContain('/_sim/state');

    const dispatch = await fetch(`${url}/v2/workflows/dispatch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        appId: projectId,
        gitRef: 'v1',
        fileName: 'e2e.yml',
        inputs: { profile: 'production' },
      }),
    });
    expect(dispatch.status).toBe(200);
    const state = (await (await fetch(`${url}/_sim/state`)).json()) as {
      data: { runs: unknown[]; projects: Array<{ id: string }> };
    };
    expect(state.data.runs).toHaveLength(1);
    expect(state.data.projects[0].id).toBe(projectId);

    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('rejects bad arguments with usage and exit code 1', async () => {
    await expect(startCli(['--role', 'superuser'])).rejects.toThrow(
      /exited early \(1\).*--role must be one of/s,
    );
  });

  it('--help lists every flag with a description and its default, and every control route', () => {
    const help = execFileSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    const flags = [
      ['--repo PATH', 'a temporary repository'],
      ['--port N', '0 (any free port)'],
      ['--host HOST', '127.0.0.1'],
      ['--readiness-delay-ms N', '3000'],
      ['--job-duration-ms N', '5000'],
      ['--role viewer|developer|admin|owner', 'developer'],
    ];
    const lines = help.split('\n');
    for (const [flag, fallback] of flags) {
      const at = lines.findIndex((line) => line.trimStart().startsWith(flag));
      expect(lines[at]).toMatch(new RegExp(`^  ${flag.replace(/[|]/g, '\\|')}\\s{2,}\\w`));
      expect(lines[at + 1]).toMatch(new RegExp(`^\\s+default: ${fallback.replace(/[()]/g, '\\$&')}`));
    }
    expect(help).toMatch(/-h, --help\s+print this help/);
    // Descriptions start in one column.
    const flagLines = lines.filter((line) => /^ {2}(-h, )?--/.test(line));
    const descriptionColumn = (line: string): number => {
      const gap = /\S\s{2,}(?=\S)/.exec(line)!;
      return gap.index + gap[0].length;
    };
    expect(new Set(flagLines.map(descriptionColumn)).size).toBe(1);
    for (const route of [
      'POST    /_sim/reset',
      'POST    /_sim/runs ',
      'DELETE  /_sim/jobs/:key/behaviour',
      'DELETE  /_sim/session-behaviour',
      'POST    /_sim/sessions/:id/ready',
    ])
      expect(help).toContain(route);
  });

  it('the start banner lines up its columns', async () => {
    const out = await startCli(['--role', 'admin']);
    const lines = out.split('\n');
    const valueColumn = (prefix: string): number => {
      const line = lines.find((l) => l.trimStart().startsWith(prefix))!;
      return line.length - line.slice(line.indexOf(prefix) + prefix.length).trimStart().length;
    };
    expect(valueColumn('project id:')).toBe(valueColumn('token (admin):'));
    expect(valueColumn('repository:')).toBe(valueColumn('token (admin):'));
    const routes = lines.filter((l) => /^ {2}(GET|POST|DELETE) /.test(l));
    expect(routes.length).toBeGreaterThan(20);
    // Service and control routes start their paths in one column.
    expect(new Set(routes.map((l) => l.indexOf('http://'))).size).toBe(1);
  });
});
