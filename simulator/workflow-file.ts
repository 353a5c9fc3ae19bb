/**
 * Parsing of `.eas/workflows/*.yml` files and validation of dispatch `inputs` against their schema.
 *
 * Independent of the action's own reading (src/runs/workflow-file.ts and workflow-rules.ts) on
 * purpose: the simulator stands for the service, and the action's check before a dispatch is tested
 * against it. A reading shared by both would make a misreading agree with itself, and the tests
 * would pass on a check the real service contradicts. Each follows the service's interface.
 */
import { parse } from 'yaml';
import { ApiError } from './errors.js';

export type InputType = 'string' | 'boolean' | 'number' | 'choice' | 'environment';
const INPUT_TYPES: InputType[] = ['string', 'boolean', 'number', 'choice', 'environment'];

export interface InputSpec {
  name: string;
  type: InputType;
  required: boolean;
  default?: unknown;
  description?: string;
  options?: string[];
}

/** `type` as reported in the job object. Values beyond build/submission are "not shown" by the spec. */
export type JobType = 'build' | 'submission' | 'require-approval' | 'custom';

export interface JobSpec {
  key: string;
  name: string;
  type: JobType;
  needs: string[];
  environment: string;
  /** `outputs:` mapping of the job, values still holding their `${{ ... }}` expressions. */
  outputs: Record<string, string>;
  /** `params.platform` for build/submission jobs (default android); null for other jobs without one. */
  platform: string | null;
}

export interface WorkflowSpec {
  name: string | null;
  inputs: InputSpec[];
  jobs: JobSpec[];
}

export type InputValue = string | number | boolean;

/** Not shown by the spec: jobs without `environment:` report `production`. */
export const DEFAULT_ENVIRONMENT = 'production';

const JOB_TYPES: Record<string, JobType> = {
  build: 'build',
  submit: 'submission',
  'require-approval': 'require-approval',
};

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(fileName: string, problem: string): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', `Workflow file ${fileName} is invalid: ${problem}`);
}

function scalarToString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function parseInputs(on: unknown, fileName: string): InputSpec[] {
  if (!isMapping(on)) return [];
  const dispatch = on['workflow_dispatch'];
  if (!isMapping(dispatch) || dispatch['inputs'] == null) return [];
  const inputs = dispatch['inputs'];
  if (!isMapping(inputs)) throw invalid(fileName, 'on.workflow_dispatch.inputs must be a mapping');
  return Object.entries(inputs).map(([name, raw]) => {
    const def = raw ?? {};
    if (!isMapping(def)) throw invalid(fileName, `input ${name} must be a mapping`);
    const type = (def['type'] ?? 'string') as InputType;
    if (!INPUT_TYPES.includes(type)) {
      throw invalid(fileName, `input ${name} has unknown type ${String(def['type'])}`);
    }
    const spec: InputSpec = { name, type, required: def['required'] === true };
    if (def['default'] !== undefined && def['default'] !== null) spec.default = def['default'];
    if (typeof def['description'] === 'string') spec.description = def['description'];
    if (type === 'choice') {
      const options = def['options'];
      const strings = Array.isArray(options) ? options.map(scalarToString) : [];
      if (strings.length === 0 || strings.some((o) => o === undefined)) {
        throw invalid(fileName, `choice input ${name} needs a non-empty list of options`);
      }
      spec.options = strings as string[];
    }
    return spec;
  });
}

function parseJob(key: string, raw: unknown, fileName: string): JobSpec {
  const job = raw ?? {};
  if (!isMapping(job)) throw invalid(fileName, `job ${key} must be a mapping`);
  const typeName = job['type'];
  const type: JobType = typeof typeName === 'string' ? (JOB_TYPES[typeName] ?? 'custom') : 'custom';
  const needsRaw = job['needs'];
  let needs: string[];
  if (needsRaw == null) needs = [];
  else if (typeof needsRaw === 'string') needs = [needsRaw];
  else if (Array.isArray(needsRaw) && needsRaw.every((n) => typeof n === 'string')) needs = needsRaw;
  else throw invalid(fileName, `job ${key}: needs must be a job key or a list of job keys`);
  const envRaw = job['environment'];
  const environment =
    typeof envRaw === 'string' && envRaw !== ''
      ? envRaw
      : isMapping(envRaw) && typeof envRaw['name'] === 'string'
        ? envRaw['name']
        : DEFAULT_ENVIRONMENT;
  const outputs: Record<string, string> = {};
  const outputsRaw = job['outputs'];
  if (outputsRaw != null) {
    if (!isMapping(outputsRaw)) throw invalid(fileName, `job ${key}: outputs must be a mapping`);
    for (const [name, value] of Object.entries(outputsRaw)) outputs[name] = scalarToString(value) ?? '';
  }
  const params = job['params'];
  const paramPlatform = isMapping(params) ? scalarToString(params['platform']) : undefined;
  const platform = paramPlatform ?? (type === 'build' || type === 'submission' ? 'android' : null);
  const name = typeof job['name'] === 'string' && job['name'] !== '' ? job['name'] : key;
  return { key, name, type, needs: [...new Set(needs)], environment, outputs, platform };
}

function checkGraph(jobs: JobSpec[], fileName: string): void {
  const byKey = new Map(jobs.map((j) => [j.key, j]));
  for (const job of jobs) {
    for (const need of job.needs) {
      if (!byKey.has(need)) throw invalid(fileName, `job ${job.key} needs unknown job ${need}`);
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (key: string): void => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') throw invalid(fileName, `jobs have a dependency cycle through ${key}`);
    state.set(key, 'visiting');
    for (const need of byKey.get(key)!.needs) visit(need);
    state.set(key, 'done');
  };
  for (const job of jobs) visit(job.key);
}

export function parseWorkflowFile(text: string, fileName: string): WorkflowSpec {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw invalid(fileName, `YAML syntax error: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isMapping(doc)) throw invalid(fileName, 'the file must contain a mapping');
  const jobsRaw = doc['jobs'];
  if (!isMapping(jobsRaw) || Object.keys(jobsRaw).length === 0) {
    throw invalid(fileName, 'jobs must be a non-empty mapping');
  }
  const jobs = Object.entries(jobsRaw).map(([key, raw]) => parseJob(key, raw, fileName));
  checkGraph(jobs, fileName);
  return {
    name: typeof doc['name'] === 'string' ? doc['name'] : null,
    inputs: parseInputs(doc['on'], fileName),
    jobs,
  };
}

/** Returns the value coerced to the input's type, or an error message naming the input. */
function coerce(spec: InputSpec, value: unknown): { value: InputValue } | { error: string } {
  const field = `inputs.${spec.name}`;
  switch (spec.type) {
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
        return { value: value.trim().toLowerCase() === 'true' };
      }
      return { error: `${field} must be a boolean (true or false)` };
    case 'number': {
      if (typeof value === 'number' && Number.isFinite(value)) return { value };
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
        return { value: Number(value) };
      }
      return { error: `${field} must be a number` };
    }
    case 'choice':
      if (typeof value !== 'string')
        return { error: `${field} must be a string, one of: ${spec.options!.join(', ')}` };
      if (!spec.options!.includes(value)) {
        return { error: `${field} must be one of: ${spec.options!.join(', ')} (got "${value}")` };
      }
      return { value };
    case 'environment':
    case 'string':
      // Strict on purpose: a number or boolean sent for a string input is a type error.
      if (typeof value !== 'string') return { error: `${field} must be a string` };
      return { value };
  }
}

/**
 * Validates dispatch `inputs` against the file's `on.workflow_dispatch.inputs` schema. Unknown inputs,
 * wrong types, values outside `options` and missing required inputs (without default) → 400 naming the
 * input. Strings are accepted for boolean and number inputs when they parse (as GitHub does). Defaults fill
 * omitted inputs. Returns the effective values.
 */
export function validateInputs(
  specs: InputSpec[],
  provided: Record<string, unknown> | undefined,
): Record<string, InputValue> {
  const errors: string[] = [];
  const values: Record<string, InputValue> = {};
  const known = new Map(specs.map((s) => [s.name, s]));
  for (const name of Object.keys(provided ?? {})) {
    if (!known.has(name)) {
      const declared = specs.length ? specs.map((s) => s.name).join(', ') : 'none';
      errors.push(`inputs.${name} is not an input of this workflow (declared inputs: ${declared})`);
    }
  }
  for (const spec of specs) {
    let value = provided?.[spec.name];
    // An empty string counts as omitted, except for an optional string input (where it is a value).
    const emptyString = value === '' && (spec.type !== 'string' || spec.required);
    if (value === undefined || value === null || emptyString) {
      if (spec.default === undefined) {
        if (spec.required) errors.push(`inputs.${spec.name} is required`);
        continue;
      }
      value = spec.default;
    }
    const result = coerce(spec, value);
    if ('error' in result) errors.push(result.error);
    else values[spec.name] = result.value;
  }
  if (errors.length) throw ApiError.validation(errors);
  return values;
}
