/**
 * The figures the documents' prose states about inputs (issue 41: "every figure the documents take from
 * the code"), held to what the commands' readers do: each documented range is accepted at its ends and
 * refused one step outside them, and each documented default is the one the generated action.yml
 * declares (npm run check:generated holds action.yml to the input tables). The inputs tables of the
 * READMEs are generated, so they are not read here; this is the prose written by hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { COMMANDS, type CommandName } from '../../src/commands/index.js';
import { InputError } from '../../src/inputs/table.js';
import { MAX_QUERIES, MAX_REST } from '../../src/runs/sync-github.js';
import { MAX_UNREADABLE } from '../../src/runs/sync-runs.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry.js';
import { API, APP_ID, inputSource } from '../../testkit/world/sources.js';
import { ROOT } from '../../testkit/runner/step.js';

/** A document's text as a reader sees it: a line break is a space. */
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8').replace(/\s+/g, ' ');

/** The problems the command's reader lists for these inputs, none when it accepts them. */
function problems(command: CommandName, inputs: Record<string, string>): string[] {
  try {
    COMMANDS[command].read(inputSource({ ...API, ...inputs }));
    return [];
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
}

/** Whether the reader refuses `value` for `input`, naming it. */
const refuses = (command: CommandName, input: string, value: string, others: Record<string, string> = {}) =>
  problems(command, { ...others, [input]: value }).some((problem) => problem.includes(`\`${input}\``));

/** The default `<command>/action.yml` declares for an input. */
const defaultOf = (command: string, input: string): unknown =>
  (
    parse(readFileSync(join(ROOT, command, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: unknown }>;
    }
  ).inputs[input]?.default;

const SESSION = { 'app-id': APP_ID };

describe("the README's Limits", () => {
  const readme = read('README.md');
  const said = (pattern: RegExp): number[] => {
    const match = pattern.exec(readme);
    expect(match).not.toBeNull();
    return match!.slice(1).map(Number);
  };

  it('give the range of max-duration-minutes that start-device-session accepts', () => {
    const [min, max] = said(/`max-duration-minutes` \((\d+)–(\d+), within the account's limit\)/);
    for (const value of [min, max])
      expect(refuses('start-device-session', 'max-duration-minutes', String(value), SESSION)).toBe(false);
    for (const value of [min - 1, max + 1])
      expect(refuses('start-device-session', 'max-duration-minutes', String(value), SESSION)).toBe(true);
  });

  it('give the range of max-idle-time-minutes that start-device-session accepts', () => {
    const [min, max] = said(/`max-idle-time-minutes` \((\d+)–(\d+), smaller;/);
    // Beside the longest duration, so that "smaller than max-duration-minutes" is not what refuses it.
    const longest = { ...SESSION, 'max-duration-minutes': '115' };
    for (const value of [min, max])
      expect(refuses('start-device-session', 'max-idle-time-minutes', String(value), longest)).toBe(false);
    for (const value of [min - 1, max + 1])
      expect(refuses('start-device-session', 'max-idle-time-minutes', String(value), longest)).toBe(true);
  });

  it("give the waits' default timeouts", () => {
    const [runs] = said(/`run-workflow` and `wait-for-run` wait up to `timeout-minutes` \(default (\d+)\)/);
    expect(defaultOf('run-workflow', 'timeout-minutes')).toBe(String(runs));
    expect(defaultOf('wait-for-run', 'timeout-minutes')).toBe(String(runs));
    const [sessions] = said(/the session commands up to (\d+) minutes for readiness/);
    expect(defaultOf('start-device-session', 'timeout-minutes')).toBe(String(sessions));
    expect(defaultOf('wait-for-device-session', 'timeout-minutes')).toBe(String(sessions));
  });

  it('give the floor of poll-interval-seconds', () => {
    const [floor] = said(/`poll-interval-seconds` below (\d+(?:\.\d+)?) is refused/);
    expect(refuses('wait-for-run', 'poll-interval-seconds', String(floor), { 'run-id': APP_ID })).toBe(false);
    expect(refuses('wait-for-run', 'poll-interval-seconds', String(floor - 0.01), { 'run-id': APP_ID })).toBe(
      true,
    );
  });

  it("give the retries' figures", () => {
    const [attempts, first, cap] = said(
      /up to (\d+) attempts, with exponential back-off and jitter starting at half the poll interval \(at most (\d+) s\) and capped at (\d+) s/,
    );
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxAttempts: attempts,
      baseDelayMs: first * 1000,
      maxDelayMs: cap * 1000,
    });
  });
});

describe("the CHANGELOG's input figures", () => {
  const changelog = read('CHANGELOG.md');

  it('give the default and the most of start-attempts', () => {
    const [initial, most] = /`start-attempts` \(default (\d+), at most (\d+):/.exec(changelog)!.slice(1);
    expect(defaultOf('start-device-session', 'start-attempts')).toBe(initial);
    expect(refuses('start-device-session', 'start-attempts', most, SESSION)).toBe(false);
    expect(refuses('start-device-session', 'start-attempts', String(Number(most) + 1), SESSION)).toBe(true);
  });

  it('give the longest session name start-device-session accepts', () => {
    const [most] = /`name` \(default from the GitHub context, [^)]*, at most (\d+) characters\)/
      .exec(changelog)!
      .slice(1)
      .map(Number);
    expect(refuses('start-device-session', 'name', 'n'.repeat(most), SESSION)).toBe(false);
    expect(refuses('start-device-session', 'name', 'n'.repeat(most + 1), SESSION)).toBe(true);
  });

  it("give the hosted runner's job limit a timeout is noticed above", () => {
    const [limit] = /a `timeout-minutes` above (\d+) a notice/.exec(changelog)!.slice(1);
    expect(readFileSync(join(ROOT, 'src/inputs/table.ts'), 'utf8')).toContain(
      `const HOSTED_JOB_LIMIT_MINUTES = ${limit};`,
    );
  });
});

describe("the sub-action READMEs' input figures", () => {
  it("give wait-for-device-session's default poll interval", () => {
    const [seconds] = /with the default `poll-interval-seconds` of (\d+),/
      .exec(read('wait-for-device-session/README.md'))!
      .slice(1);
    expect(defaultOf('wait-for-device-session', 'poll-interval-seconds')).toBe(seconds);
  });

  it("give sync-statuses' max-runs default and the bounds of a call", () => {
    const readme = read('sync-statuses/README.md');
    expect(/\(`max-runs`, default (\d+)\)/.exec(readme)?.[1]).toBe(defaultOf('sync-statuses', 'max-runs'));
    expect(/at most (\d+) of them are tried a call/.exec(readme)?.[1]).toBe(String(MAX_UNREADABLE));
    expect(/at most (\d+) queries \(([\d,]+) open pull requests;/.exec(readme)?.slice(1)).toEqual([
      String(MAX_QUERIES),
      (MAX_QUERIES * 100).toLocaleString('en-US'),
    ]);
    expect(
      /A call makes at most N = (\d+) requests: (\d+) GraphQL queries and (\d+) REST requests/
        .exec(readme)
        ?.slice(1),
    ).toEqual([MAX_QUERIES + MAX_REST, MAX_QUERIES, MAX_REST].map(String));
  });
});
