/**
 * The shared-status check of the commit statuses (statuses.ts posts them): the commit's statuses
 * read back, newest first, and held against what this step sets. Another service run's status posted
 * from this same GitHub run and attempt means two steps share a context (two matrix legs without a
 * `status-context` each): the caller ends it in `error`. Another GitHub run's status is replaced,
 * and said once per GitHub run. Apart from the posting queue, so that what the check decides can be
 * read (and changed) without the pacing around it. A marker of either form (status-marker.ts: the
 * compact one, and for this major version the old one) reads to the same run ids.
 */
import type { ActionIO } from '../runner/io.js';
import type { Octokit } from './github-api.js';
import { parseMarker, type StatusPoster } from './status-marker.js';
import { commitStatuses } from './status-list.js';
import { otherGitHubRunWarning, sharedContextsWarning } from './report.js';

/** Statuses read back per check at most (pages of 100): GitHub keeps up to 1,000 per context. */
export const READ_BACK_PAGES = 10;

/** A context another step of this GitHub run and attempt posts too, and the service run it posts for. */
export interface SharedContext {
  context: string;
  otherServiceRun: string;
}

export class SharedStatusCheck {
  private readonly warnedRuns = new Set<string>();
  private saidShared = false;

  constructor(
    private readonly io: ActionIO,
    private readonly poster: StatusPoster,
  ) {}

  /**
   * Reads `sha`'s statuses back; `known` says whether this step sets a context and whether it is
   * already held as shared; `another` is asked before each page after the first (the step's budget of
   * requests). Returns the contexts newly found shared, each once; warns of them (once
   * per step) and of each other GitHub run (once per run).
   */
  async check(
    github: { octokit: Octokit; owner: string; repo: string },
    sha: string,
    known: (context: string) => 'set' | 'shared' | undefined,
    another: () => boolean = () => true,
  ): Promise<SharedContext[]> {
    const { githubRunId, githubAttempt } = this.poster;
    if (!githubRunId) return [];
    const found: SharedContext[] = [];
    const seen = new Set<string>();
    for await (const status of commitStatuses(github, sha, READ_BACK_PAGES, another)) {
      const held = known(status.context);
      const other = parseMarker(status.description);
      if (!held || !other || other.serviceRunId === this.poster.serviceRunId) continue;
      if (other.githubRunId === githubRunId && other.githubAttempt === githubAttempt) {
        // GitHub's contexts ignore case: `Build` and `build` are one context.
        if (held === 'set' && !seen.has(status.context.toLowerCase())) {
          seen.add(status.context.toLowerCase());
          found.push({ context: status.context, otherServiceRun: other.serviceRunId });
        }
      } else if (
        other.githubRunId &&
        other.githubRunId !== githubRunId &&
        !this.warnedRuns.has(other.githubRunId)
      ) {
        this.warnedRuns.add(other.githubRunId);
        this.io.warning(
          otherGitHubRunWarning(
            status.context,
            sha,
            { githubRunId: other.githubRunId, serviceRunId: other.serviceRunId },
            { githubRunId, serviceRunId: this.poster.serviceRunId },
          ),
        );
      }
    }
    if (found.length > 0 && !this.saidShared) {
      this.saidShared = true;
      this.io.warning(
        sharedContextsWarning(
          githubRunId,
          String(githubAttempt),
          found.map(({ context }) => context),
        ),
      );
    }
    return found;
  }
}
