/**
 * Cancellation, written once for the main and the post step. The runner cancels a step with SIGINT,
 * then SIGTERM (timings.ts); with no listener, Node ends the process at the first one, at once
 * and silently. Loading the bundle takes tens of milliseconds, so the generated entrypoints
 * (scripts/build/main.mjs) listen before they load it, keep what comes meanwhile, and then hand it
 * and every later signal to `signalsBeforeLoad`. Their listener stays for the life of the process:
 * Node drops a signal whose listener was removed before it ran, so one arriving at the handover is
 * never lost. A step's handler (`onCancel`) receives each signal with the time it came, those that
 * came before it existed first: the main step cancels, the post step still stops its sessions in
 * what is left of the grace. A signal that finds no handler (after a step's part that listens) is
 * kept, never the end of the process: the runner's kill is what ends a step that does not finish.
 */

/** A cancelling signal and when it came (ms since the epoch). */
interface ReceivedSignal {
  signal: NodeJS.Signals;
  at: number;
}

type Handler = (received: ReceivedSignal) => void;

const CANCELLING: readonly string[] = ['SIGINT', 'SIGTERM'];
/** Signals that came when no handler was listening, in order. */
let waiting: ReceivedSignal[] = [];
let current: Handler | undefined;
/** Whether something (the entrypoint, or onCancel outside one) listens to the process's signals. */
let listening = false;

function receive(received: ReceivedSignal): void {
  if (!CANCELLING.includes(received.signal)) return;
  if (current) current(received);
  else waiting.push(received);
}

/**
 * Called by the generated entrypoint once the bundle is loaded, with the signals it kept meanwhile;
 * returns where its listener sends every later one.
 */
export function signalsBeforeLoad(early: ReceivedSignal[]): (signal: NodeJS.Signals, at: number) => void {
  listening = true;
  for (const received of early) receive(received);
  return (signal, at) => receive({ signal, at });
}

/**
 * Calls `handler` for every SIGINT and SIGTERM until the returned function is called: at once for
 * each that came before (while the bundle loaded), then as they come.
 */
export function onCancel(handler: Handler): () => void {
  // Run without the generated entrypoint (tests, local-action): listen here instead.
  if (!listening) {
    listening = true;
    for (const name of CANCELLING)
      process.on(name, (signal: NodeJS.Signals) => receive({ signal, at: Date.now() }));
  }
  current = handler;
  const before = waiting;
  waiting = [];
  for (const received of before) handler(received);
  return () => {
    if (current === handler) current = undefined;
  };
}
