/**
 * The order a run's jobs are shown in: each job after the jobs it needs (`requiredJobKeys`), so the
 * summary reads as the pipeline runs. Jobs keep the service's order wherever the graph allows it,
 * and a graph the service returns with a cycle or a missing key still shows every job once.
 *
 * The answer is the service's (and, through the workflow file, a pull request author's): 50,000 jobs
 * fit under the answer limit. So the work is (n + e) log n: keys are looked up in a map, each edge is
 * followed once, and the ready jobs wait in a heap by their place in the service's order, never a
 * scan of every remaining job per placement.
 */
import type { WorkflowJob } from '../service/contract.js';

type GraphJob = Pick<WorkflowJob, 'key' | 'requiredJobKeys'>;

export function orderByNeeds<J extends GraphJob>(jobs: readonly J[]): J[] {
  const indexOf = new Map<string, number>();
  jobs.forEach((job, index) => {
    if (!indexOf.has(job.key)) indexOf.set(job.key, index);
  });
  // For each job: how many of the jobs it needs are not shown yet, and which jobs need it.
  const waitingFor = new Array<number>(jobs.length).fill(0);
  const neededBy: number[][] = jobs.map(() => []);
  jobs.forEach((job, index) => {
    // A key it needs twice counts once; itself and keys the run does not have do not count.
    for (const key of new Set(job.requiredJobKeys ?? [])) {
      const upstream = indexOf.get(key);
      if (upstream === undefined || upstream === index) continue;
      waitingFor[index] += 1;
      neededBy[upstream].push(index);
    }
  });
  const ready = new MinHeap();
  waitingFor.forEach((count, index) => {
    if (count === 0) ready.push(index);
  });
  const placed = new Array<boolean>(jobs.length).fill(false);
  const ordered: J[] = [];
  // The first job not shown yet, in the service's order: it breaks a cycle when none is ready.
  let firstRemaining = 0;
  while (ordered.length < jobs.length) {
    let next = ready.pop();
    if (next === undefined) {
      while (placed[firstRemaining]) firstRemaining += 1;
      next = firstRemaining;
    }
    if (placed[next]) continue;
    placed[next] = true;
    ordered.push(jobs[next]);
    for (const downstream of neededBy[next]) {
      waitingFor[downstream] -= 1;
      if (waitingFor[downstream] === 0 && !placed[downstream]) ready.push(downstream);
    }
  }
  return ordered;
}

/** The ready jobs by their index in the service's order, the first one on top. */
class MinHeap {
  private readonly items: number[] = [];

  push(value: number): void {
    const items = this.items;
    let at = items.push(value) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent] <= value) break;
      items[at] = items[parent];
      at = parent;
    }
    items[at] = value;
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= items.length) break;
      const child = left + 1 < items.length && items[left + 1] < items[left] ? left + 1 : left;
      if (items[child] >= last) break;
      items[at] = items[child];
      at = child;
    }
    items[at] = last;
    return top;
  }
}
