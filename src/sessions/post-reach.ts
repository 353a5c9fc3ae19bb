/**
 * How the post step reaches the service, and whether it may: the base URL its main step saved, read
 * by the rule the main step read it with, and the token as the main step reads it. When the saved
 * state is malformed, a start-up setting changed after the main step, or the token cannot be read,
 * nothing is sent, and the post step says why (report/failures.ts `postUnusableMessage`).
 */
import { isUuid } from '../service/contract.js';
import { readTable, token, type InputSource } from '../inputs/table.js';
import { InputProblem, baseUrl as parseBaseUrl } from '../inputs/parsers.js';
import type { PostState, SavedSession } from './state.js';
import type { PostUnusable } from './report/failures.js';

/** Why the saved state or this step's settings cannot be used to reach the service, or undefined. */
export function unusableState(
  state: PostState,
  open: SavedSession[],
  source: InputSource,
  differs: string | undefined,
): PostUnusable | undefined {
  if (!open.every((session) => isUuid(session.id)) || savedBaseUrl(state.baseUrl) === undefined)
    return { kind: 'malformed-state' };
  if (differs) return { kind: 'setting-changed', setting: differs };
  if (readToken(source) === undefined)
    return { kind: 'token', problem: readTable({ token }, source).problems.join(' ') };
  return undefined;
}

/** The saved base URL, read by the rule the main step read it with; undefined when it breaks it. */
export function savedBaseUrl(saved: string): string | undefined {
  try {
    return parseBaseUrl(saved, 'base-url');
  } catch (error) {
    if (error instanceof InputProblem) return undefined;
    throw error;
  }
}

/** The token as the main step reads it (`token`, else SVC_TOKEN), or undefined when it is not usable. */
export function readToken(source: InputSource): string | undefined {
  const read = readTable({ token }, source);
  return read.problems.length === 0 ? read.values.token : undefined;
}
