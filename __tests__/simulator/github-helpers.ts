/**
 * GitHub's stand-in alone, in process, on a clock the test moves: what the github-*.test.ts files
 * ask it, through `answer()` (the function the simulator and `start()` serve).
 */
import { GitHubStandIn, type GitHubWorldSettings } from '../../simulator/index.js';

export const API = 'https://api.github.test';
export const SHA = 'a'.repeat(40);

export interface Answer {
  status: number;
  headers: Record<string, string>;
  json: unknown;
  text: string;
}

export interface StandInTest {
  github: GitHubStandIn;
  /** The stand-in's clock (epoch ms): `time.now`, moved by `advance(ms)`. */
  time: { now: number };
  advance(ms: number): void;
  rest(method: string, path: string, options?: { body?: unknown; token?: string }): Answer;
  graphql(query: string, options?: { variables?: Record<string, unknown>; token?: string }): Answer;
}

export function standIn(settings: GitHubWorldSettings = {}): StandInTest {
  const time = { now: Date.parse('2026-11-02T09:00:00Z') };
  const github = new GitHubStandIn(API, { now: () => time.now, ...settings });
  const rest = (method: string, path: string, options: { body?: unknown; token?: string } = {}): Answer => {
    const headers = options.token === undefined ? {} : { authorization: `token ${options.token}` };
    const raw = options.body === undefined ? '' : JSON.stringify(options.body);
    const answer = github.answer(method, path, headers, raw);
    let json: unknown;
    try {
      json = answer.body ? JSON.parse(answer.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, headers: answer.headers, json, text: answer.body };
  };
  return {
    github,
    time,
    advance: (ms) => void (time.now += ms),
    rest,
    graphql: (query, options = {}) =>
      rest('POST', '/graphql', { body: { query, variables: options.variables ?? {} }, token: options.token }),
  };
}

/** A status post's body. */
export const status = (context: string, state = 'pending', description?: string): Record<string, string> => ({
  context,
  state,
  ...(description === undefined ? {} : { description }),
});
