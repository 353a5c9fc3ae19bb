/**
 * What `npm run demo` and `npm run recipe` do with the simulator once they are done: the addresses
 * they printed (runs, sessions, the pull request's page, the overview at `/`) answer only while the
 * simulator runs. In a terminal (standard output is a TTY), or with `--keep`, they stay open until
 * Ctrl-C (SIGINT) or SIGTERM; otherwise (a test, CI, a pipe) the command ends as it always did, and
 * says that the addresses close with it and how to keep them.
 */

export const KEEP_FLAG = '--keep';

export interface KeepChoice {
  /** The command's arguments without `--keep`. */
  args: string[];
  /** Whether the pages stay open once the command is done. */
  keep: boolean;
}

/** `--keep` taken out of `args`; the pages stay open when it was given or `terminal` (stdout is a TTY). */
export function keepChoice(args: readonly string[], terminal: boolean | undefined): KeepChoice {
  const rest = args.filter((arg) => arg !== KEEP_FLAG);
  return { args: rest, keep: terminal === true || rest.length < args.length };
}

/** `npm run <script> -- <args> --keep`, each argument quoted when the shell would split or read it. */
export function keepCommand(script: string, args: readonly string[]): string {
  const quoted = args.map((arg) => (/^[\w./:@=-]+$/.test(arg) ? arg : JSON.stringify(arg)));
  return `npm run ${script} -- ${[...quoted, KEEP_FLAG].join(' ')}`;
}

export interface HoldOptions {
  keep: boolean;
  /** The simulator's address: its `/` is the overview page. */
  simulatorUrl: string;
  /** The command that keeps them open (`keepCommand`). */
  command: string;
  log?: (line: string) => void;
}

/**
 * With `keep`, says where the pages are and resolves on SIGINT or SIGTERM (the caller then closes
 * them); without, says that the addresses close with the command and how to keep them, and resolves.
 */
export async function holdPages({
  keep,
  simulatorUrl,
  command,
  log = (line) => console.log(line),
}: HoldOptions): Promise<void> {
  const overview = `${simulatorUrl}/`;
  if (!keep) {
    log(
      `\nThe addresses above close with this command (its output is not a terminal). To keep them open until Ctrl-C: ${command}`,
    );
    return;
  }
  log(
    `\nThe addresses above stay open until Ctrl-C; the simulator's overview, linking every run, session, delivery and pull request: ${overview}`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const received = (name: NodeJS.Signals) => (): void => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
      resolve(name);
    };
    const onInterrupt = received('SIGINT');
    const onTerminate = received('SIGTERM');
    process.once('SIGINT', onInterrupt);
    process.once('SIGTERM', onTerminate);
  });
  log(`${signal} received: closing the simulator and its addresses.`);
}
