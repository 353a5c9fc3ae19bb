/**
 * The demo's loop that holds no runner (issue 41 item 4), with sync-statuses/README.md's two workflows
 * as written: on pull request #2 (a commit of its own, on branch `feature`), "PR gate that holds no
 * runner" dispatches with `wait: false` and leaves `pending` statuses; the pull request is shown with
 * them; the run ends on the service while no runner waits for it; "Settle svc commit statuses", run by
 * hand (`workflow_dispatch`), settles them with sync-statuses; the pull request is shown again.
 */
import type { MemoryRepo, Simulator } from '../../simulator/index.js';
import { findRecipe } from '../../testkit/docs/recipes.js';
import { pullRequestView } from '../../testkit/docs/pull-request-view.js';
import { runWorkflow } from '../../testkit/runner/workflow.js';

type Engine = Parameters<typeof runWorkflow>[1];

export interface NoRunnerOptions {
  sim: Simulator;
  repo: MemoryRepo;
  /** The demo's engine settings (secrets, vars, log); `github` is replaced by each workflow's event. */
  engine: Engine;
  /** Records a problem when `condition` is false. */
  expect: (condition: boolean, what: string) => void;
  heading: (text: string) => void;
}

const NUMBER = 2;

export async function noRunnerLoop({ sim, repo, engine, expect, heading }: NoRunnerOptions): Promise<void> {
  const github = sim.github;
  repo.branch('feature', repo.headSha);
  const head = repo.commit({}, 'Change the app', 'feature');
  const pr = github.addPullRequest({ number: NUMBER, head, title: 'A change gated without a runner' });
  const contexts = (): string[] => Object.keys(github.states(head));
  const show = (): void => {
    for (const line of pullRequestView(github, pr)) console.log(line);
  };

  heading('A gate that holds no runner: sync-statuses/README.md\'s "PR gate that holds no runner"');
  const gate = findRecipe('sync-statuses/README.md', 'PR gate that holds no runner')!;
  const dispatched = await runWorkflow(gate.text, {
    ...engine,
    github: {
      event_name: 'pull_request',
      sha: head,
      ref: `refs/pull/${NUMBER}/merge`,
      repository: 'acme/app',
      api_url: github.url,
      event: { pull_request: { number: NUMBER, head: { sha: head, ref: 'feature' } } },
    },
  });
  const step = dispatched.jobs.dispatch.steps[0];
  const runId = step.outputs['run-id'] ?? '';
  expect(
    step.outcome === 'success' && step.outputs.outcome === 'dispatched' && runId !== '',
    'the gate that holds no runner should dispatch and exit',
  );

  heading(`Pull request #${NUMBER} once that gate has exited: its statuses pending`);
  show();
  expect(
    contexts().length > 0 && Object.values(github.states(head)).every((state) => state === 'pending'),
    `the gate should leave its statuses pending on pull request #${NUMBER}'s head`,
  );

  // The run goes on at the service; nothing on GitHub's side waits for it.
  const run = await new Promise<{ status: string }>((resolve) => {
    const check = (): void => {
      const now = sim.getRun(runId);
      if (!now || ['success', 'failure', 'canceled'].includes(now.status)) resolve(now ?? { status: 'gone' });
      else setTimeout(check, 50);
    };
    check();
  });
  console.log(
    `\nThe run ${runId} ended: ${run.status}, with no runner waiting for it; its statuses still read pending.`,
  );
  expect(run.status === 'success', 'the run of the gate that holds no runner should succeed');

  heading(
    'sync-statuses/README.md\'s "Settle svc commit statuses", run by hand (workflow_dispatch), as on its schedule',
  );
  const settle = findRecipe('sync-statuses/README.md', 'Settle svc commit statuses')!;
  const settled = await runWorkflow(settle.text, {
    ...engine,
    github: { event_name: 'workflow_dispatch', repository: 'acme/app', api_url: github.url, event: {} },
  });
  const sync = settled.jobs.sync.steps[1];
  expect(
    sync.outcome === 'success' && Number(sync.outputs.settled) === contexts().length,
    `sync-statuses should settle every status the gate left (${contexts().length}), not ${sync.outputs.settled ?? 'none'}`,
  );

  heading(`Pull request #${NUMBER} after the sync: the final states`);
  show();
  expect(
    Object.values(github.states(head)).every((state) => state === 'success'),
    `sync-statuses should leave every status on pull request #${NUMBER}'s head success`,
  );
}
