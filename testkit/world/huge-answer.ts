/**
 * A device session's connection details of about 600 kB, shaped to hit each piece of work that once
 * grew with the square of its input (so that one answer kept a step busy for minutes, past
 * `timeout-minutes` and deaf to SIGINT):
 * - `a.a.a.…`: a scan for URLs that tried a scheme at every letter and ran on to the end each time;
 * - a field name of capital letters: a camelCase split that backtracked over the whole run;
 * - a long credential (registered as a secret): every log line cut with `…` made the redaction try
 *   each start of it;
 * and a session name long enough to be cut in the lines printed after the secret is registered.
 * Used by __tests__/security/huge-answers.test.ts and `npm run bench`.
 */

/** Fields for the simulator's `extraRemoteConfigFields`. */
export function hugeRemoteConfigFields(): Record<string, unknown> {
  return {
    note: 'a.'.repeat(150_000),
    [`X${'A'.repeat(100_000)}b`]: 'x',
    webPreviewToken: `wpt_${'Z9'.repeat(100_000)}`,
  };
}

/** A session name that log lines and the summary cut (at 80 and 120 characters). */
export const LONG_SESSION_NAME = 'checkout flow on the largest device '.repeat(6).trim();
