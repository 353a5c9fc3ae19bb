/**
 * What a command is: one module (src/commands/<command>.ts) holds its inputs (rows of the input
 * table), its cross-field rules, its outputs (rows of the output table), the subject of its
 * pull-request comment and its run. `defineCommand` keeps the values and the output writer typed
 * from the command's own rows inside that module and hands the registry (index.ts) a command whose
 * types no longer depend on its tables.
 */
import type { ActionIO } from '../runner/io.js';
import { outputWriter, type OutputName, type OutputTable, type OutputWriter } from '../runner/outputs.js';
import type { ServiceClient } from '../service/client.js';
import type { InputNote } from '../inputs/parsers.js';
import type { CommentKind, CommentLeg } from '../github/comment-body.js';
import {
  InputError,
  readTable,
  type ApiSettings,
  type InputSource,
  type InputTable,
  type Values,
} from '../inputs/table.js';

/** What a command runs with. */
export interface RunContext {
  io: ActionIO;
  /** Aborted when the runner cancels the step. */
  signal: AbortSignal;
  /** The job's workspace (GITHUB_WORKSPACE, else the current directory); unknown in some tests. */
  workspace?: string;
  /** The service client for these settings: made once per step, disposed by main. */
  client(api: ApiSettings): ServiceClient;
  /** Every output the command sets is also kept here (main: for the pull-request comment). */
  written?: Record<string, string>;
}

/** What a command's own `run` gets: the context, and the writer of exactly its outputs. */
export interface CommandContext<N extends string> extends RunContext {
  outputs: OutputWriter<N>;
}

export interface CommandDefinition<T extends InputTable, O extends OutputTable> {
  description: string;
  inputs: T;
  /** The outputs: per name its description, when it is set, and its value when the inputs are refused. */
  outputs: O;
  /** Whether the command's action has a post step (post.ts). */
  post?: boolean;
  /**
   * Rules across inputs (and the event, from `source`); they see what could be read, so every
   * problem is listed at once.
   */
  rules?(values: Partial<Values<T>>, source: InputSource): string[];
  /** Advice across valid inputs (an input that has no effect without another), logged before the command runs. */
  advice?(values: Values<T>): InputNote[];
  /**
   * What the pull-request comment is about, for commands with a `comment` input: the key of its
   * sticky comment (`kind` and `subject`) and what its heading names. `source`
   * tells an input the user gave from one a default filled in.
   */
  comment?(values: Values<T>, source: InputSource): CommentKey;
  run(values: Values<T>, context: CommandContext<OutputName<O>>): Promise<void>;
}

/** Which sticky comment a step writes, and what its heading names. */
export interface CommentKey {
  kind: CommentKind;
  subject: string;
  variant?: string;
  leg?: CommentLeg;
  /** Why this step writes no comment whatever its outcome (a dry run tells GitHub nothing), logged instead. */
  withheld?: string;
}

/** A command's inputs read and checked, ready to run. */
export interface Invocation {
  /** The values read, keyed by input name (what `run` receives). */
  values: Readonly<Record<string, unknown>>;
  run(context: RunContext): Promise<void>;
  /** Present when the step asked for a pull-request comment (`comment: true`). */
  comment?: CommentKey & { githubToken?: string };
  /** The service's base URL, for commands that call it. */
  baseUrl?: string;
  /** Advice on valid inputs, to log before the command runs. */
  notes: InputNote[];
}

export interface Command {
  description: string;
  inputs: InputTable;
  outputs: OutputTable;
  post?: boolean;
  /** Reads and validates every input; throws InputError listing every problem. */
  read(source: InputSource): Invocation;
}

export function defineCommand<T extends InputTable, O extends OutputTable>(
  definition: CommandDefinition<T, O>,
): Command {
  const { description, inputs, outputs, post } = definition;
  return {
    description,
    inputs,
    outputs,
    post,
    read(source) {
      const read = readTable(inputs, source);
      const problems = [...read.problems, ...(definition.rules?.(read.values, source) ?? [])];
      if (problems.length > 0) throw new InputError(problems);
      // No problems: every required and defaulted input was read (readTable's contract).
      const values = read.values as Values<T>;
      const shared = values as Partial<Record<string, unknown>>;
      const comment =
        shared.comment === true && definition.comment
          ? {
              ...definition.comment(values, source),
              githubToken: shared['github-token'] as string | undefined,
            }
          : undefined;
      const baseUrl = typeof shared['base-url'] === 'string' ? shared['base-url'] : undefined;
      return {
        values,
        run: (context) =>
          definition.run(values, { ...context, outputs: outputWriter(context.io, outputs, context.written) }),
        comment,
        baseUrl,
        notes: [...read.notes, ...(definition.advice?.(values) ?? [])],
      };
    },
  };
}
