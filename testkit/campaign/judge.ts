/** Judging a lifecycle that ran: its outcome against the plan's, and what it left behind. */
import type { Simulator } from '../../simulator/index.js';
import { SESSION_TERMINAL } from '../../src/service/contract.js';
import { STACK_TRACE, type ActionRun } from '../runner/step.js';
import type { LifecyclePlan } from './plan-types.js';
import { lastSavedSession } from '../world/session-state.js';

/** The post step's warning that a create whose answer was lost may have started a session. */
const MAY_EXIST = /^::warning[^:]*::.*device session may (be running|exist)/im;

type Terminal = (typeof SESSION_TERMINAL)[number];
const isTerminal = (status: string): status is Terminal =>
  (SESSION_TERMINAL as readonly string[]).includes(status);

/** One lifecycle as it ran, and what the judge found. */
export interface LifecycleResult {
  plan: LifecyclePlan;
  main?: ActionRun;
  post?: ActionRun;
  /** The signal reached the main step while it was still running. */
  signalled: boolean;
  /** The signal reached the post step while it was still stopping the session. */
  postSignalled: boolean;
  correct: boolean;
  problems: string[];
  leaked: number;
  /** Sessions whose id the action never learned, and the post step warned may exist (expected). */
  lostCreates: number;
  refusedStops: number;
  /** Post steps a signal reached: the session ended stopped / the post step failed naming it. */
  postSignalStopped: number;
  postSignalReported: number;
  /** Observations, not failures: see renderTable. */
  cancelledPostWithoutAnnotation: number;
  needlessWarnings: number;
  duplicates: number;
  hung: number;
  stackTraces: number;
  runs: number;
  sessions: number;
}

/**
 * Judges a lifecycle: its outcome against the plan's, the sessions and runs it left (each leak,
 * duplicate, hang and stack trace counted), into `result`.
 */
export function judge(result: LifecycleResult, sim: Simulator, knownId: string | undefined): void {
  const { plan, main, post } = result;
  const expected = plan.expected;
  const problems = result.problems;
  if (!main) return;

  result.runs = sim.runs().length;
  result.sessions = sim.sessions().length;
  result.duplicates = Math.max(0, result.runs - 1) + Math.max(0, result.sessions - 1);
  if (result.duplicates > 0) problems.push(`created ${result.runs} runs and ${result.sessions} sessions`);

  for (const [name, run] of [
    ['main', main],
    ['post', post],
  ] as const) {
    if (!run) continue;
    if (STACK_TRACE.test(run.stdout) || STACK_TRACE.test(run.stderr)) {
      result.stackTraces += 1;
      const trace = STACK_TRACE.test(run.stderr) ? run.stderr : run.stdout;
      problems.push(`${name} printed a stack trace: ${trace.slice(0, 400).replace(/\s+/g, ' ')}`);
    }
    if (run.stdout.includes('Unexpected error in the action')) problems.push(`${name}: unexpected error`);
  }
  if (main.exitCode !== 0 && main.errors.length === 0 && main.signal === null)
    problems.push('main failed without an error annotation');
  const lost = plan.lostCreate;
  if (lost?.variant === 'killed during a slow create') {
    // Killed as planned: nothing of the main step to judge but the state it saved first.
    if (!main.state['create-in-flight'])
      problems.push('the killed main step saved no create-in-flight state');
  } else if (result.signalled) {
    // A cancelled step never reports success; the normal outcome is fine if it had finished its work.
    const finishedFirst = main.exitCode === 0 && !main.stdout.includes('Received SIG');
    if (main.exitCode === 0 && !finishedFirst) problems.push('main exited 0 after a cancellation');
    // A request cut short by the cancellation is reported as the cancellation, not as a network error.
    if (main.errors.some((line) => /network error: aborted/.test(line)))
      problems.push('a cancelled request is reported as a network error');
  } else {
    if (main.exitCode !== expected.mainExit)
      problems.push(`main exited ${main.exitCode ?? main.signal}, expected ${expected.mainExit}`);
    if (expected.status === null && 'status' in main.outputs)
      problems.push(`status output ${main.outputs.status}, expected none`);
    if (expected.status && !expected.status.includes(main.outputs.status ?? '(none)'))
      problems.push(
        `status output ${main.outputs.status ?? '(none)'}, expected ${expected.status.join(' or ')}`,
      );
    if (expected.errorIncludes && !main.errors.some((line) => line.includes(expected.errorIncludes!)))
      problems.push(`main error does not mention "${expected.errorIncludes}"`);
  }

  if (!post) {
    // A run-workflow sub-action step: no post step at all.
  } else if (plan.postSignal) judgePostSignal(result, sim, knownId);
  else {
    if (post.exitCode !== 0 && post.errors.length === 0 && post.signal === null)
      problems.push('post failed without an error annotation');
    if (result.signalled || lost?.signal) {
      if (post.exitCode !== 0) problems.push(`post exited ${post.exitCode} after a cancellation`);
    } else if (post.exitCode !== expected.postExit)
      problems.push(`post exited ${post.exitCode}, expected ${expected.postExit}`);
    // The root action's post step after a step that started no session says nothing above debug.
    const said = post.stdout
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^::(debug|add-mask)::/.test(line));
    if (plan.command === 'run-workflow' && said.length > 0)
      problems.push(`the post step of a run-workflow step printed: ${said.join(' / ').slice(0, 300)}`);
  }

  if (plan.command === 'start-device-session') {
    const known = knownId ? sim.getSession(knownId) : undefined;
    if (known && expected.sessionEnd && !result.signalled) {
      const end = isTerminal(known.status) ? known.status : 'active';
      if (!expected.sessionEnd.includes(end))
        problems.push(`session ended ${known.status}, expected ${expected.sessionEnd.join(' or ')}`);
    }
    if (!known && expected.sessionEnd && !result.signalled) problems.push('no session id saved in state');
    const warned = MAY_EXIST.test(post?.stdout ?? '');
    if (warned && sim.sessions().length === 0) result.needlessWarnings += 1;
    for (const session of sim.activeSessions()) {
      if (session.id !== knownId) {
        // The id never reached the action: only a warning from the post step can point at it.
        if (warned) result.lostCreates += 1;
        else {
          result.leaked += 1;
          problems.push(
            `session ${session.id} active, its id unknown to the action, and the post step did not warn`,
          );
        }
      } else if (plan.postSignal) {
        // Judged in judgePostSignal.
      } else if (
        post &&
        plan.postFaults.some((f) => f.effect === 'fatal') &&
        post.exitCode === 1 &&
        post.errors.some((line) => line.includes(session.id))
      ) {
        result.refusedStops += 1;
      } else {
        result.leaked += 1;
        problems.push(`session ${session.id} left active`);
      }
    }
    if (lost && !warned) problems.push('the post step did not warn that a session may exist');
  }
  result.correct = problems.length === 0;
}

/**
 * A signal reached the post step while it was stopping the session. Correct: the session ended
 * stopped (or errored), or the post step exited 1 with an error annotation naming the session and its
 * URL. Never silent: never killed by the runner's escalation, never exit 0 with the session running.
 */
function judgePostSignal(result: LifecycleResult, sim: Simulator, knownId: string | undefined): void {
  const { main, post, problems } = result;
  if (!main || !post) return;
  const session = knownId ? sim.getSession(knownId) : undefined;
  if (!session) {
    problems.push('no session id saved in state for the post step');
    return;
  }
  const url = lastSavedSession(main)?.url ?? '';
  if (isTerminal(session.status)) {
    result.postSignalStopped += 1;
    if (post.exitCode !== 0 && post.errors.length === 0) result.cancelledPostWithoutAnnotation += 1;
    return;
  }
  const named = post.errors.some((line) => line.includes(session.id) && line.includes(url));
  if (post.exitCode === 1 && named) {
    result.postSignalReported += 1;
    return;
  }
  result.leaked += 1;
  problems.push(
    `session ${session.id} left ${session.status} after a ${result.plan.postSignal?.signal} during the post step's stop (${result.plan.postSignal?.variant}), ` +
      `post ${post.signal ? `killed by ${post.signal}` : `exited ${post.exitCode}`} ${named ? 'naming it' : 'without an error naming the session and its URL'}`,
  );
}
