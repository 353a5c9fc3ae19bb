/**
 * A check before a dispatch, against the workflow file in the workspace: when the job checked out
 * the very commit run-workflow dispatches, `.eas/workflows/<workflow>` there is the file the service
 * will read, so `inputs` that it does not declare (or of the wrong simple type, or required ones
 * missing) and `jobs` that no job of it can match are refused before any request, naming what it
 * declares. Nothing is started that would fail at once, and a run whose `jobs` cannot match is never
 * left running unfollowed.
 *
 * The service stays the authority: a workspace that is not a git repository, a file that is absent
 * or cannot be parsed, a git-ref at another commit, or anything this check does not understand
 * (an input type it does not know) is not checked, and the check says why.
 *
 * The file is a pull request author's text: its work is bounded by its size (1 MiB) and its nodes,
 * and it is parsed without checking for duplicate keys (quadratic in the keys of a mapping, and the
 * service's to judge).
 *
 * Independent of the simulator's reading (simulator/workflow-file.ts) on purpose: the simulator
 * stands for the service this check is tested against, and a shared reading would make a misreading
 * agree with itself.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseDocument, visit } from 'yaml';
import type { DispatchInputs } from '../inputs/parsers.js';
import { didYouMeanWords, nearMiss } from '../inputs/problems.js';
import { inputProblems, jobProblems } from './workflow-rules.js';
import { isRecord } from '../text/json.js';
import { oneLine } from '../text/one-line.js';

interface PlannedDispatch {
  /** The job's workspace (GITHUB_WORKSPACE, else the current directory). */
  workspace: string;
  workflow: string;
  gitRef: string;
  inputs?: DispatchInputs;
  jobs?: string[];
  /** The step's cancellation: git is stopped with it. */
  signal?: AbortSignal;
}

export interface FileCheck {
  /** Where the file was read, for messages: `.eas/workflows/e2e.yml at 1a2b3c4d5e6f`. */
  file?: string;
  /** What the file refuses; empty when it accepts the dispatch or was not checked. */
  problems: string[];
  /** Why the file, or part of it, was not checked (for a debug line); undefined when all of it was. */
  skipped?: string;
  /** The `jobs` entries that could not be checked, and why: the step says so once. */
  uncheckedJobs?: { selectors: string[]; why: string };
  /** The commit git-ref names, when the workspace has it. */
  commit?: string;
  /** A branch or tag of the workspace close to a git-ref it does not have (`main` for `mian`). */
  nearRef?: string;
  /**
   * The workflow file is not in that commit: what its workflows folder holds instead (empty when it
   * has none), and a file whose name differs only in case.
   */
  absent?: { folder: string[]; sameButCase?: string };
}

/** Where the service reads a project's workflow files. */
export const WORKFLOWS_FOLDER = '.eas/workflows';
const GIT_TIMEOUT_MS = 5_000;
const MAX_FILE_BYTES = 1024 * 1024;
/** Far more than any workflow file has; a file with more is not checked. */
const MAX_NODES = 100_000;
/** Aliases expanded at most (yaml's own default): an alias bomb is not checked, not expanded. */
const MAX_ALIASES = 100;
/** A whole commit SHA (SHA-1 or SHA-256), not a prefix. */
export const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

export async function checkWorkflowFile(plan: PlannedDispatch): Promise<FileCheck> {
  const notChecked = (skipped: string, commit?: string): FileCheck => ({
    problems: [],
    skipped,
    commit,
    uncheckedJobs: plan.jobs ? { selectors: plan.jobs, why: skipped } : undefined,
  });
  const resolved = await dispatchedCommit(plan);
  if ('skipped' in resolved)
    return { ...notChecked(resolved.skipped), ...(resolved.nearRef ? { nearRef: resolved.nearRef } : {}) };
  const commit = resolved.sha;
  const path = `${WORKFLOWS_FOLDER}/${plan.workflow}`;
  const file = `${path} at ${commit.slice(0, 12)}`;
  const folder = await workflowsFolder(plan, commit);
  if (!folder.includes(plan.workflow)) {
    const sameButCase = folder.find((name) => name.toLowerCase() === plan.workflow.toLowerCase());
    return {
      ...notChecked(`${path} is not in the workspace's commit ${commit}`, commit),
      absent: { folder, sameButCase },
    };
  }
  const text = await git(plan, ['cat-file', 'blob', `${commit}:${path}`]);
  if (text === undefined) return notChecked(`${path} at ${commit} is over 1 MB`, commit);
  const document = parseBounded(text);
  if ('skipped' in document) return notChecked(`${file} ${document.skipped}`, commit);
  if (!isRecord(document.value) || !isRecord(document.value.jobs))
    return notChecked(`${file} has no \`jobs\` mapping`, commit);
  const skipped: string[] = [];
  const unchecked: string[] = [];
  const problems = [
    ...inputProblems(document.value.on, plan.inputs ?? {}, skipped),
    ...jobProblems(document.value.jobs, plan.jobs ?? [], unchecked),
  ];
  const why =
    'which jobs the service reports with that type is not known (only `build` and `submission` are)';
  if (unchecked.length > 0)
    skipped.push(
      `${unchecked.map((selector) => `\`${oneLine(selector, 80)}\``).join(', ')} not checked: ${why}`,
    );
  return {
    file,
    commit,
    problems,
    skipped: skipped.length > 0 ? skipped.join('; ') : undefined,
    uncheckedJobs: unchecked.length > 0 ? { selectors: unchecked, why } : undefined,
  };
}

/** The file's content, or why it is not checked: unparsable, too many nodes, too many aliases. */
function parseBounded(text: string): { value: unknown } | { skipped: string } {
  try {
    // Errors end the check; warnings (an unknown tag) are not printed: this is a check, not a linter.
    const document = parseDocument(text, { uniqueKeys: false, logLevel: 'error' });
    if (document.errors.length > 0) throw document.errors[0];
    let nodes = 0;
    visit(document, () => (++nodes > MAX_NODES ? visit.BREAK : undefined));
    if (nodes > MAX_NODES) return { skipped: `has over ${MAX_NODES.toLocaleString('en-US')} YAML nodes` };
    return { value: document.toJS({ maxAliasCount: MAX_ALIASES }) };
  } catch (error) {
    return { skipped: `cannot be parsed (${oneLine(String(error), 200)})` };
  }
}

/** The commit being dispatched, when the workspace has it: a full SHA it holds, or a branch or tag at its HEAD. */
async function dispatchedCommit(
  plan: PlannedDispatch,
): Promise<{ sha: string } | { skipped: string; nearRef?: string }> {
  // No `.git` file or folder, no checkout: no git process either (its start-up alone can take
  // longer than a busy machine's patience, and it could only say so).
  const head = existsSync(join(plan.workspace, '.git'))
    ? await git(plan, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
    : undefined;
  if (head === undefined)
    return { skipped: `the workspace ${plan.workspace} is not a git repository with a checked-out commit` };
  if (FULL_SHA.test(plan.gitRef)) {
    const sha = plan.gitRef.toLowerCase();
    const known = await git(plan, ['cat-file', '-e', `${sha}^{commit}`]);
    return known === undefined ? { skipped: `the workspace does not have commit ${sha}` } : { sha };
  }
  // The service's precedence: a branch before a tag of the same name.
  const candidates = plan.gitRef.startsWith('refs/')
    ? [plan.gitRef]
    : [`refs/heads/${plan.gitRef}`, `refs/tags/${plan.gitRef}`];
  for (const ref of candidates) {
    const sha = await git(plan, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (sha === undefined) continue;
    // A branch may have moved on the service since the checkout; only the checked-out one is trusted.
    return sha.trim() === head.trim()
      ? { sha: sha.trim() }
      : { skipped: `${ref} is not the workspace's checked-out commit (${head.trim()})` };
  }
  const refs = await git(plan, [
    'for-each-ref',
    '--count=1000',
    '--format=%(refname:short)',
    'refs/heads',
    'refs/tags',
  ]);
  const nearRef = nearMiss(plan.gitRef, (refs ?? '').split('\n').filter(Boolean));
  const near = didYouMeanWords(nearRef);
  return {
    nearRef,
    skipped: `git-ref ${oneLine(plan.gitRef, 100)} is neither a full commit SHA nor a branch or tag of the workspace, whose checked-out commit is ${head.trim()}${near ? ` (${near.trim()})` : ''}`,
  };
}

/** The names of the files in `.eas/workflows/` at `commit`; none when the folder is not there. */
async function workflowsFolder(plan: PlannedDispatch, commit: string): Promise<string[]> {
  const listing = await git(plan, ['ls-tree', '--name-only', '-z', `${commit}:${WORKFLOWS_FOLDER}`]);
  return (listing ?? '').split('\0').filter((name) => name !== '');
}

/** git in the workspace: its output, or undefined when it fails, is missing or takes too long. */
function git(
  plan: Pick<PlannedDispatch, 'workspace' | 'signal'>,
  args: string[],
): Promise<string | undefined> {
  const { workspace, signal } = plan;
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', workspace, ...args],
      {
        signal,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_FILE_BYTES,
        encoding: 'utf8',
        // Never a repository above the workspace, never a prompt, never a pager.
        env: {
          ...process.env,
          GIT_CEILING_DIRECTORIES: dirname(workspace),
          GIT_TERMINAL_PROMPT: '0',
          GIT_OPTIONAL_LOCKS: '0',
          // A partial clone would fetch a missing object from its remote: nothing is fetched, the
          // workspace shows what it holds.
          GIT_NO_LAZY_FETCH: '1',
          LC_ALL: 'C',
        },
      },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}
