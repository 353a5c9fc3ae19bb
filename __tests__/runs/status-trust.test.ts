/**
 * What the pull request shows can be trusted (issue 30), each step run in process from the sources
 * against a fake GitHub that records every request: a commit status says `success` only when the
 * step's verdict on a run of that exact commit does; what the step posted is settled when GitHub
 * lets it (__tests__/github/status-limits.test.ts: what is left pending when it does not); two jobs
 * or two steps never share a context silently, whatever the case of its letters; GitHub's failures
 * are retried and told as what they are; the posts are bounded; a dry run tells GitHub nothing;
 * every description is true.
 *
 * Each case states the states GitHub ends with, per context and commit, and the requests it got.
 * Through the bundle, in __tests__/e2e/runs-bundles.test.ts: the statuses on an explicit git-ref's
 * commit, and the cases that need a process of the step's own (two legs at once; GitHub unreachable,
 * or failing, when the step is cancelled with SIGINT); in __tests__/e2e/status-trust-bundles.test.ts:
 * the commit binding, the comment's ✅, a job key echoing the token, two legs one after the other and
 * the dry run; in __tests__/e2e/bounds-bundles.test.ts: flapping jobs, posted one write a second.
 */
import { virtualStepClockEachTest } from '../../testkit/world/world-hooks.js';
import { IN_PROCESS, runStep, type ActionRun } from '../../testkit/runner/in-process.js';
import { followRunStep, mutateRunReads, until, type World } from '../../testkit/world/world.js';
import { workflow } from '../../testkit/docs/workflows.js';
import type { GitHubStandIn, PostedStatus } from '../../simulator/index.js';
import { markerOf, parseMarker } from '../../src/github/status-marker.js';
import {
  closeGitHubWorld,
  resetStatusesWorld,
  statusPostsTo,
  statusWords,
  warningTexts as warnings,
} from '../../testkit/world/github-world.js';
import {
  STATUSES_TOKEN as TOKEN,
  TRUST_GITHUB_RUN as GITHUB_RUN,
  createTrustWorld,
  trustEnv,
  trustGate,
  type TrustWorld,
} from '../../testkit/world/status-fixtures.js';

const OTHER_SERVICE_RUN = '0b0b0b0b-0000-4000-8000-000000000001';

let fixture: TrustWorld;
let world: World;
let github: GitHubStandIn;
/** The pull request's head commit (main), and another commit on branch `release`. */
let head: string;
let release: string;
beforeAll(async () => {
  fixture = await createTrustWorld(10);
  ({ world, github, head, release } = fixture);
});
afterAll(() => closeGitHubWorld(fixture));
// The step clock of every gate here: writes a second apart and the settle window pass in no time.
virtualStepClockEachTest();
beforeEach(() => resetStatusesWorld(fixture));

const env = (extra: Record<string, string> = {}): Record<string, string> => trustEnv(fixture, extra);

function gate(
  inputs: Record<string, string>,
  options: { env?: Record<string, string> } = {},
): Promise<ActionRun> {
  return trustGate(IN_PROCESS, fixture, inputs, options);
}

/** A description's words, without the marker. */
const words = (status: PostedStatus | undefined) => statusWords(status?.description);
const statusPosts = () => statusPostsTo(github);

describe('1. commit binding: every state on the run’s own commit, never before the read that shows it', () => {
  it('wait-for-run refuses a run of another commit: no state is set anywhere', async () => {
    const dispatched = await runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'release', wait: 'false' },
    });
    await until(() => world.sim.runs().find((run) => run.status === 'success'));
    const followed = await followRunStep(
      IN_PROCESS,
      world,
      dispatched.outputs['run-id'],
      {
        'commit-statuses': 'true',
        'status-context': 'svc/gate',
        'expected-commit': head,
        'github-token': TOKEN,
      },
      { env: env() },
    );
    expect(followed.exitCode).toBe(1);
    expect(followed.stdout).toContain(`is a run of commit ${release}, not of the expected commit ${head}`);
    expect(github.statuses).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it("wait-for-run with expected-commit '': the statuses go on the run’s commit (main’s), not the pull request’s head", async () => {
    const dispatched = await runStep('run-workflow', {
      inputs: { ...world.api, workflow: 'pipeline.yml', 'git-ref': 'release', wait: 'false' },
    });
    const followed = await followRunStep(
      IN_PROCESS,
      world,
      dispatched.outputs['run-id'],
      {
        'commit-statuses': 'true',
        'status-context': 'svc/gate',
        'expected-commit': '',
        'github-token': TOKEN,
      },
      { env: env() },
    );
    expect(followed.exitCode).toBe(0);
    expect(github.states(head)).toEqual({});
    expect(github.states(release)['svc/gate']).toBe('success');
  });

  it('a run that names no whole commit sets no state, and says why', async () => {
    mutateRunReads(world, (run) => (run.gitCommitHash = 'abc1234'));
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    expect(github.statuses).toEqual([]);
    expect(warnings(run)).toEqual([
      expect.stringContaining(
        'the run does not name its commit as a whole SHA (`gitCommitHash`), so no commit status is posted',
      ),
    ]);
  });

  it('every description ends with the run id and the GitHub run as a marker, never cut', async () => {
    const longKey = `needs_${'x'.repeat(90)}`;
    world.repo.commit(
      { 'long.yml': workflow('Long', { [longKey]: {}, after: { needs: [longKey] } }) },
      'Long keys',
      'long',
    );
    world.sim.setJobBehaviour(longKey, { outcome: 'failure' });
    const run = await gate({
      workflow: 'long.yml',
      'git-ref': 'long',
      'status-context': `svc/${'c'.repeat(56)}`,
    });
    expect(run.exitCode).toBe(1);
    const poster = { serviceRunId: run.outputs['run-id'], githubRunId: GITHUB_RUN, githubAttempt: '1' };
    const marker = markerOf(poster);
    // The compact form (src/github/status-marker.ts): `~`, the UUID in 22 characters, 777 in base 36.
    expect(marker).toMatch(/^\[svc:~[\w-]{22}\/ll\.1\]$/);
    for (const status of github.statuses) {
      expect(status.description!.endsWith(` ${marker}`)).toBe(true);
      expect(parseMarker(status.description)).toEqual(poster);
      expect(status.description!.length).toBeLessThanOrEqual(140);
    }
    // The words were cut to fit, the marker was not.
    const skipped = github.statuses.filter((status) => status.context.includes('/after')).at(-1);
    expect(skipped?.state).toBe('failure');
    expect(words(skipped)).toMatch(/^Skipped: needed job needs_x+ …$|^Skipped: needed job …$/);
  });
});

describe('1. the comment names the commit the run tested', () => {
  it('✅ only for a run of the commit under review; a run of another commit says which commit it tested', async () => {
    const run = await gate({ 'commit-statuses': 'false', comment: 'true', 'git-ref': 'release' });
    expect(run.exitCode).toBe(0);
    const body = github.comments.at(-1)?.body ?? '';
    const heading = body.split('\n')[1];
    expect(heading).not.toContain('✅');
    expect(heading).toContain(
      `the run succeeded on commit \`${release.slice(0, 12)}\`, which is not the commit under review (\`${head.slice(0, 12)}\`)`,
    );
    expect(body).toContain(`for commit \`${release.slice(0, 12)}\``);
  });
});

describe('2. one context, one job', () => {
  it('a key the service lists twice (or two keys the contract flattens to one): error, never the last job listed', async () => {
    world.sim.setJobBehaviour('e2e', { outcome: 'failure' });
    mutateRunReads(world, (run) => {
      const e2e = run.jobs.find((job) => job.key === 'e2e');
      // `e2e` again, written with a line break the contract flattens: the same key to the action.
      if (e2e)
        run.jobs.push({ ...e2e, id: `${String(e2e.id).slice(0, -1)}9`, key: 'e2e', status: 'success' });
      const report = run.jobs.find((job) => job.key === 'report');
      if (report)
        run.jobs.push({
          ...report,
          id: `${String(report.id).slice(0, -1)}8`,
          key: 'report\n',
          status: 'success',
        });
    });
    const run = await gate({});
    expect(run.exitCode).toBe(1);
    const e2e = github.latest(head, 'svc/pipeline/e2e');
    expect(e2e?.state).toBe('error');
    expect(words(e2e)).toBe('Ambiguous: the run lists job e2e twice');
    expect(github.latest(head, 'svc/pipeline/report')?.state).toBe('error');
    expect(github.latest(head, 'svc/pipeline')?.state).toBe('failure');
  });
});

describe('2. contexts compared as GitHub compares them, ignoring case', () => {
  it('job keys build and Build: one ambiguous context, error, never what the last job listed says', async () => {
    world.repo.commit(
      { 'cased.yml': workflow('Cased', { build: {}, Build: {} }) },
      'Keys that differ in case',
      'cased',
    );
    const run = await gate({ workflow: 'cased.yml', 'git-ref': 'cased' });
    expect(run.exitCode).toBe(0);
    const contexts = [...new Set(github.statuses.map((status) => status.context))];
    expect(contexts).toEqual(['svc/cased', 'svc/cased/build']);
    const build = github.statuses.filter((status) => status.context === 'svc/cased/build').at(-1);
    expect(build?.state).toBe('error');
    expect(words(build)).toBe('Ambiguous: jobs build and Build share it');
  });
});

describe('2b. a job key that echoes a secret', () => {
  it('never becomes a context: GitHub would keep it for good; the other contexts are posted', async () => {
    world.sim.injectFault({
      method: 'GET',
      path: '/v2/workflows/runs/',
      kind: 'mutate',
      times: 1000,
      mutate: (json) => {
        const envelope = json as { data?: { jobs?: Array<Record<string, unknown>> } };
        const jobs = envelope.data?.jobs;
        if (jobs?.[0])
          jobs.push({ ...jobs[0], id: '0c0c0c0c-0000-4000-8000-00000000000c', key: `leak-${world.token}` });
        return envelope;
      },
    });
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    expect(github.statuses.length).toBeGreaterThan(0);
    for (const status of github.statuses) {
      expect(status.context).not.toContain(world.token);
      expect(status.description ?? '').not.toContain(world.token);
    }
    expect(github.states(head)['svc/pipeline']).toBe('success');
  });
});

describe('3. two steps, one context', () => {
  /**
   * A status another step posted on the head commit: by this major version's gate, or by the previous
   * one's (the old form of the marker), which the check reads alike for one major version.
   */
  const seed = (context: string, state: string, githubRun: string, attempt: string, form = 'compact') =>
    github.statuses.push({
      sha: head,
      context,
      state,
      description:
        form === 'old'
          ? `Failed [svc:${OTHER_SERVICE_RUN} gh:${githubRun}/${attempt}]`
          : `Failed ${markerOf({ serviceRunId: OTHER_SERVICE_RUN, githubRunId: githubRun, githubAttempt: attempt })}`,
    });

  it.each(['compact', 'old'])(
    'another service run posted from this GitHub run and attempt (a matrix leg), its marker in the %s form: error naming status-context, one warning',
    async (form) => {
      seed('svc/pipeline', 'failure', GITHUB_RUN, '1', form);
      seed('svc/pipeline/e2e', 'failure', GITHUB_RUN, '1', form);
      const run = await gate({});
      expect(run.exitCode).toBe(0);
      for (const context of ['svc/pipeline', 'svc/pipeline/e2e']) {
        expect(github.latest(head, context)?.state).toBe('error');
        expect(words(github.latest(head, context))).toContain('set status-context per step');
      }
      expect(github.latest(head, 'svc/pipeline/build')?.state).toBe('success');
      const said = warnings(run);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('Give each step its own `status-context`');
      // Read back before posting: GitHub got the list first.
      expect(github.requests[0]).toMatchObject({
        method: 'GET',
        path: expect.stringContaining(`/commits/${head}/statuses`),
      });
    },
  );

  it('another leg whose status-context differs only in case shares the context, as GitHub compares it: error', async () => {
    seed('SVC/Pipeline', 'failure', GITHUB_RUN, '1');
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    expect(github.latest(head, 'svc/pipeline')?.state).toBe('error');
    expect(warnings(run)).toEqual([expect.stringContaining('Give each step its own `status-context`')]);
  });

  it('a later attempt of the same GitHub run replaces the old status: no collision, no warning', async () => {
    seed('svc/pipeline', 'failure', GITHUB_RUN, '1');
    const run = await gate({}, { env: { GITHUB_RUN_ATTEMPT: '2' } });
    expect(run.exitCode).toBe(0);
    expect(github.latest(head, 'svc/pipeline')?.state).toBe('success');
    expect(warnings(run)).toEqual([]);
  });

  it.each(['compact', 'old'])(
    'another workflow run on the same commit, its marker in the %s form: replaced, with a warning naming both',
    async (form) => {
      seed('svc/pipeline', 'failure', '19283746501', '1', form);
      const run = await gate({});
      expect(github.latest(head, 'svc/pipeline')?.state).toBe('success');
      expect(warnings(run)).toEqual([
        expect.stringContaining(
          `was also posted by GitHub run 19283746501 (service run ${OTHER_SERVICE_RUN}); this step's (GitHub run ${GITHUB_RUN}, service run ${run.outputs['run-id']}) replaces it`,
        ),
      ]);
    },
  );

  it('the sticky comment of run-workflow is keyed by its settings: two legs with other inputs keep two comments', async () => {
    const leg = (platform: string) =>
      gate({ 'commit-statuses': 'false', comment: 'true', inputs: `platform: ${platform}` });
    await leg('ios');
    await leg('android');
    expect(github.comments).toHaveLength(2);
    await leg('ios');
    expect(github.comments).toHaveLength(2);
    expect(github.requests.filter((request) => request.method === 'PATCH')).toHaveLength(1);
  });
});

describe('4. GitHub failing or limiting: retried, and told as such', () => {
  it('a 502 from GitHub is retried and later changes are still posted: the run ends success, nothing pending', async () => {
    github.nextStatusAnswers = [{ status: 502 }];
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    for (const [context, state] of Object.entries(github.states(head)))
      expect([context, state]).toEqual([context, 'success']);
    expect(Object.keys(github.states(head))).toHaveLength(4);
    expect(warnings(run)).toEqual([]);
    expect(run.stdout).toContain('Commit statuses: GitHub answered 502; trying again in');
  });

  it('a 403 with retry-after is a rate limit: waited out and retried, never reported as a missing permission', async () => {
    github.nextStatusAnswers = [
      { status: 403, headers: { 'retry-after': '1' }, message: 'You have exceeded a secondary rate limit.' },
      { status: 429, headers: { 'retry-after': '1' } },
    ];
    const run = await gate({});
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('statuses: write');
    expect(run.stdout).toContain(
      "Commit statuses: GitHub's secondary rate limit (403) was reached; trying again in 1 s.",
    );
    expect(github.latest(head, 'svc/pipeline')?.state).toBe('success');
    expect(warnings(run)).toEqual([]);
  });
});

describe("4. GitHub's answers: words, never an unexpected error, and the gate's result as it would be", () => {
  it.each([401, 403, 404, 422, 429, 500, 502])(
    'every request to GitHub answered %i: statuses and the comment each say so; the step passes',
    async (status) => {
      github.failWith = status;
      const run = await gate({ comment: 'true' }).finally(() => (github.failWith = undefined));
      expect(run.exitCode).toBe(0);
      expect(run.stdout).not.toContain('Unexpected error');
      expect(run.errors).toEqual([]);
      expect(warnings(run)).toContainEqual(
        expect.stringMatching(/^Could not post the pull request comment: /),
      );
      expect(run.stdout).not.toContain('Resource not accessible by integration');
    },
  );
});

describe('5. bounded', () => {
  it('100 jobs flapping between states on every read: at most one post per context per read, under the budget', async () => {
    const jobs = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`job_${i}`, {}]));
    const flap = world.repo.commit({ 'flap.yml': workflow('Flap', jobs) }, 'Flapping jobs', 'flap');
    // The jobs run until the test ends them: once the step has read them flapping more than ten times.
    for (let i = 0; i < 100; i++) world.sim.setJobBehaviour(`job_${i}`, { durationMs: 600_000 });
    let reads = 0;
    mutateRunReads(world, (run) => {
      reads++;
      if (run.status === 'success') return;
      for (const job of run.jobs) job.status = reads % 2 ? 'new' : 'in-progress';
    });
    // This case is about the gate's own bound, not GitHub's 80 writes a minute (which it passes in
    // real time): the stand-in lets its 122 posts through.
    github.configure({ limits: { writesPerMinute: 500 } });
    const pending = gate({ workflow: 'flap.yml', 'git-ref': 'flap' });
    await until(() => reads > 10);
    const [flapping] = world.sim.runs();
    for (let i = 0; i < 100; i++) world.sim.finishJob(flapping.id, `job_${i}`);
    const run = await pending;
    expect(run.exitCode).toBe(0);
    expect(reads).toBeGreaterThan(10);
    expect(statusPosts().length).toBeLessThanOrEqual(250);
    // 61 contexts (the run and the first 60 jobs): a first post and a final one each at most; the
    // flaps in between are the intermediate states that pacing leaves out within the first minute.
    const perContext = new Map<string, number>();
    for (const status of github.statuses)
      perContext.set(status.context, (perContext.get(status.context) ?? 0) + 1);
    expect(perContext.size).toBe(61);
    expect(Math.max(...perContext.values())).toBeLessThanOrEqual(2);
    const states = github.states(flap);
    expect(Object.values(states).every((state) => state === 'success')).toBe(true);
  });
});

describe('6. a dry run says nothing to GitHub; a dispatch is not a success', () => {
  it('dry-run: true writes no comment and no status, and says so', async () => {
    const run = await gate({ 'dry-run': 'true', comment: 'true' });
    expect(run.exitCode).toBe(0);
    expect(github.requests).toEqual([]);
    expect(run.stdout).toContain('nothing was written to GitHub (no commit status, no pull request comment)');
    expect(run.stdout).toContain('Dry run: no pull request comment was posted.');
  });

  it('wait: false: the comment says dispatched, not followed, with the run’s link; never ✅', async () => {
    const run = await gate({ 'commit-statuses': 'false', comment: 'true', wait: 'false' });
    expect(run.exitCode).toBe(0);
    const body = github.comments.at(-1)?.body ?? '';
    expect(body).toContain('🚀 dispatched, not followed');
    expect(body).not.toContain('✅');
    expect(body).toContain(run.outputs['run-url']);
  });
});

describe('7. descriptions that are true', () => {
  it('a `jobs` key the run does not have: the run’s context says so, not "the listed jobs ended first"', async () => {
    const run = await gate({ jobs: 'build,e2e_typo' });
    expect(run.exitCode).toBe(1);
    const said = github.latest(head, 'svc/pipeline');
    expect(said?.state).toBe('failure');
    expect(words(said)).toBe('`jobs` names jobs the run does not have');
    expect(github.statuses.map(words)).not.toContain('Not followed to its end: the listed jobs ended first');
    world.sim.cancelRun(run.outputs['run-id']);
  });

  it('a skipped job names a needed job only once that job has ended without success', async () => {
    mutateRunReads(world, (run) => {
      const report = run.jobs.find((job) => job.key === 'report');
      const e2e = run.jobs.find((job) => job.key === 'e2e');
      if (report && e2e && e2e.status !== 'success') {
        report.status = 'skipped';
        report.requiredJobKeys = ['e2e'];
      }
    });
    // e2e ends once the step has posted the report skipped and e2e has started: the step sees e2e
    // going, then succeeded, however late a busy machine let it read (a 400 ms job could end before
    // its first read). The report may be posted skipped while e2e still waits for build: ending e2e
    // then would be ending a job that has not started.
    world.sim.setJobBehaviour('e2e', { durationMs: 600_000 });
    const pending = gate({ jobs: 'report' });
    const running = await until(() =>
      github.statuses.some((status) => status.context === 'svc/pipeline/report')
        ? world.sim.runs().find((run) => run.jobs.find((job) => job.key === 'e2e')?.status === 'in-progress')
        : undefined,
    );
    world.sim.finishJob(running.id, 'e2e');
    const run = await pending;
    const said = github.statuses.filter((status) => status.context === 'svc/pipeline/report').map(words);
    expect(said[0]).toBe('Skipped');
    expect(said).not.toContain('Skipped: needed job e2e did not succeed');
    world.sim.cancelRun(run.outputs['run-id']);
  });

  it('a canceled run: the comment says canceled, not "the step failed"', async () => {
    world.sim.setJobBehaviour('e2e', { durationMs: 60_000 });
    const pending = gate({ comment: 'true' });
    const running = await until(() =>
      world.sim.runs().find((run) => run.jobs.find((job) => job.key === 'e2e')?.status === 'in-progress'),
    );
    world.sim.cancelRun(running.id);
    const run = await pending;
    expect(run.outputs.outcome).toBe('canceled');
    const body = github.comments.at(-1)?.body ?? '';
    expect(body).toContain('⏹️ the run was canceled');
    expect(body).not.toContain('the step failed');
    expect(body).not.toContain('Why it failed');
  });
});
