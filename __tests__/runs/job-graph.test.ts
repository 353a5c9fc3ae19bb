/** The order of a run's jobs in the summary: each after the jobs it needs. */
import { orderByNeeds } from '../../src/runs/job-graph.js';

const job = (key: string, requiredJobKeys: string[] = [], type = 'custom') => ({
  key,
  requiredJobKeys,
  type,
});
const keys = (jobs: Array<{ key: string }>) => jobs.map((each) => each.key);

describe('orderByNeeds', () => {
  it('puts each job after the jobs it needs, keeping the service order otherwise', () => {
    const jobs = [job('report', ['test']), job('test', ['build']), job('build'), job('lint')];
    expect(keys(orderByNeeds(jobs))).toEqual(['build', 'test', 'report', 'lint']);
    const ordered = [job('a'), job('b', ['a']), job('c'), job('d', ['b', 'c'])];
    expect(orderByNeeds(ordered)).toEqual(ordered);
  });

  it('tolerates cycles, self-needs, unknown keys and missing requiredJobKeys: every job once', () => {
    const jobs = [
      job('x', ['y']),
      job('y', ['x']),
      job('self', ['self']),
      job('orphan', ['gone']),
      { key: 'bare', requiredJobKeys: null },
      { key: 'after-x', requiredJobKeys: ['x'] },
    ];
    expect(keys(orderByNeeds(jobs))).toEqual(['self', 'orphan', 'bare', 'x', 'y', 'after-x']);
  });

  it('a job made ready later goes before later jobs of the service order, never before earlier ready ones', () => {
    const jobs = [job('a', ['c']), job('b'), job('c'), job('d', ['c', 'c', 'gone'])];
    expect(keys(orderByNeeds(jobs))).toEqual(['b', 'c', 'a', 'd']);
  });

  it('a chain listed backwards, each job needing the next: the last listed first, every job once', () => {
    const count = 2000;
    const jobs = Array.from({ length: count }, (_, i) => job(`j${i}`, i + 1 < count ? [`j${i + 1}`] : []));
    const ordered = keys(orderByNeeds(jobs));
    expect(ordered).toEqual(jobs.map((each) => each.key).reverse());
  });
});
