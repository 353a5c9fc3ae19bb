/**
 * The variables Node (or the OpenSSL inside it) reads once, when the process starts, that change
 * where the step's requests go or whom they trust. A post step starts with the job's environment,
 * which any later step can extend through `$GITHUB_ENV`, and nothing the post step does afterwards
 * undoes what Node made of them: so the main step saves them (sessions/state.ts), and a post step
 * that finds one changed sends no token from its own process. It runs its work again in a fresh
 * Node process started with the main step's values instead (`rerunWithStartupEnv`): benign steps
 * write exactly these variables (`OPENSSL_CONF=/dev/null`, a test CA), and refusing to stop would
 * leave the paid device running until its maximum duration.
 *
 * From Node 24's documentation (doc/api/cli.md, "Environment variables"): `NODE_USE_ENV_PROXY` (a
 * global dispatcher and agents bound to the proxy variables as they were at start-up),
 * `NODE_USE_SYSTEM_CA` and `NODE_EXTRA_CA_CERTS` (the trusted certificates), `SSL_CERT_FILE` and
 * `SSL_CERT_DIR` (OpenSSL's trusted certificates, with the system store), `OPENSSL_CONF` (OpenSSL's
 * configuration: protocols, ciphers, providers), and `NODE_OPTIONS`, which can carry the same
 * switches as flags (`--use-env-proxy`, `--use-system-ca`, `--use-openssl-ca`, `--openssl-config`,
 * `--tls-keylog`…); the runner refuses `NODE_OPTIONS` in `$GITHUB_ENV`, but a self-hosted runner's
 * own environment may not.
 */
import { spawn } from 'node:child_process';
import { onCancel } from './signals.js';

export const STARTUP_ENV = [
  'NODE_USE_ENV_PROXY',
  'NODE_USE_SYSTEM_CA',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'OPENSSL_CONF',
  'NODE_OPTIONS',
] as const;

/** The start-up variables as the main step had them; undefined where it had none. */
export type StartupEnv = Partial<Record<(typeof STARTUP_ENV)[number], string>>;

/**
 * Marks the fresh process, which never starts another (against recursion). A later step that sets it
 * gains nothing: a process that finds it set and its start-up variables changed sends no token.
 */
const FRESH_PROCESS = 'SVC_POST_STEP_FRESH_PROCESS';

/** Whether this process is the fresh one `rerunWithStartupEnv` started. */
export function inFreshProcess(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[FRESH_PROCESS] === '1';
}

/**
 * In the fresh process: tells the process that started it that its signal listeners are in place (the
 * generated entrypoint's, from its first line), so a cancellation can be passed on without ending it.
 */
export function freshProcessListening(): void {
  if (inFreshProcess() && process.send) process.send('listening', () => process.disconnect());
}

/**
 * How the fresh process ended: its exit code, how in words, and whether its code ran (it said it
 * listens). A process Node ended before that (a start-up setting it refuses, a `--require` that
 * exits) did none of the post step's work.
 */
export interface FreshProcessEnd {
  exitCode: number;
  how: string;
  ran: boolean;
}

/**
 * Runs this process's entrypoint again in a new Node process (`spawn(process.execPath, [entry])`) whose
 * environment is this one's with every start-up variable set to the main step's value, or removed
 * where the main step had none. It shares this process's output, so the runner reads its log, outputs
 * and summary as this step's. A SIGINT or SIGTERM is passed on once the new process listens for it.
 * Resolves with how it ended, or with the reason it could not be started (E2BIG: an environment over
 * the kernel's limit), in which case nothing ran.
 */
export function rerunWithStartupEnv(main: StartupEnv): Promise<FreshProcessEnd | { notStarted: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, [FRESH_PROCESS]: '1' };
  for (const name of STARTUP_ENV) {
    if (main[name] === undefined) delete env[name];
    else env[name] = main[name];
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [process.argv[1]], {
      env,
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    let listening = false;
    const held: NodeJS.Signals[] = [];
    const stopListening = onCancel(({ signal }) => {
      if (listening) child.kill(signal);
      else held.push(signal);
    });
    child.on('message', (message) => {
      if (message !== 'listening') return;
      listening = true;
      for (const signal of held.splice(0)) child.kill(signal);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      stopListening();
      resolve({ notStarted: error.code ?? error.message });
    });
    child.on('exit', (code, signal) => {
      stopListening();
      // Ended by a signal (the runner's kill): a failure, as it would have been for this process.
      const how = code === null ? `ended by ${signal}` : `exit code ${code}`;
      resolve({ exitCode: code ?? 1, how, ran: listening });
    });
  });
}
