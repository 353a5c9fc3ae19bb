/**
 * A step's outputs, typed like its inputs. Each command declares its outputs in a table (its
 * `outputs`, in src/commands/<command>.ts, or rows it shares: runs/run-outputs.ts, sessions/connection.ts):
 * per output its description, when it is set, and the value it takes when the inputs are refused.
 * The command and the domain code it calls write them only through an OutputWriter typed on the
 * names each may write, so an output a command does not declare is a type error, and this is the
 * one module that calls ActionIO's setOutput (__tests__/runner/outputs.test.ts holds it to that).
 */
import type { ActionIO } from './io.js';

/**
 * When an output is set: the moment of the step from which on it holds a value. The words are
 * shown to users (action.yml, the READMEs' outputs tables), as "Set <words>.", and the test over
 * the registry (__tests__/commands/outputs.test.ts) runs each command to these moments and checks
 * that every output declared for one is set there.
 */
export const MOMENTS = {
  always: 'on every path, even when the inputs are refused',
  started: 'as the step starts, once its inputs are valid',
  dispatched: 'once the run is dispatched',
  'run-read': 'once the run is read',
  created: 'once the session is created',
  ready: 'once the session is ready',
  stopped: 'once the service confirms the stop',
  verified: 'once the delivery is verified and read',
  synced: 'once the statuses are synced',
} as const;

export type Moment = keyof typeof MOMENTS;

/** One output of a command's table. */
export type OutputSpec = {
  /** One sentence or two for action.yml and the README: what the value is. */
  description: string;
} & (
  | {
      when: 'always';
      /** What it is set to when the step fails before the command runs (its inputs are refused). */
      onInvalidInputs: string;
    }
  | { when: Exclude<Moment, 'always'> }
);

export type OutputTable = Record<string, OutputSpec>;

/** The names of a table's outputs. */
export type OutputName<O extends OutputTable> = keyof O & string;

/**
 * Writes the outputs named `N`, and only those. `in`: a writer of more names stands in for one of
 * fewer (a command's whole table for the part a domain function writes), never the other way.
 */
export interface OutputWriter<in N extends string> {
  readonly set: (name: N, value: string) => void;
}

/**
 * The writer of a table's outputs, on `io`. Every value written is also kept in `written` when
 * given: main keeps them for the pull-request comment.
 */
export function outputWriter<O extends OutputTable>(
  io: Pick<ActionIO, 'setOutput'>,
  // The table only types the writer: what a name may be is checked when the code is compiled.
  _table: O,
  written?: Record<string, string>,
): OutputWriter<OutputName<O>> {
  return {
    set: (name, value) => {
      if (written) written[name] = value;
      io.setOutput(name, value);
    },
  };
}

/** The outputs set on every path take their value for refused inputs (main, before the command runs). */
export function writeRefusedInputs(io: Pick<ActionIO, 'setOutput'>, table: OutputTable): void {
  for (const [name, spec] of Object.entries(table))
    if (spec.when === 'always') io.setOutput(name, spec.onInvalidInputs);
}

/** "Set once the run is dispatched.": when an output is set, as users read it. */
export function whenSentence(moment: Moment): string {
  return `Set ${MOMENTS[moment]}.`;
}
