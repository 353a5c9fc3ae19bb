/** What `jobs` selects: job keys and `type:` selectors. */
import { selectJobs } from '../../src/runs/job-selection.js';

const job = (key: string, requiredJobKeys: string[] = [], type = 'custom') => ({
  key,
  requiredJobKeys,
  type,
});
const keys = (jobs: Array<{ key: string }>) => jobs.map((each) => each.key);

describe('selectJobs', () => {
  const jobs = [
    job('build_ios', [], 'build'),
    job('build_android', [], 'build'),
    job('submit', [], 'submission'),
  ];

  it('selects by key and by type, in the run order, each job once', () => {
    const { selected, unmatched } = selectJobs(jobs, ['submit', 'type:build', 'build_ios']);
    expect(keys(selected)).toEqual(['build_ios', 'build_android', 'submit']);
    expect(unmatched).toEqual([]);
  });

  it('names the selectors that pick no job: an unknown key or type', () => {
    expect(selectJobs(jobs, ['build_web', 'type:deploy', 'type:build']).unmatched).toEqual([
      'build_web',
      'type:deploy',
    ]);
  });
});
