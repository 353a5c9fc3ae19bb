/** The campaign's report: the table `npm run reliability` prints, and the lifecycles that went wrong. */
import { DEFAULT_RUNTIME } from '../runner/step.js';
import type { CampaignReport } from './campaign.js';
import { ENDPOINT_NAMES, FAULT_KINDS, MATCHERS, type Endpoint } from './faults.js';

/** The campaign's figures as a two-column table: what happened, and the goals (all zero but one). */
export function renderTable(report: CampaignReport): string {
  const rows: Array<[string, string]> = [];
  const faults = Object.values(report.faultsByKind).reduce((a, b) => a + b, 0);
  rows.push(['lifecycles run', String(report.lifecycles)]);
  for (const [command, n] of Object.entries(report.byCommand).sort())
    rows.push([
      `  ${command === 'start-device-session' ? 'start-device-session + post' : `${command} (+ post, root action only)`}`,
      String(n),
    ]);
  rows.push(['faults injected', String(faults)]);
  for (const kind of FAULT_KINDS) rows.push([`  ${kind}`, String(report.faultsByKind[kind] ?? 0)]);
  rows.push(['faults by endpoint', '']);
  for (const endpoint of Object.keys(MATCHERS) as Endpoint[])
    rows.push([`  ${ENDPOINT_NAMES[endpoint]}`, String(report.faultsByEndpoint[endpoint] ?? 0)]);
  const scenarioCount = (name: string): number =>
    Object.entries(report.byScenario)
      .filter(([key]) => key.endsWith(name))
      .reduce((a, [, n]) => a + n, 0);
  rows.push([
    '  session that errors (scenario)',
    String(scenarioCount('session errors before ready') + scenarioCount('session errors after ready')),
  ]);
  rows.push(['  run that is canceled (scenario)', String(scenarioCount('run canceled'))]);
  rows.push([
    'signals to the main step (SIGINT / SIGTERM), reaching it running',
    `${report.signals.SIGINT} / ${report.signals.SIGTERM}, ${report.signalsWhileRunning}`,
  ]);
  const postSignals = Object.values(report.postSignals).reduce((a, b) => a + b, 0);
  rows.push([
    'signals to the post step during its stop, reaching it stopping',
    `${postSignals}, ${report.postSignalsWhileStopping}`,
  ]);
  for (const [variant, n] of Object.entries(report.postSignals).sort())
    rows.push([`  ${variant}`, String(n)]);
  rows.push(['  session ended stopped', String(report.postSignalStopped)]);
  rows.push([
    '  not confirmed: post failed naming the session and its URL',
    String(report.postSignalReported),
  ]);
  const lostPlans = Object.values(report.lostCreatePlans).reduce((a, b) => a + b, 0);
  rows.push(['creates whose answer was lost (planned)', String(lostPlans)]);
  for (const [variant, n] of Object.entries(report.lostCreatePlans).sort())
    rows.push([`  ${variant}`, String(n)]);
  rows.push(['outcomes correct', `${report.correct} / ${report.lifecycles}`]);
  rows.push(['sessions left active at the end', String(report.leaked)]);
  rows.push(['runs or sessions created twice', String(report.duplicates)]);
  rows.push(['steps that hung', String(report.hung)]);
  rows.push(['stack traces printed', String(report.stackTraces)]);
  rows.push([
    '(expected, not leaks) create answer lost: post step warned a session may exist',
    String(report.lostCreates),
  ]);
  rows.push([
    '(expected) every stop refused, post step failed naming the session',
    String(report.refusedStops),
  ]);
  rows.push([
    '(observed) post cancelled, session stopped, exit 1 without an error annotation',
    String(report.cancelledPostWithoutAnnotation),
  ]);
  rows.push([
    '(observed) post warned a session may exist; none did (the main step could not tell)',
    String(report.needlessWarnings),
  ]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  const line = (label: string, value: string): string =>
    `| ${label.padEnd(width)} | ${value.padStart(valueWidth)} |`;
  return [
    `Fault campaign: seed ${report.seed}, ${report.lifecycles} lifecycles, concurrency ${report.concurrency}, on ${DEFAULT_RUNTIME}, ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    line('measure', 'value'),
    `|${'-'.repeat(width + 2)}|${'-'.repeat(valueWidth + 2)}|`,
    ...rows.map(([label, value]) => line(label, value)),
  ].join('\n');
}

/** One line per wrong lifecycle, with what went wrong and how to replay it. */
export function describeFailures(report: CampaignReport): string {
  return report.failures
    .map((result) => {
      const { plan } = result;
      const faults = [...plan.faults, ...plan.postFaults]
        .map((f) => `${f.endpoint}:${f.kind}×${f.times}`)
        .join(', ');
      const signal = plan.signal ? ` ${plan.signal.signal}@${plan.signal.afterMs}ms` : '';
      const postSignal = plan.postSignal
        ? ` post: ${plan.postSignal.signal} ${plan.postSignal.afterStopMs}ms after the stop arrived (${plan.postSignal.variant})`
        : '';
      const lost = plan.lostCreate
        ? ` create answer lost: ${plan.lostCreate.variant}${plan.lostCreate.signal ? ` (${plan.lostCreate.signal} ${plan.lostCreate.afterCreateMs}ms after the create arrived)` : ''}`
        : '';
      return `#${plan.index} (seed ${report.seed}) ${plan.command} via ${plan.entry === 'main' ? 'the root action' : 'its sub-action'} "${plan.scenario}"${signal}${postSignal}${lost} [${faults || 'no faults'}]: ${result.problems.join('; ')}`;
    })
    .join('\n');
}
