/**
 * The order a run's jobs are shown in: each job after the jobs it needs (`requiredJobKeys`), so the
 * summary reads as the pipeline runs. Jobs keep the service's order wherever the graph allows it,
 * and a graph the service returns with a cycle or a missing key still shows every job once.
 */

interface GraphJob {
  key: string;
  requiredJobKeys?: readonly string[] | null;
}

export function orderByNeeds<J extends GraphJob>(jobs: readonly J[]): J[] {
  const keys = new Set(jobs.map((job) => job.key));
  const placed = new Set<string>();
  const remaining = [...jobs];
  const ordered: J[] = [];
  while (remaining.length > 0) {
    // The first job (in the service's order) whose known upstream jobs are all shown; in a cycle,
    // none is ready, and the first remaining job breaks it.
    const ready = remaining.findIndex((job) =>
      (job.requiredJobKeys ?? []).every((key) => placed.has(key) || !keys.has(key) || key === job.key),
    );
    const [job] = remaining.splice(Math.max(ready, 0), 1);
    ordered.push(job);
    placed.add(job.key);
  }
  return ordered;
}
