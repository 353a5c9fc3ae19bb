/**
 * The inputs of following a run, the same rows in run-workflow and wait-for-run (the commit statuses,
 * the status context, the polling, the jobs it follows), and the run a step follows as those inputs
 * describe it.
 */
import {
  comment,
  githubToken,
  jobs,
  onActionRequired,
  pollInterval,
  timeout,
  type ApiSettings,
  type InputSpec,
} from '../inputs/table.js';
import * as parse from '../inputs/parsers.js';
import { InputProblem, type InputNote } from '../inputs/parsers.js';
import type { MergeGroup } from '../github/event.js';

const commitStatuses = {
  description:
    '`true`: post a GitHub commit status for the run (`svc/<workflow>`) and one for each job it follows ' +
    '(`svc/<workflow>/<job key>`, at most 60) on the commit the run is of (its `gitCommitHash`, never another commit), ' +
    "so a ruleset can require a remote job. A status says `success` only when the step's verdict on that commit does. " +
    "Writes go a second apart within GitHub's limits, which gates running at the same time share: a status the step " +
    'cannot settle in time (GitHub failing or limiting, a cancelled step) is left `pending`, named in a warning, for ' +
    '`sync-statuses`. Needs `statuses: write`.',
  default: 'false',
  parse: parse.boolean,
} satisfies InputSpec<boolean>;

/** What a status context may be: a ruleset names it by hand, so plain characters and bounded. */
const STATUS_CONTEXT = /^[\w./:-]{1,60}$/;

const statusContext = {
  description:
    'Replaces the `svc/<workflow>` prefix of the commit statuses (for the same workflow dispatched from ' +
    'several matrix legs or with several inputs): `<status-context>` for the run, ' +
    "`<status-context>/<job key>` for each job; with `comment: true`, the pull-request comment's heading names the leg by it. " +
    'Letters, digits and `_` `.` `/` `:` `-`, at most 60.',
  hint: 'a status context such as `svc/e2e-ios`.',
  parse: (value: string, name: string) => {
    if (STATUS_CONTEXT.test(value)) return value;
    const allowed = 'letters, digits, `_`, `.`, `/`, `:` and `-`, such as `svc/e2e-ios`';
    const chars = [...value];
    const bad = chars.findIndex((char) => !/^[\w./:-]$/.test(char));
    if (bad >= 0)
      throw new InputProblem(
        `\`${name}\` may hold only ${allowed}; ${characterName(chars[bad])} at position ${bad + 1} is not one of them.`,
      );
    throw new InputProblem(
      `\`${name}\` is ${chars.length} characters long; at most 60 ${allowed} are allowed.`,
    );
  },
} satisfies InputSpec<string>;

/** A character as an error message can show it: a space, an invisible one by its code point. */
function characterName(char: string): string {
  if (char === ' ') return 'a space';
  if (char === '`') return 'a backtick (`` ` ``)';
  if (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)) return `\`${char}\``;
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `status-context` names commit statuses, and the comment's leg: without `commit-statuses: true`
 * or `comment: true` it names nothing.
 */
export function statusContextAdvice(values: {
  'commit-statuses'?: boolean;
  'status-context'?: string;
  comment?: boolean;
}): InputNote[] {
  if (!values['status-context'] || values['commit-statuses'] || values.comment) return [];
  return [
    {
      level: 'warning',
      text: '`status-context` is set, but `commit-statuses` is not `true`: no commit status is posted, so it names none. Add `commit-statuses: true`, or remove `status-context`.',
    },
  ];
}

/** The inputs of following a run, the same rows in run-workflow and wait-for-run. */
export const FOLLOW_INPUTS = {
  jobs,
  'on-action-required': onActionRequired,
  'poll-interval-seconds': pollInterval(10),
  'timeout-minutes': timeout(60, 'for the run (or the listed jobs) to end'),
  comment,
  'commit-statuses': commitStatuses,
  'status-context': statusContext,
  'github-token': {
    ...githubToken,
    description: 'Token for the pull-request comment and the commit statuses. Masked.',
  },
};

/** The run a step follows, and how. */
export interface FollowedRun {
  runId: string;
  /** The run's page, when known before the first read (from the dispatch). */
  runUrl?: string;
  /** What the summary calls the run: the workflow file name, or the run id. */
  title: string;
  /** The `jobs` selectors: job keys and `type:<job type>`. */
  jobs?: string[];
  /** `fail`: end at once when the run waits for a manual action (`action-required`). */
  onActionRequired: 'wait' | 'fail';
  /** The commit the run must be of (wait-for-run's `expected-commit`): lower case, whole or a prefix. */
  expectedCommit?: string;
  /** Why `expectedCommit` may be the wrong commit to expect, said when a run is not of it. */
  expectedCommitHint?: string;
  /** Whether this step dispatched the run: then it exists, and this step started it. */
  dispatched: boolean;
  /** On `merge_group`: the queue's commit, for the summary. */
  queue?: MergeGroup;
  api: ApiSettings;
}
