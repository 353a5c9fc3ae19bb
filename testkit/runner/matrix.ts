/** A job's `strategy.matrix` for the workflow engine: the combinations its job runs once each. */
import type { Json } from './expressions.js';

/**
 * The combinations of a job's `strategy.matrix`: the product of its lists, less `exclude`, then each
 * `include` added to every combination it does not contradict, or as one more (GitHub's rules, for
 * the shapes the recipes use). `[{}]` without a strategy: the job runs once.
 */
export function matrixOf(strategy: Json): Array<Record<string, Json>> {
  const matrix = (strategy as { matrix?: Record<string, Json> } | null)?.matrix;
  if (!matrix) return [{}];
  const { include = [], exclude = [], ...lists } = matrix as Record<string, Json[]>;
  let combinations: Array<Record<string, Json>> = [{}];
  for (const [key, values] of Object.entries(lists))
    combinations = combinations.flatMap((combination) =>
      values.map((value) => ({ ...combination, [key]: value })),
    );
  const matches = (combination: Record<string, Json>, partial: Record<string, Json>): boolean =>
    Object.entries(partial).every(
      ([key, value]) => JSON.stringify(combination[key]) === JSON.stringify(value),
    );
  combinations = combinations.filter(
    (combination) => !(exclude as Array<Record<string, Json>>).some((out) => matches(combination, out)),
  );
  if (Object.keys(lists).length === 0) combinations = [];
  for (const extra of include as Array<Record<string, Json>>) {
    const original = Object.keys(lists);
    const fitting = combinations.filter((combination) =>
      original.every(
        (key) => !(key in extra) || JSON.stringify(extra[key]) === JSON.stringify(combination[key]),
      ),
    );
    if (fitting.length > 0 && Object.keys(lists).length > 0)
      for (const combination of fitting) Object.assign(combination, extra);
    else combinations.push({ ...extra });
  }
  return combinations.length > 0 ? combinations : [{}];
}
