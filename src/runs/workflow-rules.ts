/**
 * What a workflow file accepts, for the check before a dispatch (workflow-file.ts reads the file):
 * the `inputs` its `on.workflow_dispatch` declares, of their simple types, and the `jobs` entries
 * that one of its jobs can match, in the service's words (a `type:` selector names the type the
 * service reports: `submission` for the file's `type: submit`). Each problem is a sentence that
 * names what the file declares.
 */
import type { DispatchInputs } from '../inputs/parsers.js';
import { REPORTED_TYPES, selectedType, serviceWordFor } from './job-selection.js';
import { isRecord } from '../text/json.js';
import { oneLine } from '../text/one-line.js';

/** Keys named in a message at most: a hostile file's 100,000 keys are not all repeated. */
const KEYS_SHOWN = 50;

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

export function inputProblems(on: unknown, given: DispatchInputs, skipped: string[]): string[] {
  const declared = declaredInputs(on);
  if (!declared) {
    skipped.push('`inputs` not checked: the file declares no `on.workflow_dispatch` that this check reads');
    return [];
  }
  const list =
    declared.size > 0 ? `its inputs are: ${shownList([...declared.keys()])}` : 'it declares no inputs';
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

/**
 * `jobs` entries that no job of the file can match: a key it does not have, a type none of its jobs
 * has, or the file's word for a type where the service says another (`type:submit`, reported
 * `submission`). A type the service's name for is not known is pushed to `unchecked`.
 */
export function jobProblems(
  jobs: Record<string, unknown>,
  selectors: string[],
  unchecked: string[],
): string[] {
  const keys = Object.keys(jobs);
  const keySet = new Set(keys);
  const problems: string[] = [];
  const written = (key: string): string | undefined => {
    const job = jobs[key];
    return isRecord(job) && typeof job.type === 'string' ? job.type : undefined;
  };
  const listed = (withTypes: boolean): string =>
    shownList(keys, (key) =>
      withTypes && written(key) ? ` (type: ${oneLine(written(key) ?? '', 40)})` : '',
    );
  const unknownKeys = selectors.filter(
    (selector) => selectedType(selector) === undefined && !keySet.has(selector),
  );
  if (unknownKeys.length > 0)
    problems.push(
      `\`jobs\` lists ${unknownKeys.map((key) => `\`${oneLine(key, 80)}\``).join(', ')}, which the workflow does not have; its jobs are: ${listed(false)}.`,
    );
  // Each job's type as the service reports it (undefined where that is not known), and as the file writes it.
  const reported = new Set(keys.map((key) => reportedType(written(key))));
  const writtenTypes = new Set(keys.map(written));
  for (const selector of selectors) {
    const type = selectedType(selector);
    if (type === undefined) continue;
    const instead = serviceWordFor(selector);
    if (instead) {
      problems.push(
        `\`jobs\` lists \`${oneLine(selector, 80)}\`, but the service calls the jobs of \`type: ${type}\` \`${REPORTED_TYPES[type]}\`: write \`${instead}\`.`,
      );
      continue;
    }
    if (reported.has(type) || (!Object.hasOwn(REPORTED_TYPES, type) && writtenTypes.has(type))) continue;
    // A type whose reported name is known (build, submission), or a file whose every job's is: no job can match.
    const fileWords = Object.keys(REPORTED_TYPES).filter((word) => REPORTED_TYPES[word] === type);
    if (fileWords.length > 0 || !reported.has(undefined))
      problems.push(
        `\`jobs\` lists \`${oneLine(selector, 80)}\`, but no job of the workflow is of that type${fileWords.length > 0 ? ` (\`type: ${fileWords.join('` or `type: ')}\` in the file)` : ''}; ` +
          `its jobs are: ${listed(true)}.`,
      );
    else unchecked.push(selector);
  }
  return problems;
}

/**
 * The type the service reports for a job whose file writes `type: <written>`: the known renames,
 * else undefined (not known: the spec shows only `build` and `submission`).
 */
function reportedType(written: string | undefined): string | undefined {
  return written !== undefined && Object.hasOwn(REPORTED_TYPES, written)
    ? REPORTED_TYPES[written]
    : undefined;
}

/** Names for a message, each on one line, the first KEYS_SHOWN of them. */
function shownList(names: string[], suffix: (name: string) => string = () => ''): string {
  const shown = names.slice(0, KEYS_SHOWN).map((name) => `${oneLine(name, 80)}${suffix(name)}`);
  const more = names.length > KEYS_SHOWN ? `, … and ${names.length - KEYS_SHOWN} more` : '';
  return `${shown.join(', ')}${more}`;
}
