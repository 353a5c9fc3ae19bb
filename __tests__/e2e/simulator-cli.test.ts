/**
 * The simulator's command line (`npm run simulator`), run as a process: its options, what it prints,
 * and how it ends on SIGINT and SIGTERM. In the e2e tier, the tier of what needs a process of its own.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';

// The CLI's TypeScript source, through tsx's loader in this one process (`npm run simulator` uses
// tsx's command, which starts a second one), so the signals the tests send reach the CLI itself.
const CLI_SOURCE = 'simulator/cli.ts';
const CLI = ['--import', 'tsx', CLI_SOURCE];

let child: ChildProcessWithoutNullStreams | undefined;
/** Simulator processes a test started other than `child` (under npm), stopped if still running. */
const strays: number[] = [];

// SIGTERM first; SIGKILL only if it hangs.
afterEach(async () => {
  for (const pid of strays.splice(0)) {
    // Only if that process id is still this simulator (gone, as it should be, or reused: left alone).
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (command.includes(CLI_SOURCE)) process.kill(pid, 'SIGKILL');
  }
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
});

/** Resolves with the output up to the end of the start banner. */
function banner(started: ChildProcessWithoutNullStreams): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    started.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Press Ctrl-C')) resolve(out);
    });
    started.stderr.on('data', (c: Buffer) => (out += c.toString()));
    started.on('exit', (code) => reject(new Error(`cli exited early (${code}): ${out}`)));
  });
}

function startCli(args: string[], env: Record<string, string> = {}): Promise<string> {
  child = spawn(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env } });
  return banner(child);
}

const field = (out: string, pattern: RegExp): string => {
  const match = pattern.exec(out);
  if (!match) throw new Error(`${pattern} not in the banner:\n${out}`);
  return match[1];
};

describe('simulator CLI', () => {
  it('starts with a repository in memory, serves the API and control routes, and exits cleanly on SIGTERM', async () => {
    const out = await startCli(['--readiness-delay-ms', '10', '--job-duration-ms', '10']);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
    const token = /token \(developer\):\s+(\S+)/.exec(out)![1];
    const projectId = /project id:\s+(\S+)/.exec(out)![1];
    expect(out).toContain('/_sim/state');

    expect(out).toMatch(/repository:\s+in memory, with \.eas\/workflows\/e2e\.yml/);
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
    expect(state.data.projects[0]).toMatchObject({
      id: projectId,
      repository: { kind: 'memory', tags: { v1: expect.any(String) }, workflowFiles: ['e2e.yml'] },
    });

    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('rejects bad arguments with usage and exit code 1', async () => {
    await expect(startCli(['--role', 'superuser'])).rejects.toThrow(
      /exited early \(1\).*--role must be one of/s,
    );
  });

  describe('started wrong, it refuses to start and says what to write', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'svc-sim-cli-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it.each([
      [
        '--repo of a path that does not exist',
        ['--repo', join(scratch, 'no-such-clone')],
        {},
        `--repo ${join(scratch, 'no-such-clone')} does not exist: give the folder of a git clone, or leave --repo out for a repository in memory`,
      ],
      [
        '--repo of a folder that is not a git repository',
        ['--repo', scratch],
        {},
        `--repo ${scratch} is not a git repository: give the folder of a git clone (git init and a commit make one)`,
      ],
      [
        '--allowed-hosts of something that is no host name',
        ['--allowed-hosts', 'host.docker.internal,not a host'],
        {},
        '--allowed-hosts takes host names, comma-separated, such as --allowed-hosts host.docker.internal,sim.lan; "not a host" is not one',
      ],
      [
        'a bare argument (npm run simulator --port 8794, which npm passes as 8794)',
        ['8794'],
        { npm_config_port: 'true' },
        '"8794" is no flag\'s value: npm kept --port for itself, as it keeps every flag before `--`. Write: npm run simulator -- --port 8794',
      ],
    ])('%s', async (_what, args, env, said) => {
      const failed = await startCli(args, env).then(
        (out) => new Error(`it started:\n${out}`),
        (error: Error) => error,
      );
      expect(failed.message).toBe(
        `cli exited early (1): simulator: ${said}\nRun with --help for the flags.\n`,
      );
    });
  });

  it('--allowed-hosts given a URL takes its host', async () => {
    const out = await startCli(['--allowed-hosts', 'http://host.docker.internal:8787/']);
    const url = new URL(field(out, /listening on (http:\/\/\S+)/));
    const status = await new Promise<number>((resolve, reject) =>
      get(
        {
          host: url.hostname,
          port: url.port,
          path: '/_sim/state',
          headers: { host: 'host.docker.internal:8787' },
          agent: false,
        },
        (res) => resolve(res.resume().statusCode ?? 0),
      ).on('error', reject),
    );
    expect(status).toBe(200);
  });

  it('--help lists every flag with a description and its default, and every control route', () => {
    const help = execFileSync(process.execPath, [...CLI, '--help'], { encoding: 'utf8' });
    const flags = [
      ['--repo PATH', 'a repository in memory, with .eas/workflows/e2e.yml'],
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

  it('the banner gives every variable the action reads: base URL, token and project id', async () => {
    const out = await startCli([]);
    const url = field(out, /listening on (http:\/\/\S+)/);
    const token = field(out, /token \(developer\):\s+(\S+)/);
    const projectId = field(out, /project id:\s+(\S+)/);
    const env = field(out, /Environment for the action:\n\s+(.+)\n/);
    expect(env.split(' ')).toEqual([`SVC_BASE_URL=${url}`, `SVC_TOKEN=${token}`, `SVC_APP_ID=${projectId}`]);
  });

  it('npm run simulator stopped with SIGTERM frees its port: a simulator starts on it again', async () => {
    // npm hands the signal to the shell that runs the script, not to the simulator under it.
    const npm = spawn('npm', ['run', '--silent', 'simulator', '--', '--port', '0'], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const out = await banner(npm);
    const url = field(out, /listening on (http:\/\/\S+)/);
    strays.push(Number(field(out, /process id:\s+(\d+)/)));
    // 'close' comes once every process holding npm's output is gone, the simulator included.
    const closed = new Promise((resolve) => npm.once('close', resolve));
    npm.kill('SIGTERM');
    await closed;

    const again = await startCli(['--port', new URL(url).port]);
    expect(field(again, /listening on (http:\/\/\S+)/)).toBe(url);
  });

  it('prints a line per request and per state change after the banner, none with --quiet', async () => {
    const out = await startCli(['--job-duration-ms', '10']);
    const url = field(out, /listening on (http:\/\/\S+)/);
    let log = '';
    child!.stdout.on('data', (c: Buffer) => (log += c.toString()));
    const reply = (await (await fetch(`${url}/_sim/runs`, { method: 'POST' })).json()) as {
      data: { id: string };
    };
    const short = `${reply.data.id.slice(0, 8)}…`;
    const lines = async (): Promise<string[]> => {
      for (;;) {
        if (log.includes(`run ${short} in-progress → success`)) return log.split('\n');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    expect(await lines()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} run ${short} created: "End-to-end tests"`),
        ),
        expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} POST \/_sim\/runs 200 \d+ ms$/),
        expect.stringMatching(new RegExp(`job ${short}/build_android in-progress → success$`)),
      ]),
    );

    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    await exited;
    const quiet = await startCli(['--quiet', '--job-duration-ms', '10']);
    expect(quiet).not.toContain('The log follows');
    let after = '';
    child!.stdout.on('data', (c: Buffer) => (after += c.toString()));
    const quietUrl = field(quiet, /listening on (http:\/\/\S+)/);
    await fetch(`${quietUrl}/_sim/runs`, { method: 'POST' });
    await fetch(`${quietUrl}/_sim/state`);
    // Ended by the signal, after the requests were answered: everything it printed is in `after`.
    const closed = new Promise((resolve) => child!.once('close', resolve));
    child!.kill('SIGTERM');
    await closed;
    expect(after.trim()).toBe('SIGTERM received, closing the simulator');
  });

  it('--allowed-hosts: requests naming one of them in Host are answered, others refused', async () => {
    const out = await startCli(['--allowed-hosts', 'host.docker.internal, sim.lan']);
    const url = new URL(field(out, /listening on (http:\/\/\S+)/));
    const status = (host: string) =>
      new Promise<number>((resolve, reject) =>
        get(
          { host: url.hostname, port: url.port, path: '/_sim/state', headers: { host }, agent: false },
          (res) => resolve(res.resume().statusCode ?? 0),
        ).on('error', reject),
      );
    expect(await status('host.docker.internal:8787')).toBe(200);
    expect(await status(`sim.lan:${url.port}`)).toBe(200);
    expect(await status(`elsewhere.example:${url.port}`)).toBe(421);
  });
});
