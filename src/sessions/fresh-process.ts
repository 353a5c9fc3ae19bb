/**
 * The post step's hand-over to a fresh Node process started with the main step's start-up settings
 * (runner/startup-env.ts says why), and what this process says of how it ended: never silent, even
 * when Node ended it before its code ran (a start-up setting Node refuses, a `--require` that exits),
 * for then nothing was stopped and this process may not send the token itself.
 */
import type { ActionIO } from '../runner/io.js';
import { rerunWithStartupEnv, type StartupEnv } from '../runner/startup-env.js';
import type { SavedSession } from './state.js';
import { freshProcessDiedMessage } from './report/failures.js';
import { freshProcessNotStartedWarning } from './report/warnings.js';

/**
 * The exit code the step takes from the fresh process (1 when it died before its code ran, said as
 * an error naming every session still running), or undefined when none could be started: this
 * process goes on, and refuses where it must.
 */
export async function handOver(
  io: ActionIO,
  differs: string,
  startup: StartupEnv,
  sessions: readonly SavedSession[],
): Promise<number | undefined> {
  io.info(
    `\`${differs}\` changed after the main step, and nothing is sent with settings the main step did not use: the post step goes on in a new Node process started with the main step's settings.`,
  );
  const fresh = await rerunWithStartupEnv(startup);
  if ('notStarted' in fresh) {
    io.warning(freshProcessNotStartedWarning(fresh.notStarted));
    return undefined;
  }
  if (fresh.ran) return fresh.exitCode;
  const running = sessions.filter((session) => session.ended === undefined);
  io.setFailed(freshProcessDiedMessage(fresh.how, differs, running));
  return 1;
}
