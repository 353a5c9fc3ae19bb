/**
 * The bench's table: one row per figure (figure | measured | budget | met?), shown on stderr as each is
 * measured and printed at the end with the notes, and the little arithmetic the figures share.
 *
 * Judged fairly: a time budget is a ratio to the run's own baseline (the median start-up of a bare
 * `node -e 0` on the step's runtime, measured first: `setBaseline`), judged on the median of several
 * runs (`timedRow`); and when the load average exceeds the number of cores, time figures are printed
 * "not judged" rather than failing (`judgedOnTime`). Count budgets (requests, writes, bytes) stay absolute.
 */
import { cpus, loadavg } from 'node:os';

/** One figure of the table. */
export interface Row {
  figure: string;
  measured: string;
  budget: string;
  met: boolean | undefined;
}
const rows: Row[] = [];
const notes: string[] = [];

/** Adds a figure to the table (`met` undefined: reported, no budget). */
export function row(figure: string, measured: string, budget: string, met: boolean | undefined): void {
  rows.push({ figure, measured, budget, met });
  process.stderr.write(`  ${met === undefined ? '·' : met ? '✓' : '✗'} ${figure}: ${measured}\n`);
}

let baselineMs: number | undefined;

/** The run's unit of time: the median start-up of `node -e 0`, measured before any figure. */
export function setBaseline(ms: number): void {
  baselineMs = ms;
}

/** Why time figures are not judged now (a load average above the number of cores), or undefined. */
function busy(): string | undefined {
  const load = loadavg()[0];
  const cores = cpus().length;
  return load > cores ? `not judged: load average ${load.toFixed(2)} > ${cores} cores` : undefined;
}

/** A time figure's row: as `row`, but printed "not judged" on a machine busier than its cores. */
export function judgedOnTime(figure: string, measured: string, budget: string, met: boolean): void {
  const why = busy();
  row(figure, measured, why ? `${budget}; ${why}` : budget, why ? undefined : met);
}

/** A time figure from several runs: their median against `units` × the run's baseline. */
export function timedRow(figure: string, samples: number[], units: number): void {
  if (baselineMs === undefined) throw new Error('timedRow before setBaseline');
  const value = median(samples);
  const limit = units * baselineMs;
  judgedOnTime(
    figure,
    `${ms(value)} = ${(value / baselineMs).toFixed(1)}× node -e 0 (median of ${samples.length}: ${samples.map(ms).join(', ')})`,
    `≤ ${units}× node -e 0 (${ms(limit)} in this run)`,
    value <= limit,
  );
}

/** Adds a line printed under the table. */
export function note(text: string): void {
  notes.push(text);
}

export const MB = 1024 * 1024;
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
export const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
export const ms = (value: number): string => `${Math.round(value)} ms`;
export const mb = (bytes: number): string => `${(bytes / MB).toFixed(2)} MB`;

/** Prints the table, the notes and which budgets were missed. */
export function print(): void {
  const headers = ['figure', 'measured', 'budget', 'met?'];
  const cells = rows.map((r) => [
    r.figure,
    r.measured,
    r.budget,
    r.met === undefined ? '—' : r.met ? 'yes' : 'NO',
  ]);
  const lines = [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...cells.map(
      (c) => `| ${c.map((cell) => cell.replace(/\s+/g, ' ').replace(/\|/g, '\\|')).join(' | ')} |`,
    ),
  ];
  console.log(lines.join('\n'));
  console.log('');
  for (const line of notes) console.log(line);
  const missed = rows.filter((r) => r.met === false);
  console.log(
    missed.length === 0
      ? 'All budgets met.'
      : `Budgets missed (${missed.length}): ${missed.map((r) => r.figure).join('; ')}`,
  );
  // A missed budget fails the run, so CI or a reviewer cannot read past it.
  if (missed.length > 0) process.exitCode = 1;
}
