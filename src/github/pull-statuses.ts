/**
 * The commits sync-statuses looks at, with the latest status of each of their contexts, read by
 * GraphQL: one query per 100 open pull requests (their head commits and merge-queue entries' head
 * commits). `Commit.status.contexts` is GitHub's combined status: the
 * latest status of each context, with its node id, creation time and creator; nothing more is
 * read per pull request. The first query also reads `viewer`, the token's own account.
 *
 * GitHub's documentation: graphql/reference/objects#pullrequest, #commit, #status, #statuscontext;
 * a connection's `first` is 1 to 100. The queries are validated against GitHub's published schema
 * (__tests__/github/pull-statuses.test.ts).
 */
import type { Octokit } from './github-api.js';

/** A status as GraphQL gives it, in the shape the sync plans with. */
export interface SeenStatus {
  /** The status's node id: a context that shows another id changed. */
  id: string;
  context: string;
  /** Lower case, as REST gives it: `pending`, `success`, `failure`, `error`. */
  state: string;
  description?: string | null;
  target_url?: string | null;
  created_at?: string;
  creator?: { login?: string } | null;
}

/** One commit to look at: its latest status per context. */
export interface SeenCommit {
  commit: string;
  statuses: SeenStatus[];
}

/** One page of open pull requests. */
export interface PullPage {
  /** The token's account (first page only). */
  viewer?: string;
  /** Each pull request's head commit, and its merge-queue entry's when it is queued. */
  commits: SeenCommit[];
  pullRequests: number;
  totalCount: number;
  after?: string;
}

const CONTEXT_FIELDS = 'id context state description targetUrl createdAt creator { login }';

/** Open pull requests, oldest first (so a new one never pushes an old one past a page), 100 a query. */
export const OPEN_PULLS_QUERY = `query OpenPullStatuses($owner: String!, $repo: String!, $after: String, $first: Boolean!) {
  viewer @include(if: $first) { login }
  repository(owner: $owner, name: $repo) {
    pullRequests(states: OPEN, first: 100, after: $after, orderBy: { field: CREATED_AT, direction: ASC }) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        number
        headRefOid
        commits(last: 1) { nodes { commit { oid status { contexts { ${CONTEXT_FIELDS} } } } } }
        mergeQueueEntry { headCommit { oid status { contexts { ${CONTEXT_FIELDS} } } } }
      }
    }
  }
}`;

/** The token's own account, for the `commit` input (whose statuses REST lists: status-list.ts). */
export const VIEWER_QUERY = 'query Viewer { viewer { login } }';

interface ContextNode {
  id?: string;
  context?: string;
  state?: string;
  description?: string | null;
  targetUrl?: string | null;
  createdAt?: string;
  creator?: { login?: string } | null;
}
interface CommitNode {
  oid?: string;
  status?: { contexts?: ContextNode[] } | null;
}

function seen(commit: CommitNode | null | undefined, fallback?: string): SeenCommit | undefined {
  const oid = (commit?.oid ?? fallback)?.toLowerCase();
  if (!oid) return undefined;
  const statuses = (commit?.status?.contexts ?? [])
    .filter((node) => typeof node.context === 'string' && typeof node.state === 'string')
    .map((node) => ({
      id: String(node.id ?? ''),
      context: node.context!,
      state: node.state!.toLowerCase(),
      description: node.description ?? null,
      target_url: node.targetUrl ?? null,
      created_at: node.createdAt,
      creator: node.creator ?? null,
    }));
  return { commit: oid, statuses };
}

/** One page of open pull requests after `after` (the first when absent). */
export async function openPullsPage(
  github: { octokit: Octokit; owner: string; repo: string },
  after: string | undefined,
  signal: AbortSignal,
): Promise<PullPage> {
  const answer = await github.octokit.graphql<{
    viewer?: { login?: string };
    repository?: {
      pullRequests?: {
        totalCount?: number;
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
        nodes?: Array<{
          number?: number;
          headRefOid?: string;
          commits?: { nodes?: Array<{ commit?: CommitNode } | null> };
          mergeQueueEntry?: { headCommit?: CommitNode | null } | null;
        } | null>;
      };
    } | null;
  }>(OPEN_PULLS_QUERY, {
    owner: github.owner,
    repo: github.repo,
    after: after ?? null,
    first: after === undefined,
    request: { signal },
  });
  const connection = answer.repository?.pullRequests;
  const nodes = (connection?.nodes ?? []).filter((node) => node !== null);
  const commits: SeenCommit[] = [];
  for (const node of nodes) {
    const head = seen(node.commits?.nodes?.at(-1)?.commit, node.headRefOid);
    if (head) commits.push(head);
    const queued = node.mergeQueueEntry?.headCommit ? seen(node.mergeQueueEntry.headCommit) : undefined;
    if (queued) commits.push(queued);
  }
  const next = connection?.pageInfo?.hasNextPage ? (connection.pageInfo.endCursor ?? undefined) : undefined;
  return {
    ...(answer.viewer?.login ? { viewer: answer.viewer.login } : {}),
    commits,
    pullRequests: nodes.length,
    totalCount: connection?.totalCount ?? nodes.length,
    ...(next ? { after: next } : {}),
  };
}

/** The token's own account's login. */
export async function viewerLogin(
  github: { octokit: Octokit },
  signal: AbortSignal,
): Promise<string | undefined> {
  const answer = await github.octokit.graphql<{ viewer?: { login?: unknown } }>(VIEWER_QUERY, {
    request: { signal },
  });
  const login = answer.viewer?.login;
  return typeof login === 'string' && login ? login : undefined;
}

/**
 * A login in the one form logins are compared in: GraphQL gives a status's creator without the
 * `[bot]` that `viewer` and REST carry (`github-actions` and `github-actions[bot]`), and logins are
 * not case-sensitive.
 */
export function sameLogin(a: string | undefined, b: string | undefined): boolean {
  const form = (login: string | undefined) => (login ?? '').replace(/\[bot\]$/i, '').toLowerCase();
  return Boolean(a && b) && form(a) === form(b);
}
