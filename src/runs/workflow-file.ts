/**
 * A check before a dispatch, against the workflow file in the workspace: when the job checked out
 * the very commit run-workflow dispatches, `.eas/workflows/<workflow>` there is the file the service
 * will read, so `inputs` that it does not declare (or of the wrong simple type, or required ones
 * missing) and `jobs` it does not have are refused before any request, naming what it declares.
 * Nothing is started that would fail at once, and a run whose `jobs` cannot match is never left
 * running unfollowed.
 *
 * The service stays the authority: a workspace that is not a git repository, a file that is absent
 * or cannot be parsed, a git-ref at another commit, or anything this check does not understand
 * (an input type it does not know) is not checked, and a debug line says why.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { parse } from 'yaml';
import type { DispatchInputs } from '../inputs/parsers.js';
import { selectedType } from './job-selection.js';
import { isRecord, oneLine } from '../text/plain.js';

export interface PlannedDispatch {
  /** The job's workspace (GITHUB_WORKSPACE, else the current directory). */
  workspace: string;
  workflow: string;
  gitRef: string;
  inputs?: DispatchInputs;
  jobs?: string[];
}

export interface FileCheck {
  /** Where the file was read, for messages: `.eas/workflows/e2e.yml at 1a2b3c4d5e6f`. */
  file?: string;
  /** What the file refuses; empty when it accepts the dispatch or was not checked. */
  problems: string[];
  /** Why the file was not checked (for a debug line); undefined when it was. */
  skipped?: string;
}

const GIT_TIMEOUT_MS = 5_000;
const MAX_FILE_BYTES = 1024 * 1024;
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
/** How the service reports the type of a job whose file says `type: build` or `type: submit`. */
const REPORTED_TYPES: Record<string, string> = { build: 'build', submit: 'submission' };

export async function checkWorkflowFile(plan: PlannedDispatch): Promise<FileCheck> {
  const commit = await dispatchedCommit(plan);
  if ('skipped' in commit) return { problems: [], skipped: commit.skipped };
  const path = `.eas/workflows/${plan.workflow}`;
  const file = `${path} at ${commit.sha.slice(0, 12)}`;
  const text = await git(plan.workspace, ['cat-file', 'blob', `${commit.sha}:${path}`]);
  if (text === undefined)
    return { problems: [], skipped: `${path} is not in the workspace at ${commit.sha} (or is over 1 MB)` };
  let document: unknown;
  try {
    // Errors throw; warnings (an unknown tag) are not printed: this is a check, not a linter.
    document = parse(text, { logLevel: 'error' });
  } catch (error) {
    return { problems: [], skipped: `${file} cannot be parsed (${oneLine(String(error), 200)})` };
  }
  if (!isRecord(document) || !isRecord(document.jobs))
    return { problems: [], skipped: `${file} has no \`jobs\` mapping` };
  const skipped: string[] = [];
  const problems = [
    ...inputProblems(document.on, plan.inputs ?? {}, skipped),
    ...jobProblems(document.jobs, plan.jobs ?? [], skipped),
  ];
  return { file, problems, skipped: skipped.length > 0 ? skipped.join('; ') : undefined };
}

/** The commit being dispatched, when the workspace has it: a full SHA it holds, or a branch or tag at its HEAD. */
async function dispatchedCommit(plan: PlannedDispatch): Promise<{ sha: string } | { skipped: string }> {
  const head = await git(plan.workspace, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head === undefined)
    return { skipped: `the workspace ${plan.workspace} is not a git repository with a checked-out commit` };
  if (FULL_SHA.test(plan.gitRef)) {
    const sha = plan.gitRef.toLowerCase();
    const known = await git(plan.workspace, ['cat-file', '-e', `${sha}^{commit}`]);
    return known === undefined ? { skipped: `the workspace does not have commit ${sha}` } : { sha };
  }
  // The service's precedence: a branch before a tag of the same name.
  const candidates = plan.gitRef.startsWith('refs/')
    ? [plan.gitRef]
    : [`refs/heads/${plan.gitRef}`, `refs/tags/${plan.gitRef}`];
  for (const ref of candidates) {
    const sha = await git(plan.workspace, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (sha === undefined) continue;
    // A branch may have moved on the service since the checkout; only the checked-out one is trusted.
    return sha.trim() === head.trim()
      ? { sha: sha.trim() }
      : { skipped: `${ref} is not the workspace's checked-out commit (${head.trim()})` };
  }
  return {
    skipped: `git-ref ${oneLine(plan.gitRef, 100)} is neither a full commit SHA nor a branch or tag of the workspace`,
  };
}

interface DeclaredInput {
  type: unknown;
  required: boolean;
  hasDefault: boolean;
  options?: unknown;
}

/** The file's `workflow_dispatch` inputs; undefined when the file does not say (no workflow_dispatch trigger). */
function declaredInputs(on: unknown): Map<string, DeclaredInput> | undefined {
  const none = new Map<string, DeclaredInput>();
  if (on === 'workflow_dispatch' || (Array.isArray(on) && on.includes('workflow_dispatch'))) return none;
  if (!isRecord(on) || !('workflow_dispatch' in on)) return undefined;
  const dispatch = on.workflow_dispatch;
  if (dispatch == null || (isRecord(dispatch) && dispatch.inputs == null)) return none;
  if (!isRecord(dispatch) || !isRecord(dispatch.inputs)) return undefined;
  return new Map(
    Object.entries(dispatch.inputs).map(([name, raw]) => {
      const spec = isRecord(raw) ? raw : {};
      return [
        name,
        {
          type: spec.type ?? 'string',
          required: spec.required === true,
          hasDefault: spec.default != null,
          options: spec.options,
        },
      ];
    }),
  );
}

function inputProblems(on: unknown, given: DispatchInputs, skipped: string[]): string[] {
  const declared = declaredInputs(on);
  if (!declared) {
    skipped.push('`inputs` not checked: the file declares no `on.workflow_dispatch` that this check reads');
    return [];
  }
  const names = [...declared.keys()].map((name) => oneLine(name, 80));
  const list = names.length > 0 ? `its inputs are: ${names.join(', ')}` : 'it declares no inputs';
  const problems: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    const spec = declared.get(name);
    if (!spec) problems.push(`\`inputs.${oneLine(name, 80)}\` is not an input of the workflow (${list}).`);
    else if (value !== '') problems.push(...typeProblem(name, spec, value, skipped));
  }
  for (const [name, spec] of declared)
    if (spec.required && !spec.hasDefault && (given[name] === undefined || given[name] === ''))
      problems.push(`\`inputs.${oneLine(name, 80)}\` is required by the workflow and has no default.`);
  return problems;
}

function typeProblem(
  name: string,
  spec: DeclaredInput,
  value: string | number | boolean,
  skipped: string[],
): string[] {
  const field = `\`inputs.${oneLine(name, 80)}\``;
  switch (spec.type) {
    case 'string':
      return [];
    case 'boolean':
      return typeof value === 'boolean' || /^(true|false)$/i.test(String(value))
        ? []
        : [`${field} must be a boolean (true or false) for the workflow.`];
    case 'number':
      return typeof value === 'number' || (String(value).trim() !== '' && Number.isFinite(Number(value)))
        ? []
        : [`${field} must be a number for the workflow.`];
    case 'choice': {
      const options = Array.isArray(spec.options) ? spec.options.map(String) : undefined;
      if (!options) return [];
      return options.includes(String(value))
        ? []
        : [`${field} must be one of: ${options.map((option) => oneLine(option, 80)).join(', ')}.`];
    }
    default:
      skipped.push(
        `${field} not checked: its type ${oneLine(String(spec.type), 40)} is not one this check knows`,
      );
      return [];
  }
}

function jobProblems(jobs: Record<string, unknown>, selectors: string[], skipped: string[]): string[] {
  const keys = Object.keys(jobs);
  const problems: string[] = [];
  const fileType = (key: string): unknown => (isRecord(jobs[key]) ? jobs[key].type : undefined);
  const unknownKeys = selectors.filter(
    (selector) => selectedType(selector) === undefined && !keys.includes(selector),
  );
  if (unknownKeys.length > 0)
    problems.push(
      `\`jobs\` lists ${unknownKeys.map((key) => `\`${oneLine(key, 80)}\``).join(', ')}, which the workflow does not have; its jobs are: ${keys.map((key) => oneLine(key, 80)).join(', ')}.`,
    );
  for (const selector of selectors) {
    const type = selectedType(selector);
    if (type === undefined) continue;
    const fileTypes = Object.entries(REPORTED_TYPES).filter(([, reported]) => reported === type);
    // Only `build` and `submission` are known to come from `type: build` and `type: submit`.
    if (fileTypes.length === 0) {
      skipped.push(
        `\`${oneLine(selector, 80)}\` not checked: which jobs the service reports with that type is not known`,
      );
      continue;
    }
    if (!keys.some((key) => fileTypes.some(([written]) => fileType(key) === written)))
      problems.push(
        `\`jobs\` lists \`${oneLine(selector, 80)}\`, but no job of the workflow is of that type (\`type: ${fileTypes.map(([written]) => written).join('` or `type: ')}\` in the file); its jobs are: ${keys.map((key) => `${oneLine(key, 80)}${typeof fileType(key) === 'string' ? ` (type: ${oneLine(String(fileType(key)), 40)})` : ''}`).join(', ')}.`,
      );
  }
  return problems;
}

/** git in the workspace: its output, or undefined when it fails, is missing or takes too long. */
function git(workspace: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', workspace, ...args],
      {
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_FILE_BYTES,
        encoding: 'utf8',
        // Never a repository above the workspace, never a prompt, never a pager.
        env: {
          ...process.env,
          GIT_CEILING_DIRECTORIES: dirname(workspace),
          GIT_TERMINAL_PROMPT: '0',
          GIT_OPTIONAL_LOCKS: '0',
          LC_ALL: 'C',
        },
      },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}
