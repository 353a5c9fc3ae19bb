/** Inputs of `run-workflow`: dispatch a workflow on a ref, then follow the run. */
import * as parse from './parsers.js';
import {
  apiSettings,
  appId,
  baseUrl,
  comment,
  githubToken,
  jobs,
  pollInterval,
  readTable,
  settled,
  timeout,
  token,
  type ApiSettings,
  type CommandSpec,
  type InputSource,
} from './table.js';
import { RUN_OUTPUTS } from './wait-for-run.js';

export const runWorkflow = {
  description:
    'Dispatch a workflow of the project on a git ref and (unless `wait: false`) follow the run to its end; the step fails unless it succeeded.',
  inputs: {
    token,
    'base-url': baseUrl,
    'app-id': appId,
    workflow: {
      description: 'The workflow file name only, such as `e2e.yml` (a `.yml` or `.yaml` name, no directory).',
      required: true,
      hint: 'the workflow file name, such as `e2e.yml`.',
      parse: parse.workflowFileName,
    },
    'git-ref': {
      description:
        "Branch, tag, commit SHA or full ref to run on. Default: the pull request's head commit on `pull_request` and `pull_request_target` events, otherwise `GITHUB_SHA`.",
      fallback: defaultGitRef,
      required: true,
      hint: 'outside a GitHub event with a commit (no GITHUB_SHA), give a branch, tag or SHA.',
      parse: parse.gitRef,
    },
    inputs: {
      description:
        '`workflow_dispatch` inputs as a YAML or JSON mapping of names to strings, numbers or booleans.',
      parse: parse.dispatchInputs,
    },
    wait: {
      description:
        '`false`: return right after the dispatch (status `new`); follow the run later with `wait-for-run`.',
      default: 'true',
      parse: parse.boolean,
    },
    jobs,
    'poll-interval-seconds': pollInterval(10),
    'timeout-minutes': timeout(60, 'for the run (or the listed jobs) to end'),
    comment,
    'github-token': githubToken,
  },
  outputs: {
    ...RUN_OUTPUTS,
    status: 'The last status seen (`new` right after a dispatch with `wait: false`).',
  },
} satisfies CommandSpec;

export interface RunWorkflowSettings {
  command: 'run-workflow';
  api: ApiSettings;
  appId: string;
  fileName: string;
  gitRef: string;
  inputs?: parse.DispatchInputs;
  wait: boolean;
  /** Follow only these jobs. */
  jobs?: string[];
  comment?: { githubToken: string };
}

export function readRunWorkflow(source: InputSource): RunWorkflowSettings {
  const { values, problems } = readTable(runWorkflow.inputs, source);
  if (values.wait === false && values.jobs)
    problems.push('`jobs` has no effect with `wait: false`; remove one of them.');
  return settled(
    {
      command: 'run-workflow',
      api: apiSettings(values),
      appId: values['app-id'] ?? '',
      fileName: values.workflow ?? '',
      gitRef: values['git-ref'] ?? '',
      inputs: values.inputs,
      wait: values.wait ?? true,
      jobs: values.jobs,
      comment: values.comment ? { githubToken: values['github-token'] ?? '' } : undefined,
    },
    problems,
  );
}

/** The ref to run on when none is given: the pull request's head commit, otherwise GITHUB_SHA. */
function defaultGitRef(source: InputSource): string | undefined {
  const { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: eventPath, GITHUB_SHA: sha } = source.env;
  if ((event === 'pull_request' || event === 'pull_request_target') && eventPath) {
    try {
      const payload = JSON.parse(source.readFile(eventPath)) as {
        pull_request?: { head?: { sha?: unknown } };
      };
      const head = payload.pull_request?.head?.sha;
      if (typeof head === 'string' && head !== '') return head;
    } catch {
      // Fall through to GITHUB_SHA; a pull request's GITHUB_SHA is its merge commit, a usable ref too.
    }
  }
  return sha?.trim() || undefined;
}
