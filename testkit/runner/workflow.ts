/**
 * The workflow engine: runs a workflow (or a job, or a list of steps) as GitHub's runner would, with
 * GitHub's own parser (@actions/workflow-parser) and expression evaluator (@actions/expressions).
 * Jobs run in `needs` order with their outputs; steps see `steps.*.outputs`, `needs.*.outputs`,
 * `secrets`, `vars`, `github.*`, `env` and the status functions; `uses:` of this repository runs the
 * checkout's action.yml entrypoints (the dist/ bundles on Node 24, through step.ts's runStep and
 * runStepPost), post steps run in reverse order under their `post-if`; `run:` steps run in bash with
 * the runner's file commands and a time limit; a `strategy.matrix` runs the job once per combination;
 * the log is masked job-wide (the secrets read, every add-mask value) as the runner masks it.
 * A third-party action runs only as a no-op the caller names; any other is an error, never skipped.
 * Not emulated, because jobs and matrix runs here run one at a time: `concurrency` groups (parsed,
 * then nothing to queue) and a job's `timeout-minutes`; `fail-fast` starts no combination after a
 * failed one (GitHub cancels those still running).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import {
  createStepFiles,
  DEFAULT_RUNTIME,
  parseCommandFile,
  readActionYaml,
  renderLog,
  runStep,
  runStepPost,
  RUNTIMES,
  type StepFiles,
} from './step.js';
import { maskText, readRunnerOutput } from './commands.js';
import { evaluate, interpolate, str, tokenValue, truthy, type Context, type Json } from './expressions.js';
import { matrixOf } from './matrix.js';

export interface EngineOptions {
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** github.* beyond the defaults (event_name, sha, repository, ref, event, ...). */
  github?: Record<string, Json>;
  /** Third-party actions (as in `uses:` without @ref) the test replaces by a no-op, by name. */
  noops?: string[];
  /**
   * Defaults of this checkout's actions' inputs, in place of their action.yml's, by input name: used
   * only where the step does not set the input and the action declares it. Against the simulator, whose
   * jobs take a tenth of a second, `poll-interval-seconds` need not wait out the 5 or 10 s a real
   * service needs; a value the workflow writes is always kept.
   */
  inputDefaults?: Record<string, string>;
  /** The repository whose actions map to this checkout (`owner/name`). */
  repository?: string;
  /** The job's working directory (the user's checkout): run steps start there. Default: a new empty one. */
  workspace?: string;
  /** Called with each line a runner would print (step headers, rendered logs). */
  log?: (line: string) => void;
  /** Called when a step has ended (skipped steps too), with its result. */
  onStep?: (job: string, step: StepResult) => void;
}

export interface StepResult {
  id: string;
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  conclusion: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  log: string;
  /**
   * The step's header as the runner prints it above its log: a `uses:` step's `with:` and every step's
   * `env:`, masked with what the job masks so far. Whoever can read the run's log reads it.
   */
  header: string;
  /** What the step appended to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The annotations the runner makes of its error, warning and notice commands (masked), within its limits. */
  annotations: Annotation[];
  post?: { exitCode: number | null; log: string };
}

export interface Annotation {
  kind: 'error' | 'warning' | 'notice';
  message: string;
}

/** The runner's annotation limits: 10 of each kind per step, 50 per job; the rest are dropped silently. */
const ANNOTATIONS_PER_KIND_PER_STEP = 10;
const ANNOTATIONS_PER_JOB = 50;

export interface JobResult {
  result: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  steps: StepResult[];
}

export interface WorkflowResult {
  jobs: Record<string, JobResult>;
  /** The names of the no-ops that ran, in order. */
  noopsRun: string[];
}

/** A job or a list of steps, wrapped into a workflow the way a user would paste it into one. */
export function asWorkflow(text: string): string {
  const doc = parse(text) as unknown;
  if (Array.isArray(doc)) return asWorkflow(`runs-on: ubuntu-latest\nsteps:\n${indent(text, 2)}`);
  const map = doc as Record<string, unknown>;
  if ('jobs' in map) return text;
  if ('steps' in map) return `on: workflow_dispatch\njobs:\n  recipe:\n${indent(text, 4)}`;
  // A mapping of jobs (`build: {...}, test: {...}`).
  return `on: workflow_dispatch\njobs:\n${indent(text, 2)}`;
}

const indent = (text: string, n: number): string =>
  text
    .split('\n')
    .map((line) => (line ? ' '.repeat(n) + line : line))
    .join('\n');

/** Which of this checkout's actions a `uses:` names: 'root', a sub-action's directory, or undefined. */
function ownAction(uses: string, repository: string): string | undefined {
  if (uses === './' || uses === '.') return 'root';
  if (uses.startsWith('./')) return uses.slice(2).replace(/\/$/, '');
  const [path] = uses.split('@');
  if (path.toLowerCase() === repository.toLowerCase()) return 'root';
  if (path.toLowerCase().startsWith(`${repository.toLowerCase()}/`)) return path.slice(repository.length + 1);
  return undefined;
}

/** How long a `run:` step may take here: the recipes' steps take seconds against the simulator. */
const RUN_STEP_TIMEOUT_MS = 60_000;

/**
 * Runs a `run:` script in bash as the runner does (`bash --noprofile --norc -eo pipefail`). Never
 * synchronously: the simulator the script talks to answers from this same process.
 */
async function runShell(
  script: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ exitCode: number | null; stdout: string; files: StepFiles }> {
  const stepFiles = createStepFiles();
  const scriptPath = join(stepFiles.dir, 'script.sh');
  writeFileSync(scriptPath, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptPath], {
    env: { ...env, ...stepFiles.env },
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // A step that hangs is a failure, never a wait for ever.
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, RUN_STEP_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(timer);
  const files = stepFiles.read();
  stepFiles.remove();
  const note = timedOut ? `\n(the step was killed after ${RUN_STEP_TIMEOUT_MS / 1000} s)` : '';
  return { exitCode, stdout: output + note, files };
}

interface RawStep {
  with?: Record<string, unknown>;
}

/** Runs `text` (a workflow, a job or a list of steps) and returns each job's result. */
export async function runWorkflow(text: string, options: EngineOptions = {}): Promise<WorkflowResult> {
  const content = asWorkflow(text);
  const parsed = parseWorkflow({ name: 'recipe.yml', content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors();
  if (errors.length > 0 || !parsed.value)
    throw new Error(`the workflow does not parse: ${errors.map((e) => e.message).join('; ')}`);
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  if (template.errors?.length) throw new Error(template.errors.map((e) => e.Message).join('; '));
  const raw = parse(content) as { jobs: Record<string, { steps?: RawStep[] }> };
  // Everything the run writes (the event, the workspace unless given, each job's temp) under one
  // directory, removed when the run ends however it ends.
  const root = mkdtempSync(join(tmpdir(), 'svc-engine-'));
  try {
    return await runJobs(template, raw, options, root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function runJobs(
  template: Awaited<ReturnType<typeof convertWorkflowTemplate>>,
  raw: { jobs: Record<string, { steps?: RawStep[] }> },
  options: EngineOptions,
  root: string,
): Promise<WorkflowResult> {
  const log = options.log ?? ((): void => undefined);
  const repository = options.repository ?? 'svc-actions/svc-action';
  const result: WorkflowResult = { jobs: {}, noopsRun: [] };
  const workspace = options.workspace ?? mkdtempSync(join(root, 'workspace-'));
  const github: Record<string, Json> = {
    event_name: 'workflow_dispatch',
    sha: '0'.repeat(40),
    ref: 'refs/heads/main',
    repository,
    token: 'ghs_engine_github_token',
    run_id: '1',
    event: {},
    ...options.github,
  };
  // The event payload, where the runner puts it (GITHUB_EVENT_PATH), from github.event.
  const eventPath = join(root, 'event.json');
  writeFileSync(eventPath, JSON.stringify(github.event ?? {}));
  const workflowEnv = (tokenValue(template.env, { github }, { failed: false }) ?? {}) as Record<string, Json>;
  const pending = [...template.jobs];
  while (pending.length > 0) {
    const index = pending.findIndex((job) => (job.needs ?? []).every((need) => need.value in result.jobs));
    if (index < 0) throw new Error('jobs whose needs never complete');
    const [job] = pending.splice(index, 1);
    if (job.type !== 'job') throw new Error(`${job.id.value}: reusable workflows are not run here`);
    const id = job.id.value;
    const needs: Record<string, Json> = Object.fromEntries(
      (job.needs ?? []).map((need) => [
        need.value,
        { result: result.jobs[need.value].result, outputs: result.jobs[need.value].outputs },
      ]),
    );
    const needsFailed = Object.values(needs).some(
      (need) => (need as { result: string }).result !== 'success',
    );
    // One run of the job for each combination of its matrix (one run without a strategy).
    const runOne = async (matrix: Record<string, Json>): Promise<JobResult> => {
      const runnerTemp = mkdtempSync(join(root, 'temp-'));
      const base: Context = {
        github,
        secrets: options.secrets ?? {},
        vars: options.vars ?? {},
        needs,
        inputs: {},
        matrix,
        strategy: {},
        // The runner gives each job its own temporary directory, emptied when the job ends: two runs of a
        // recipe at once (two deliveries of a webhook) never share $RUNNER_TEMP's files.
        runner: { os: 'Linux', temp: runnerTemp },
        job: { status: 'success' },
      };
      const label = Object.keys(matrix).length ? `${id} (${Object.values(matrix).map(str).join(', ')})` : id;
      log(`▶ job ${label}`);
      if (!truthy(evaluate(job.if.expression, { ...base, env: workflowEnv }, { failed: needsFailed }))) {
        log(`  skipped (if: ${job.if.expression})`);
        rmSync(runnerTemp, { recursive: true, force: true });
        return { result: 'skipped', outputs: {}, steps: [] };
      }
      const env: Record<string, string> = Object.fromEntries(
        Object.entries(workflowEnv).map(([k, v]) => [k, str(v)]),
      );
      Object.assign(
        env,
        Object.fromEntries(
          Object.entries(
            (tokenValue(job.env, { ...base, env }, { failed: false }) ?? {}) as Record<string, Json>,
          ).map(([k, v]) => [k, str(v)]),
        ),
      );
      const steps: Record<string, Json> = {};
      const stepResults: StepResult[] = [];
      const posts: Array<() => Promise<void>> = [];
      const status = { failed: false };
      // What the runner masks in every later line of the job: the secrets the workflow reads, and each
      // value a step registered with add-mask (a step's own lines are masked by renderLog).
      // value a step registered with add-mask (a step's own lines are masked by renderLog), and the
      // job's GITHUB_TOKEN, which the runner always masks.
      let jobMasks = [...Object.values(options.secrets ?? {}), str(github.token)].filter(
        (value) => value !== '',
      );
      let annotationsInJob = 0;
      /** The step's log as shown, its annotations added to `annotations`; later steps mask what it registered. */
      const shown = (stdout: string, annotations: Annotation[]): string => {
        const log = maskText(jobMasks, renderLog(stdout));
        const reading = readRunnerOutput(stdout);
        // The job's masks and the step's, longest first, as the runner's masker replaces them.
        const masks = [...new Set([...jobMasks, ...reading.masks])].sort((a, b) => b.length - a.length);
        for (const command of reading.commands) {
          const kind = command.name;
          if (kind !== 'error' && kind !== 'warning' && kind !== 'notice') continue;
          const ofKind = annotations.filter((annotation) => annotation.kind === kind).length;
          if (ofKind >= ANNOTATIONS_PER_KIND_PER_STEP || annotationsInJob >= ANNOTATIONS_PER_JOB) continue;
          annotationsInJob++;
          annotations.push({ kind, message: maskText(masks, command.data) });
        }
        jobMasks = masks;
        return log;
      };
      const rawSteps = raw.jobs[id].steps ?? [];
      for (const [i, step] of job.steps.entries()) {
        if (!('uses' in step) && !('run' in step))
          throw new Error(`${id}: step ${i + 1} is neither uses nor run`);
        const context = (): Context => ({
          ...base,
          env,
          steps,
          job: { status: status.failed ? 'failure' : 'success' },
        });
        const stepId = step.id.startsWith('__') ? `__${i}` : step.id;
        const uses = 'uses' in step ? step.uses.value : undefined;
        const name = step.name
          ? str(tokenValue(step.name, context(), status))
          : (uses ?? `Run ${str((step as { run: { value?: string } }).run.value ?? '').split('\n')[0]}`);
        const record: StepResult = {
          id: stepId,
          name,
          outcome: 'skipped',
          conclusion: 'skipped',
          outputs: {},
          log: '',
          header: '',
          summary: '',
          annotations: [],
        };
        stepResults.push(record);
        log(`  ▸ ${name}`);
        if (!truthy(evaluate(step.if.expression, context(), status))) {
          steps[stepId] = { outcome: 'skipped', conclusion: 'skipped', outputs: {} };
          log('    (skipped)');
          options.onStep?.(id, record);
          continue;
        }
        const stepEnv = { ...env };
        for (const [k, v] of Object.entries(
          (tokenValue(step.env, context(), status) ?? {}) as Record<string, Json>,
        ))
          stepEnv[k] = str(v);
        const shellEnv = {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? tmpdir(),
          GITHUB_ACTIONS: 'true',
          CI: 'true',
          RUNNER_TEMP: runnerTemp,
          ...stringEnv(github, eventPath),
          ...stepEnv,
        };
        let ok: boolean;
        /** The header the runner prints: `with:` (of a uses: step) and `env:`, masked as the job masks. */
        const printHeader = (inputs: Record<string, string>): void => {
          const section = (title: string, values: Record<string, string>): string[] =>
            Object.keys(values).length === 0
              ? []
              : [title, ...Object.entries(values).map(([k, v]) => `  ${k}: ${v}`)];
          record.header = maskText(
            [...jobMasks].sort((a, b) => b.length - a.length),
            [...section('with:', inputs), ...section('env:', stepEnv)].join('\n'),
          );
          if (record.header) log(indent(record.header, 4));
        };
        if (uses === undefined) {
          printHeader({});
          const script = str(
            tokenValue((step as { run: unknown }).run, { ...context(), env: stepEnv }, status),
          );
          const run = await runShell(script, shellEnv, workspace);
          record.log = shown(run.stdout, record.annotations);
          record.outputs = parseCommandFile(run.files.output);
          record.summary = run.files.summary;
          Object.assign(env, parseCommandFile(run.files.env));
          prependPath(env, run.files.path);
          ok = run.exitCode === 0;
        } else {
          const action = ownAction(uses, repository);
          if (action === undefined) {
            const bare = uses.split('@')[0];
            if (!(options.noops ?? []).includes(bare))
              throw new Error(
                `${id}: step "${name}" uses ${bare}, which cannot run here and is not named as a no-op`,
              );
            result.noopsRun.push(bare);
            record.log = `(no-op: ${bare})`;
            // What setup-node does that later steps see: the Node it sets up first on PATH (the
            // recipes ask for 24, the runtime of this action's bundles).
            if (bare === 'actions/setup-node') {
              env.PATH = `${dirname(RUNTIMES[DEFAULT_RUNTIME])}:${env.PATH ?? process.env.PATH ?? ''}`;
              record.log = `(no-op: ${bare}; Node ${DEFAULT_RUNTIME} first on PATH)`;
            }
            ok = true;
          } else {
            const spec = readActionYaml(action);
            const given = Object.fromEntries(
              Object.entries(rawSteps[i]?.with ?? {}).map(([k, v]) => [
                k,
                interpolate(String(v), { ...context(), env: stepEnv }, status),
              ]),
            );
            // Defaults that are expressions (`${{ github.token }}`) evaluated here, and the ones the
            // caller replaces (inputDefaults); runStep adds the other literal ones, as the runner fills
            // every default of the action.yml.
            const inputs: Record<string, string> = {};
            for (const [input, def] of Object.entries(spec.inputs ?? {}))
              if (options.inputDefaults?.[input] !== undefined) inputs[input] = options.inputDefaults[input];
              else if (typeof def.default === 'string' && def.default.includes('${{'))
                inputs[input] = interpolate(def.default, context(), status);
            Object.assign(inputs, given);
            printHeader(given);
            const run = await runStep(action, { inputs, env: shellEnv });
            record.log = shown(run.stdout, record.annotations);
            record.outputs = run.outputs;
            record.summary = run.summary;
            Object.assign(env, run.env);
            prependPath(env, run.files.path ?? '');
            ok = run.exitCode === 0;
            if (spec.runs.post) {
              const postIf = spec.runs['post-if'] ?? 'success()';
              posts.unshift(async () => {
                log(`  ▸ Post ${name}`);
                if (!truthy(evaluate(postIf.replace(/^\$\{\{|\}\}$/g, '').trim(), context(), status))) return;
                const ran = await runStepPost(action, run, { inputs, env: shellEnv });
                record.post = { exitCode: ran.exitCode, log: shown(ran.stdout, record.annotations) };
                log(indent(record.post.log, 4));
                if (ran.exitCode !== 0) status.failed = true;
              });
            }
          }
        }
        if (record.log) log(indent(record.log, 4));
        const continueOnError =
          step['continue-on-error'] === true ||
          str(tokenValue(step['continue-on-error'], context(), status)) === 'true';
        record.outcome = ok ? 'success' : 'failure';
        record.conclusion = ok || continueOnError ? 'success' : 'failure';
        if (record.conclusion === 'failure') status.failed = true;
        steps[stepId] = { outcome: record.outcome, conclusion: record.conclusion, outputs: record.outputs };
        log(`    ${record.outcome}${ok ? '' : continueOnError ? ' (continue-on-error)' : ''}`);
        options.onStep?.(id, record);
      }
      for (const post of posts) await post();
      rmSync(runnerTemp, { recursive: true, force: true });
      // A job output that holds a masked value is dropped, with a warning, as the runner drops it: a
      // secret never crosses to another job this way.
      const outputs: Record<string, string> = {};
      for (const [name, value] of Object.entries(
        (tokenValue(job.outputs, { ...base, env, steps }, status) ?? {}) as Record<string, Json>,
      )) {
        const text = str(value);
        if (jobMasks.some((mask) => text.includes(mask)))
          log(`  Warning: Skip output '${name}' since it may contain secret.`);
        else outputs[name] = text;
      }
      const jobResult: JobResult = {
        result: status.failed ? 'failure' : 'success',
        outputs,
        steps: stepResults,
      };
      log(`  job ${label}: ${jobResult.result}`);
      return jobResult;
    };
    const strategy = tokenValue(job.strategy, { github, vars: options.vars ?? {} }, { failed: false });
    // fail-fast (the default): once a combination fails, GitHub cancels the others; here they are
    // run one at a time, so the ones not started yet are not started.
    const failFast = (strategy as { 'fail-fast'?: Json } | null)?.['fail-fast'] !== false;
    const runs: JobResult[] = [];
    for (const matrix of matrixOf(strategy)) {
      if (failFast && runs.some((run) => run.result === 'failure')) {
        log(`▶ job ${id} (${Object.values(matrix).map(str).join(', ')}): cancelled (fail-fast)`);
        continue;
      }
      runs.push(await runOne(matrix));
    }
    result.jobs[id] = combineRuns(runs);
  }
  return result;
}

/** A matrix job's result as `needs` sees it: failure if any run failed, the last run's outputs. */
function combineRuns(runs: JobResult[]): JobResult {
  if (runs.length === 1) return runs[0];
  const result = runs.some((run) => run.result === 'failure')
    ? 'failure'
    : runs.every((run) => run.result === 'skipped')
      ? 'skipped'
      : 'success';
  return { result, outputs: runs[runs.length - 1].outputs, steps: runs.flatMap((run) => run.steps) };
}

/** `$GITHUB_PATH`: each line a directory put first on PATH for the later steps, the last line first. */
function prependPath(env: Record<string, string>, file: string): void {
  for (const dir of file.split('\n').filter((line) => line.trim() !== ''))
    env.PATH = `${dir}:${env.PATH ?? process.env.PATH ?? ''}`;
}

/** The GITHUB_* variables a step sees, from the github context. */
function stringEnv(github: Record<string, Json>, eventPath: string): Record<string, string> {
  return {
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_API_URL: str(github.api_url ?? 'https://api.github.com'),
    GITHUB_EVENT_NAME: str(github.event_name),
    GITHUB_SHA: str(github.sha),
    GITHUB_REF: str(github.ref),
    GITHUB_REPOSITORY: str(github.repository),
    GITHUB_RUN_ID: str(github.run_id),
  };
}
