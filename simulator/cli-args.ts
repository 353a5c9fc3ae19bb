/**
 * The simulator command's checks of what it was given, before anything starts (cli.ts calls them):
 * each mistake a user makes starting it is answered with what to write instead, not with a
 * simulator that starts and then fails every dispatch.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';

/**
 * Arguments that are no flag's value. `npm run simulator --port 8794` (without `--`) keeps
 * `--port` for npm, which sets npm_config_port, and passes `8794` alone: the flag is named from
 * that variable when npm set one.
 */
export function bareArgumentsProblem(
  positionals: readonly string[],
  flags: readonly string[],
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (positionals.length === 0) return undefined;
  const kept = flags.filter((flag) => env[`npm_config_${flag.replace(/-/g, '_')}`] !== undefined);
  const given = positionals.map((value) => JSON.stringify(value)).join(', ');
  if (kept.length === 0)
    return `${given} is no flag's value: give each value after its flag's name, such as --port 8794 (npm run simulator -- --port 8794)`;
  // npm does not say in which order it took its flags: only one of each pairs them for certain.
  const intended =
    kept.length === 1 && positionals.length === 1
      ? `--${kept[0]} ${positionals[0]}`
      : kept.map((flag) => `--${flag} …`).join(' ');
  return (
    `${given} is no flag's value: npm kept ${kept.map((flag) => `--${flag}`).join(', ')} for itself, ` +
    `as it keeps every flag before \`--\`. Write: npm run simulator -- ${intended}`
  );
}

/** What is wrong with --repo PATH (already resolved), or undefined when it is a git repository. */
export function repoProblem(path: string): string | undefined {
  let folder: boolean;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    return `--repo ${path} does not exist: give the folder of a git clone, or leave --repo out for a repository in memory`;
  }
  if (!folder) return `--repo ${path} is a file, not a folder: give the folder of a git clone`;
  try {
    execFileSync('git', ['-C', path, 'rev-parse', '--git-dir'], { stdio: 'pipe' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return '--repo needs git, which is not on PATH: install git, or leave --repo out for a repository in memory';
    return `--repo ${path} is not a git repository: give the folder of a git clone (git init and a commit make one)`;
  }
  return undefined;
}

/** A host name or an IPv4 address: what a client's Host header names. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

/**
 * The names of --allowed-hosts: each a host name; a URL (`http://host.docker.internal:8787`) or a
 * name with a port gives its host. Throws, with the form to use, on anything else.
 */
export function allowedHostNames(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? urlHost(entry) : entry.replace(/:\d+$/, '');
      if (!HOST_NAME.test(host))
        throw new Error(
          `--allowed-hosts takes host names, comma-separated, such as --allowed-hosts host.docker.internal,sim.lan; ${JSON.stringify(entry)} is not one`,
        );
      return host.toLowerCase();
    });
}

/** A URL's host name; '' when it does not parse. */
function urlHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
